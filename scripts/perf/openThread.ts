/**
 * (a) Opening the seeded 2,000-turn thread: time from navigation start to the first message
 * row (`[data-message-id]`) visible on screen (the frame that paints it; attached to the DOM is
 * reported beside it), measured in the page by an observer installed before any app script runs. "Cold" runs use a fresh browser
 * context (empty HTTP cache and storage), so each downloads and compiles the app again; "warm"
 * runs navigate again in one context (app assets cached, API data fetched anew). Each run also
 * records when the entry script, the thread detail and the newest page finished loading
 * (Resource Timing) and when DOMContentLoaded ended (the entry module has run), to show where
 * the time goes, and when the first code block was shown highlighted (the highlighter and its
 * grammar load lazily, in idle time after the first rows), the First Contentful Paint, and the
 * critical path: the bytes of the document, scripts and style sheets requested before the first row.
 */
import type { Browser, Page } from "@playwright/test";
import type { RigState } from "../../e2e/support/rig.ts";
import { newPerfContext } from "./rig.ts";
import { median } from "./stats.ts";

/** One open, all times in ms from navigation start. */
export interface OpenRun {
  /** The first message row was visible on screen (the frame that paints it). */
  firstRow: number;
  /** The first message row was attached to the DOM (the figure before issue 33). */
  firstRowAttached: number;
  /**
   * The app's own first message row (inside `#root`, rendered by the app's code) was visible on
   * screen. Equals `firstRow` unless the page carried server-rendered first rows (issue 33).
   */
  firstAppRow: number;
  /** responseEnd of the app's entry script (the module script in index.html). */
  script: number;
  /** domContentLoadedEventEnd: the entry module has been compiled and run. */
  domContentLoaded: number;
  /** responseEnd of `GET /api/threads/:id`. */
  detail: number;
  /** responseEnd of the newest page `GET /api/threads/:id/messages?limit=`. */
  messages: number;
  /** The first highlighted code block (`code[data-highlighted]`) was in the DOM. */
  highlighted: number;
  /** First Contentful Paint. */
  fcp: number;
  /** The critical path: the document and every script and style sheet requested before the first row. */
  critical: CriticalPath;
}

/** What a page downloaded before its first row (Resource Timing; sizes in bytes). */
export interface CriticalPath {
  requests: number;
  /** Bytes on the wire (headers included; 0 for a response served from the cache). */
  transferred: number;
  /** Bytes after content decoding. */
  decoded: number;
}

/**
 * Runs in the page: FCP and the critical path up to `firstRow` (document, scripts, style sheets
 * and module preloads started before it; API requests are data, not the critical path's code).
 */
export function paintAndCriticalPath(firstRow: number): { fcp: number; critical: CriticalPath } {
  const fcp =
    performance.getEntriesByType("paint").find((entry) => entry.name === "first-contentful-paint")
      ?.startTime ?? Number.NaN;
  const entries = [
    ...(performance.getEntriesByType("navigation") as PerformanceResourceTiming[]),
    ...(performance.getEntriesByType("resource") as PerformanceResourceTiming[]).filter(
      (entry) =>
        entry.startTime < firstRow &&
        (["script", "link", "css"].includes(entry.initiatorType) || /\.(js|css)$/.test(entry.name)),
    ),
  ];
  return {
    fcp,
    critical: {
      requests: entries.length,
      transferred: entries.reduce((sum, entry) => sum + entry.transferSize, 0),
      decoded: entries.reduce((sum, entry) => sum + entry.decodedBodySize, 0),
    },
  };
}

/** Result of {@link measureOpenThread}. */
export interface OpenThreadResult {
  cold: OpenRun[];
  warm: OpenRun[];
  coldMedian: number;
  warmMedian: number;
}

/**
 * Installed with addInitScript: records performance.now() when the first row is VISIBLE on
 * screen (issue 33): attached, in the viewport with a size, and not hidden by itself or an
 * ancestor (`checkVisibility` with opacity and visibility), checked in each animation frame
 * from the moment a row is attached, so the time is that of the frame that paints it. Also
 * records when the first row was merely attached (`__perfFirstRowAttached`) and how many rows
 * that first render mounted.
 */
export function recordFirstRow(): void {
  const w = window as unknown as {
    __perfFirstRow?: number;
    __perfFirstRowAttached?: number;
    __perfRowsAtFirst?: number;
  };
  const visibleRow = (selector = "[data-message-id]"): boolean => {
    for (const row of document.querySelectorAll(selector)) {
      const rect = row.getBoundingClientRect();
      if (rect.width <= 0 || rect.height <= 0) continue;
      if (rect.bottom <= 0 || rect.top >= innerHeight || rect.right <= 0 || rect.left >= innerWidth)
        continue;
      if (row.checkVisibility({ opacityProperty: true, visibilityProperty: true })) return true;
    }
    return false;
  };
  const w3 = window as unknown as { __perfFirstAppRow?: number };
  const onAppFrame = (time: number) => {
    if (!visibleRow("#root [data-message-id]")) {
      requestAnimationFrame(onAppFrame);
      return;
    }
    w3.__perfFirstAppRow = time;
    // A mark in a trace, if one is recorded (parseCompile.ts cuts its sums there).
    console.timeStamp("perf-first-app-row");
    console.log("perf:first-app-row");
  };
  const onFrame = (time: number) => {
    if (!visibleRow()) {
      requestAnimationFrame(onFrame);
      return;
    }
    onAppFrame(time);
    // The frame's start time: the frame that paints the row.
    w.__perfFirstRow = time;
    w.__perfRowsAtFirst = document.querySelectorAll("[data-message-id]").length;
    // Reported through the console, which needs no script of Playwright's in the page: its
    // injected helper (used by waitForFunction) would otherwise run on the main thread
    // during the very load being measured.
    console.log("perf:first-row");
  };
  const observer = new MutationObserver(() => {
    if (w.__perfFirstRowAttached === undefined && document.querySelector("[data-message-id]")) {
      w.__perfFirstRowAttached = performance.now();
      observer.disconnect();
      requestAnimationFrame(onFrame);
    }
  });
  observer.observe(document, { childList: true, subtree: true });
  const w2 = window as unknown as { __perfHighlighted?: number };
  const highlights = new MutationObserver(() => {
    if (document.querySelector("code[data-highlighted]")) {
      w2.__perfHighlighted = performance.now();
      highlights.disconnect();
      console.log("perf:highlighted");
    }
  });
  highlights.observe(document, { childList: true, subtree: true, attributes: true });
}

/** Resolves when {@link recordFirstRow} reports the first row; call it before navigating. */
export function waitForFirstRow(page: Page): Promise<unknown> {
  return page.waitForEvent("console", {
    predicate: (message) => message.text() === "perf:first-row",
    timeout: 30_000,
  });
}

async function openOnce(page: Page, url: string): Promise<OpenRun> {
  const firstRow = waitForFirstRow(page);
  const highlighted = page.waitForEvent("console", {
    predicate: (message) => message.text() === "perf:highlighted",
    timeout: 30_000,
  });
  const firstAppRow = page.waitForEvent("console", {
    predicate: (message) => message.text() === "perf:first-app-row",
    timeout: 30_000,
  });
  await page.goto(url);
  await firstRow;
  await firstAppRow;
  await highlighted;
  const row = await page.evaluate(
    () => (window as unknown as { __perfFirstRow: number }).__perfFirstRow,
  );
  const paint = await page.evaluate(paintAndCriticalPath, row);
  const timing = await page.evaluate(() => {
    const resources = performance.getEntriesByType("resource") as PerformanceResourceTiming[];
    // The first matching request: the app fetches the newest page again after the first paint.
    const end = (matches: (name: string) => boolean) =>
      resources.find((entry) => matches(entry.name))?.responseEnd ?? 0;
    const entryScript = document.querySelector<HTMLScriptElement>("script[type=module][src]")?.src;
    const navigation = performance.getEntriesByType("navigation")[0] as
      | PerformanceNavigationTiming
      | undefined;
    return {
      firstRow: (window as unknown as { __perfFirstRow: number }).__perfFirstRow,
      firstRowAttached: (window as unknown as { __perfFirstRowAttached: number })
        .__perfFirstRowAttached,
      firstAppRow: (window as unknown as { __perfFirstAppRow: number }).__perfFirstAppRow,
      script: end((name) => name === entryScript),
      domContentLoaded: navigation?.domContentLoadedEventEnd ?? 0,
      detail: end((name) => /\/api\/threads\/[^/?]+$/.test(name)),
      messages: end((name) => /\/messages\?/.test(name)),
      highlighted: (window as unknown as { __perfHighlighted: number }).__perfHighlighted,
    };
  });
  return { ...timing, ...paint };
}

/** Opens the seeded thread `runs` times cold and `runs` times warm. */
export async function measureOpenThread(
  browser: Browser,
  rig: RigState,
  runs = 5,
  { warm: measureWarm = true }: { warm?: boolean } = {},
): Promise<OpenThreadResult> {
  const url = `${rig.baseURL}${rig.seededThreadPath}`;
  const cold: OpenRun[] = [];
  for (let i = 0; i < runs; i++) {
    const context = await newPerfContext(browser);
    await context.addInitScript(recordFirstRow);
    cold.push(await openOnce(await context.newPage(), url));
    await context.close();
  }
  const warm: OpenRun[] = [];
  if (!measureWarm)
    return {
      cold,
      warm,
      coldMedian: median(cold.map((run) => run.firstRow)),
      warmMedian: Number.NaN,
    };
  const context = await newPerfContext(browser);
  await context.addInitScript(recordFirstRow);
  const page = await context.newPage();
  await openOnce(page, url); // fills the cache
  for (let i = 0; i < runs; i++) warm.push(await openOnce(page, url));
  await context.close();
  return {
    cold,
    warm,
    coldMedian: median(cold.map((run) => run.firstRow)),
    warmMedian: median(warm.map((run) => run.firstRow)),
  };
}
