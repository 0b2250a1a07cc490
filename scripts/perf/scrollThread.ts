/**
 * (b) Scrolling the seeded thread from the bottom to the top. The page scrolls its timeline
 * scroller up by a fixed step on every animation frame (a fast, steady fling) and records
 * every frame's duration as the delta between requestAnimationFrame timestamps, plus Long
 * Animation Frame entries (frames over 50 ms with their real duration). At the top it keeps
 * running while the app loads older pages, until the "Beginning of thread" marker shows.
 * Pages loaded are counted from `messages?before=` requests.
 */
import type { Browser } from "@playwright/test";
import type { RigState } from "../../e2e/support/rig.ts";
import { newPerfContext } from "./rig.ts";
import { percentile } from "./stats.ts";

/** Result of {@link measureScroll}. */
export interface ScrollResult {
  frames: number;
  /** Frames whose rAF delta exceeded 16.7 ms (one missed vsync at 60 Hz). */
  over16: number;
  /** Frames over 50 ms by rAF delta. */
  over50: number;
  /** Frames in which the content height changed (an older page arrived or rows were measured). */
  contentChangeFrames: number;
  /** Frames over 50 ms among the others (plain scrolling through loaded rows). */
  over50Steady: number;
  longestSteadyFrame: number;
  longestFrame: number;
  p95Frame: number;
  /** Long Animation Frame entries (>= 50 ms) reported by Chromium. */
  longAnimationFrames: number;
  /** Duration of the longest Long Animation Frame entry (0 when there was none). */
  longestAnimationFrame: number;
  pagesLoaded: number;
  seconds: number;
  reachedBeginning: boolean;
}

/** Pixels scrolled per frame: about 36,000 px/s at 60 Hz, a fast fling. */
export const SCROLL_STEP_PX = 600;

export async function measureScroll(browser: Browser, rig: RigState): Promise<ScrollResult> {
  const context = await newPerfContext(browser);
  const page = await context.newPage();
  let pagesLoaded = 0;
  page.on("request", (request) => {
    if (/\/messages\?.*before=/.test(request.url())) pagesLoaded++;
  });
  await page.goto(`${rig.baseURL}${rig.seededThreadPath}`);
  await page.getByText(`Answer ${rig.seededTurns} looks at`).waitFor();

  const result = await page.evaluate(async (step) => {
    const row = document.querySelector("[data-message-id]");
    let scroller: HTMLElement | null = row?.parentElement ?? null;
    while (scroller !== null) {
      const { overflowY } = getComputedStyle(scroller);
      if (
        (overflowY === "auto" || overflowY === "scroll") &&
        scroller.scrollHeight > scroller.clientHeight
      )
        break;
      scroller = scroller.parentElement;
    }
    if (scroller === null) throw new Error("no timeline scroller");
    const el = scroller;

    const longFrames: number[] = [];
    const observer = new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) longFrames.push(entry.duration);
    });
    try {
      observer.observe({ type: "long-animation-frame", buffered: false });
    } catch {
      // Older Chromium: rAF deltas only.
    }

    const deltas: number[] = [];
    // Per frame: did the content height change since the previous frame (a page prepended or
    // rows measured)? Separates the cost of loading pages from plain scrolling.
    const changed: boolean[] = [];
    let lastHeight = el.scrollHeight;
    const started = performance.now();
    const atBeginning = () => (document.body.textContent ?? "").includes("Beginning of thread");
    const reachedBeginning = await new Promise<boolean>((resolve) => {
      let last = -1;
      const frame = (now: number) => {
        if (last >= 0) {
          deltas.push(now - last);
          changed.push(el.scrollHeight !== lastHeight);
        }
        lastHeight = el.scrollHeight;
        last = now;
        if (el.scrollTop <= 0 && atBeginning()) return resolve(true);
        if (now - started > 180_000) return resolve(false);
        el.scrollTop = Math.max(0, el.scrollTop - step);
        requestAnimationFrame(frame);
      };
      requestAnimationFrame(frame);
    });
    // Let the last frames' entries arrive.
    await new Promise((resolve) => setTimeout(resolve, 100));
    observer.disconnect();
    return {
      deltas,
      changed,
      longFrames,
      seconds: (performance.now() - started) / 1000,
      reachedBeginning,
    };
  }, SCROLL_STEP_PX);
  await context.close();

  const { deltas, changed } = result;
  const steady = deltas.filter((_, i) => !changed[i]);
  return {
    frames: deltas.length,
    over16: deltas.filter((d) => d > 16.7).length,
    over50: deltas.filter((d) => d > 50).length,
    contentChangeFrames: deltas.length - steady.length,
    over50Steady: steady.filter((d) => d > 50).length,
    longestSteadyFrame: Math.max(0, ...steady),
    longestFrame: Math.max(...deltas),
    p95Frame: percentile(deltas, 95),
    longAnimationFrames: result.longFrames.length,
    longestAnimationFrame: Math.max(0, ...result.longFrames),
    pagesLoaded,
    seconds: result.seconds,
    reachedBeginning: result.reachedBeginning,
  };
}
