/**
 * (b, second way) Scrolling the seeded thread from the bottom to the top with real input: CDP's
 * `Input.synthesizeScrollGesture` sends mouse-wheel scrolling over the timeline at a steady
 * speed, as a fast trackpad or wheel fling does, repeated until the "Beginning of thread" marker
 * shows. The browser scrolls as it does for a user (on its compositor thread), so the page sees
 * one `scroll` per frame and a `scrollend` only when a gesture ends; the programmatic
 * `scrollTop` steps of scrollThread.ts instead end a scroll, and fire `scrollend`, every frame.
 *
 * Frames are measured the same way: the delta between requestAnimationFrame timestamps on the
 * page's main thread, plus Long Animation Frame entries.
 */
import type { Browser } from "@playwright/test";
import type { RigState } from "../../e2e/support/rig.ts";
import { frameStats, openForScroll, type ScrollResult } from "./scrollThread.ts";

/** Result of {@link measureScrollGesture}: the frame fields of the programmatic measure. */
export type GestureScrollResult = Omit<
  ScrollResult,
  | "longFramesAt"
  | "traced"
  | "tasksOver50Wall"
  | "tasksOver50Cpu"
  | "longestTaskCpu"
  | "rendererCpuSeconds"
>;

/** Gesture speed in px/s: a fast fling (a flick on a trackpad reaches 5,000-15,000). */
export const GESTURE_SPEED_PX_S = 12_000;
/** Distance of one gesture; gestures repeat until the beginning of the thread. */
const GESTURE_DISTANCE_PX = 24_000;

export async function measureScrollGesture(
  browser: Browser,
  rig: RigState,
): Promise<GestureScrollResult> {
  const { context, page, pagesLoaded } = await openForScroll(browser, rig);
  const box = await page.locator("[data-timeline]").boundingBox();
  if (!box) throw new Error("no timeline");

  // Record frames in the page until told to stop.
  await page.evaluate(() => {
    const w = window as unknown as {
      __frames: { deltas: number[]; long: number[]; stop: boolean; started: number };
    };
    const state = { deltas: [] as number[], long: [] as number[], stop: false, started: 0 };
    w.__frames = state;
    try {
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) state.long.push(entry.duration);
      }).observe({ type: "long-animation-frame", buffered: false });
    } catch {
      // Older Chromium: rAF deltas only.
    }
    let last = -1;
    const frame = (now: number) => {
      if (state.stop) return;
      if (last >= 0) state.deltas.push(now - last);
      else state.started = now;
      last = now;
      requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  });

  const cdp = await context.newCDPSession(page);
  const started = Date.now();
  const atBeginning = () =>
    page.evaluate(() => {
      const start = document.querySelector("[data-timeline-start]");
      const scroller = document.querySelector(".timeline__scroller");
      return start !== null && scroller !== null && scroller.scrollTop <= 0;
    });
  let reachedBeginning = false;
  while (Date.now() - started < 300_000) {
    await cdp.send("Input.synthesizeScrollGesture", {
      x: Math.round(box.x + box.width / 2),
      y: Math.round(box.y + box.height / 2),
      yDistance: GESTURE_DISTANCE_PX, // positive scrolls up
      speed: GESTURE_SPEED_PX_S,
      gestureSourceType: "mouse",
    });
    if (await atBeginning()) {
      reachedBeginning = true;
      break;
    }
  }
  const result = await page.evaluate(async () => {
    await new Promise((resolve) => setTimeout(resolve, 100));
    const w = window as unknown as {
      __frames: { deltas: number[]; long: number[]; stop: boolean; started: number };
    };
    w.__frames.stop = true;
    return {
      deltas: w.__frames.deltas,
      long: w.__frames.long,
      seconds: (performance.now() - w.__frames.started) / 1000,
    };
  });
  await context.close();
  const { deltas } = result;
  return {
    ...frameStats(deltas),
    longAnimationFrames: result.long.length,
    longestAnimationFrame: Math.max(0, ...result.long),
    pagesLoaded: pagesLoaded(),
    seconds: result.seconds,
    reachedBeginning,
  };
}
