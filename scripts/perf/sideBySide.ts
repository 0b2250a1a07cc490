/**
 * Side by side with the naive baseline (baseline.ts: the same thread exported and rendered by a
 * plain, non-virtualized react-markdown list), each measure run alternately for ours and the
 * baseline in the same minutes, so both see the same machine load:
 *
 * - open: a fresh browser context each run (1280×800), navigation start to the first message
 *   row (`[data-message-id]` attached), First Contentful Paint, and the JS heap after a forced GC
 *   once the page has settled;
 * - scroll: from the newest message to the top at {@link SCROLL_STEP_PX} px per frame (ours
 *   loads older pages on the way, until "Beginning of thread"), counting frames over 50 ms by
 *   rAF delta and Long Animation Frame entries.
 *
 * Ratios are ours / baseline of the medians: below 1 is better for us.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "@playwright/test";
import type { RigState } from "../../e2e/support/rig.ts";
import { startBaseline } from "./baseline.ts";
import { paintAndCriticalPath, recordFirstRow, waitForFirstRow } from "./openThread.ts";
import { newPerfContext } from "./rig.ts";
import { frameStats, SCROLL_STEP_PX } from "./scrollThread.ts";
import { median } from "./stats.ts";

/** One open of either page. */
export interface SideOpen {
  firstRow: number;
  fcp: number;
  /** JS heap used after a forced GC, bytes. */
  heap: number;
}

/** One scroll to the top of either page. */
export interface SideScroll {
  frames: number;
  over50: number;
  longAnimationFrames: number;
  longestFrame: number;
  seconds: number;
  reachedTop: boolean;
}

export interface SideBySideResult {
  baselineMessages: number;
  ours: { open: SideOpen[]; scroll: SideScroll[] };
  baseline: { open: SideOpen[]; scroll: SideScroll[] };
  /** ours / baseline, of the medians. */
  ratios: { firstRow: number; fcp: number; heap: number; longFrames: number };
}

async function heapUsed(page: Page): Promise<number> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("HeapProfiler.collectGarbage");
  const { usedSize } = (await cdp.send("Runtime.getHeapUsage")) as { usedSize: number };
  await cdp.detach();
  return usedSize;
}

/** Opens `url` in a fresh context; `settled` waits until the page is done loading. */
async function openOnce(
  browser: Browser,
  url: string,
  settled: (page: Page) => Promise<void>,
): Promise<SideOpen> {
  const context = await newPerfContext(browser);
  await context.addInitScript(recordFirstRow);
  const page = await context.newPage();
  try {
    const shown = waitForFirstRow(page);
    await page.goto(url);
    await shown;
    const firstRow = await page.evaluate(
      () => (window as unknown as { __perfFirstRow: number }).__perfFirstRow,
    );
    await settled(page);
    // Read once painted: the baseline paints its first content only after laying out every row.
    await page.waitForFunction(
      () => performance.getEntriesByName("first-contentful-paint").length > 0,
      undefined,
      { timeout: 60_000 },
    );
    const { fcp } = await page.evaluate(paintAndCriticalPath, firstRow);
    return { firstRow, fcp, heap: await heapUsed(page) };
  } finally {
    await context.close();
  }
}

/** Runs in the page: scrolls the rows' scroller to the top, recording frame times. */
async function scrollToTop({ step, untilText }: { step: number; untilText: string | null }) {
  let scroller = document.querySelector("[data-message-id]")?.parentElement ?? null;
  while (scroller !== null) {
    const { overflowY } = getComputedStyle(scroller);
    if (
      (overflowY === "auto" || overflowY === "scroll") &&
      scroller.scrollHeight > scroller.clientHeight
    )
      break;
    scroller = scroller.parentElement;
  }
  if (scroller === null) throw new Error("no scroller");
  const el = scroller;
  const longFrames: number[] = [];
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) longFrames.push(entry.duration);
  });
  observer.observe({ type: "long-animation-frame", buffered: false });
  const deltas: number[] = [];
  const started = performance.now();
  const done = () =>
    el.scrollTop <= 0 &&
    (untilText === null || (document.body.textContent ?? "").includes(untilText));
  const reachedTop = await new Promise<boolean>((resolve) => {
    let last = -1;
    const frame = (now: number) => {
      if (last >= 0) deltas.push(now - last);
      last = now;
      if (done()) return resolve(true);
      if (now - started > 180_000) return resolve(false);
      el.scrollTop = Math.max(0, el.scrollTop - step);
      requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  });
  await new Promise((resolve) => setTimeout(resolve, 100));
  observer.disconnect();
  return { deltas, longFrames, seconds: (performance.now() - started) / 1000, reachedTop };
}

async function scrollOnce(
  browser: Browser,
  url: string,
  settled: (page: Page) => Promise<void>,
  untilText: string | null,
): Promise<SideScroll> {
  const context = await newPerfContext(browser);
  const page = await context.newPage();
  try {
    await page.goto(url);
    await page.locator("[data-message-id]").first().waitFor();
    await settled(page);
    const result = await page.evaluate(scrollToTop, { step: SCROLL_STEP_PX, untilText });
    const stats = frameStats(result.deltas);
    return {
      frames: stats.frames,
      over50: stats.over50,
      longestFrame: stats.longestFrame,
      longAnimationFrames: result.longFrames.length,
      seconds: result.seconds,
      reachedTop: result.reachedTop,
    };
  } finally {
    await context.close();
  }
}

/**
 * Opens ours and the baseline `openRuns` times each and scrolls each to the top `scrollRuns`
 * times, alternating which goes first.
 */
export async function measureSideBySide(
  browser: Browser,
  rig: RigState,
  { openRuns = 5, scrollRuns = 2, port = 4396 } = {},
): Promise<SideBySideResult> {
  const dir = mkdtempSync(join(tmpdir(), "chat-baseline-"));
  const site = await startBaseline(rig, dir, port);
  const oursUrl = `${rig.baseURL}${rig.seededThreadPath}`;
  // Ours has settled once the composer mounted (first idle period after the first rows).
  const oursSettled = async (page: Page) => {
    await page.getByRole("textbox", { name: "Message" }).waitFor();
    await page.waitForTimeout(500);
  };
  const baselineSettled = async (page: Page) => {
    await page.waitForTimeout(500);
  };
  const sides = [
    { url: oursUrl, settled: oursSettled, untilText: "Beginning of thread" },
    { url: site.url, settled: baselineSettled, untilText: null },
  ] as const;
  const result = {
    baselineMessages: site.messages,
    ours: { open: [] as SideOpen[], scroll: [] as SideScroll[] },
    baseline: { open: [] as SideOpen[], scroll: [] as SideScroll[] },
  };
  const bucket = (index: number) => (index === 0 ? result.ours : result.baseline);
  try {
    for (let i = 0; i < openRuns; i++) {
      for (const index of i % 2 === 0 ? [0, 1] : [1, 0]) {
        const side = sides[index]!;
        bucket(index).open.push(await openOnce(browser, side.url, side.settled));
      }
    }
    for (let i = 0; i < scrollRuns; i++) {
      for (const index of i % 2 === 0 ? [0, 1] : [1, 0]) {
        const side = sides[index]!;
        bucket(index).scroll.push(
          await scrollOnce(browser, side.url, side.settled, side.untilText),
        );
      }
    }
  } finally {
    await site.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  const ratio = (pick: (side: typeof result.ours) => number[]) =>
    median(pick(result.ours)) / median(pick(result.baseline));
  return {
    ...result,
    ratios: {
      firstRow: ratio((side) => side.open.map((run) => run.firstRow)),
      fcp: ratio((side) => side.open.map((run) => run.fcp)),
      heap: ratio((side) => side.open.map((run) => run.heap)),
      longFrames:
        scrollRuns === 0 ? Number.NaN : ratio((side) => side.scroll.map((run) => run.over50)),
    },
  };
}
