/**
 * (b) Scrolling the seeded thread from the bottom to the top. The page scrolls its timeline
 * scroller up by a fixed step on every animation frame (a fast, steady fling) and records
 * every frame's duration as the delta between requestAnimationFrame timestamps, plus Long
 * Animation Frame entries (frames over 50 ms with their real duration). At the top it keeps
 * running while the app loads older pages, until the "Beginning of thread" marker shows.
 * Pages loaded are counted from `messages?before=` requests.
 *
 * With PERF_TRACE=1, a Chromium trace ("toplevel" category) recorded meanwhile gives every renderer main-thread
 * task with its wall time (`dur`) and its CPU time (`tdur`). On a busy machine a long wall time
 * with little CPU time is the renderer waiting for a core, not app work, so the CPU time says
 * whether the app itself blocks a frame.
 */
import type { Browser } from "@playwright/test";
import type { RigState } from "../../e2e/support/rig.ts";
import { newPerfContext } from "./rig.ts";
import { percentile } from "./stats.ts";
import { rendererMainTasks } from "./trace.ts";

/** Result of {@link measureScroll}. */
export interface ScrollResult {
  frames: number;
  /** Frames whose rAF delta exceeded 16.7 ms (one missed vsync at 60 Hz). */
  over16: number;
  /** Frames that missed two or more vsyncs (rAF delta over 34 ms): the tail just below the target. */
  over34: number;
  /** Frames over 50 ms by rAF delta. */
  over50: number;
  longestFrame: number;
  p95Frame: number;
  /** When each frame over 34 ms ended, in ms since the scroll started. */
  longFramesAt: number[];
  /** Long Animation Frame entries (>= 50 ms) reported by Chromium. */
  longAnimationFrames: number;
  /** Duration of the longest Long Animation Frame entry (0 when there was none). */
  longestAnimationFrame: number;
  /** Whether a Chromium trace was recorded (PERF_TRACE=1); the task fields below need it. */
  traced: boolean;
  /** Renderer main-thread tasks over 50 ms wall time, and how many of them used over 50 ms CPU. */
  tasksOver50Wall: number;
  tasksOver50Cpu: number;
  /** Largest CPU time of one renderer main-thread task. */
  longestTaskCpu: number;
  /** Renderer main-thread CPU time over the whole scroll, in seconds. */
  rendererCpuSeconds: number;
  pagesLoaded: number;
  seconds: number;
  reachedBeginning: boolean;
}

/** Frame counts from rAF deltas: the fields both scroll measures report. */
export function frameStats(deltas: number[]) {
  return {
    frames: deltas.length,
    over16: deltas.filter((d) => d > 16.7).length,
    over34: deltas.filter((d) => d > 34).length,
    over50: deltas.filter((d) => d > 50).length,
    longestFrame: Math.max(...deltas),
    p95Frame: percentile(deltas, 95),
  };
}

/** Pixels scrolled per frame: about 36,000 px/s at 60 Hz, a fast fling. */
export const SCROLL_STEP_PX = 600;

/**
 * Opens the seeded thread in a fresh context and waits until the page has settled (the composer
 * mounts in the first idle period after the first rows), so a scroll measure measures scrolling
 * through the thread; opening it is measured on its own. `pagesLoaded()` counts the older pages
 * requested since.
 */
export async function openForScroll(browser: Browser, rig: RigState) {
  const context = await newPerfContext(browser);
  const page = await context.newPage();
  let pagesLoaded = 0;
  page.on("request", (request) => {
    if (/\/messages\?.*before=/.test(request.url())) pagesLoaded++;
  });
  await page.goto(`${rig.baseURL}${rig.seededThreadPath}`);
  await page.getByText(`Answer ${rig.seededTurns} looks at`).waitFor();
  await page.getByRole("textbox", { name: "Message" }).waitFor();
  await page.waitForTimeout(500);
  return { context, page, pagesLoaded: () => pagesLoaded };
}

export async function measureScroll(browser: Browser, rig: RigState): Promise<ScrollResult> {
  const { context, page, pagesLoaded } = await openForScroll(browser, rig);

  // Tracing itself loads the browser (its buffers, its threads) and was seen stalling frames
  // that had no long task: it is opt-in, for when the CPU split is wanted.
  const traced = process.env.PERF_TRACE === "1";
  if (traced) await browser.startTracing(page, { categories: ["toplevel"] });
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
    const longAt: number[] = [];
    const started = performance.now();
    const atBeginning = () => (document.body.textContent ?? "").includes("Beginning of thread");
    const reachedBeginning = await new Promise<boolean>((resolve) => {
      let last = -1;
      const frame = (now: number) => {
        if (last >= 0) {
          deltas.push(now - last);
          if (now - last > 34) longAt.push(Math.round(now - started));
        }
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
      longAt,
      longFrames,
      seconds: (performance.now() - started) / 1000,
      reachedBeginning,
    };
  }, SCROLL_STEP_PX);
  const tasks = traced ? rendererMainTasks(await browser.stopTracing()) : [];
  await context.close();

  const { deltas } = result;
  return {
    ...frameStats(deltas),
    longFramesAt: result.longAt,
    longAnimationFrames: result.longFrames.length,
    longestAnimationFrame: Math.max(0, ...result.longFrames),
    traced,
    tasksOver50Wall: tasks.filter((task) => task.wall > 50).length,
    tasksOver50Cpu: tasks.filter((task) => task.cpu > 50).length,
    longestTaskCpu: Math.max(0, ...tasks.map((task) => task.cpu)),
    rendererCpuSeconds: tasks.reduce((sum, task) => sum + task.cpu, 0) / 1000,
    pagesLoaded: pagesLoaded(),
    seconds: result.seconds,
    reachedBeginning: result.reachedBeginning,
  };
}
