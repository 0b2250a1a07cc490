/**
 * (f) Find steps on the seeded 2,000-turn thread at 1280×800 (issue 23): the query
 * `0 looks at streaming parsers` matches the lead of every 40th answer (turns 40, 80, ..., 2,000:
 * 50 matches spread over the whole thread, plus any prompt quoting one of them). After the bar
 * has every page, Enter is pressed once per match; each step is timed from the keydown event's
 * own `timeStamp` to the first animation frame in which the `thread-find-current` highlight lies
 * inside the timeline's visible box on a message other than the previous step's (read with
 * `performance.now()`, so both ends are on the page's clock). Median, p95 and worst of all steps.
 */
import type { Browser, Page } from "@playwright/test";
import type { RigState } from "../../e2e/support/rig.ts";
import { newPerfContext } from "./rig.ts";
import { median } from "./stats.ts";

/** The query: every 40th answer's lead ("Answer 40 looks at streaming parsers ..."). */
export const FIND_STEP_QUERY = "0 looks at streaming parsers";

/** Result of {@link measureFindSteps}. */
export interface FindStepsResult {
  matches: number;
  runs: number[];
  median: number;
  p95: number;
  worst: number;
}

/** Presses Enter in the find bar and resolves with keydown → the next match highlighted in view. */
async function timeStep(page: Page): Promise<number> {
  await page.evaluate(() => {
    const w = window as unknown as { __step?: Promise<number> };
    const describedId = () =>
      document
        .querySelector('article[aria-describedby*="thread-find-match"]')
        ?.getAttribute("data-message-id") ?? null;
    const before = describedId();
    let pressedAt: number | null = null;
    window.addEventListener(
      "keydown",
      (event) => {
        pressedAt = event.timeStamp;
      },
      { capture: true, once: true },
    );
    const inView = (): boolean => {
      const highlight = CSS.highlights.get("thread-find-current");
      const range = highlight ? [...highlight][0] : undefined;
      const scroller = document.querySelector(".timeline__scroller");
      if (!(range instanceof Range) || !scroller) return false;
      const rect = range.getBoundingClientRect();
      const box = scroller.getBoundingClientRect();
      return rect.height > 0 && rect.top >= box.top && rect.bottom <= box.bottom;
    };
    w.__step = new Promise<number>((resolve, reject) => {
      const started = performance.now();
      const tick = () => {
        const now = describedId();
        if (pressedAt !== null && now !== null && now !== before && inView()) {
          return resolve(performance.now() - pressedAt);
        }
        if (performance.now() - started > 20_000)
          return reject(new Error("step not shown in 20 s"));
        requestAnimationFrame(tick);
      };
      requestAnimationFrame(tick);
    });
  });
  await page.keyboard.press("Enter");
  return page.evaluate(() => (window as unknown as { __step: Promise<number> }).__step);
}

/** Opens the seeded thread, searches, and times one step per match (see the module doc). */
export async function measureFindSteps(browser: Browser, rig: RigState): Promise<FindStepsResult> {
  const context = await newPerfContext(browser);
  const page = await context.newPage();
  try {
    await page.goto(`${rig.baseURL}${rig.seededThreadPath}`);
    await page.getByRole("textbox", { name: "Message", exact: true }).waitFor();
    await page.waitForTimeout(300);
    await page.keyboard.press("Control+f");
    const box = page.getByRole("textbox", { name: "Find in thread" });
    await box.fill(FIND_STEP_QUERY);
    const count = page.locator("[data-find-count]");
    // Every page in (no "+"), the match nearest the view shown.
    await page.waitForFunction(
      () => /^\d+ of \d+$/.test(document.querySelector("[data-find-count]")?.textContent ?? ""),
      undefined,
      { timeout: 20_000 },
    );
    const matches = Number((await count.textContent())!.split(" of ")[1]);
    await page.waitForTimeout(500);
    const runs: number[] = [];
    for (let i = 0; i < matches; i++) runs.push(await timeStep(page));
    const sorted = [...runs].sort((a, b) => a - b);
    return {
      matches,
      runs,
      median: median(runs),
      p95: sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.95) - 1)]!,
      worst: sorted[sorted.length - 1]!,
    };
  } finally {
    await context.close();
  }
}
