/**
 * (e) Citation jumps on the seeded 2,000-turn thread at 1280×800: from the click on a chip to
 * the first frame in which the cited words are highlighted (`assistant-citation`) and lie
 * inside the timeline's visible box, median of 5, for a source already in view and for sources
 * 50, 300 and 1,900 turns back (the seed's last prompt links to them); then from the click on
 * **Jump to latest** (after a deep jump) to the first frame showing the newest message. Also
 * the JS heap (after a forced GC) after opening the thread and after 10 jumps back and forth
 * (deep jump, then **Back to where you were**).
 *
 * The click's time is the click event's own `timeStamp` (the input's time); the end is the first
 * requestAnimationFrame callback (the frame about to be painted) that sees the condition, read
 * with `performance.now()`, so both are on the page's clock. Jump to latest counts when the
 * newest message's row is inside the timeline's visible box.
 */
import type { Browser, Locator, Page } from "@playwright/test";
import type { RigState } from "../../e2e/support/rig.ts";
import {
  collectAssistantCitations,
  serializeAssistantCitation,
} from "../../packages/citations/src/index.ts";
import { newPerfContext } from "./rig.ts";
import { median } from "./stats.ts";

/** One measured case. */
export interface JumpCase {
  label: string;
  runs: number[];
  median: number;
}

/** Result of {@link measureCitationJumps}. */
export interface CitationJumpsResult {
  cases: JumpCase[];
  heapAfterOpen: number;
  heapAfterJumps: number;
  heapRatio: number;
}

const TURN_BACKS = [50, 300, 1900] as const;

/**
 * Starts watching (in the page) for the end condition, then clicks `selector`'s element and
 * resolves with click → condition met, in ms. `condition` is evaluated every frame.
 */
export async function timeClick(
  page: Page,
  target: Locator,
  condition: "highlight" | { newestId: string },
): Promise<number> {
  // Playwright's click waits until the element is stable, so a late layout shift cannot make
  // it miss; the measure starts at the click event itself.
  await target.scrollIntoViewIfNeeded();
  await page.evaluate((cond) => {
    const w = window as unknown as { __jump?: Promise<number> };
    let clickedAt: number | null = null;
    window.addEventListener(
      "click",
      (event) => {
        clickedAt = event.timeStamp;
      },
      { capture: true, once: true },
    );
    const scrollerBox = () =>
      document.querySelector(".timeline__scroller")?.getBoundingClientRect();
    const met = (): boolean => {
      const box = scrollerBox();
      if (!box) return false;
      if (cond === "highlight") {
        const highlight = CSS.highlights.get("assistant-citation");
        const range = highlight ? [...highlight][0] : undefined;
        if (!(range instanceof Range)) return false;
        const rect = range.getBoundingClientRect();
        return rect.height > 0 && rect.top >= box.top && rect.bottom <= box.bottom;
      }
      const row = document.querySelector(`[data-message-id="${CSS.escape(cond.newestId)}"]`);
      if (!row) return false;
      const rect = row.getBoundingClientRect();
      return rect.bottom > box.top && rect.top < box.bottom;
    };
    w.__jump = new Promise<number>((resolve, reject) => {
      const started = performance.now();
      const tick = () => {
        // performance.now(), not the frame's start time: an event can arrive mid-frame, after it.
        if (clickedAt !== null && met()) return resolve(performance.now() - clickedAt);
        if (performance.now() - started > 20_000) {
          return reject(new Error(`not done 20 s after the click: ${JSON.stringify(cond)}`));
        }
        requestAnimationFrame(tick);
      };
      requestAnimationFrame(tick);
    });
  }, condition);
  await target.click();
  return page.evaluate(() => (window as unknown as { __jump: Promise<number> }).__jump);
}

export const chipSelector = (comment: string) =>
  `a[data-assistant-citation-chip][aria-label="Assistant quote: ${comment}"]`;

/** Opens the seeded thread and waits until it is idle (composer mounted). */
export async function openThread(page: Page, rig: RigState): Promise<void> {
  await page.goto(`${rig.baseURL}${rig.seededThreadPath}`);
  await page.getByRole("textbox", { name: "Message", exact: true }).waitFor();
  await page.waitForTimeout(300);
}

async function heapUsed(page: Page): Promise<number> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("HeapProfiler.collectGarbage");
  const { usedSize } = (await cdp.send("Runtime.getHeapUsage")) as { usedSize: number };
  await cdp.detach();
  return usedSize;
}

/**
 * Adds a turn whose prompt cites the newest seeded answer's code line (just above the prompt),
 * so its chip and source are on screen together; waits for the demo reply to finish.
 */
async function addInViewChip(rig: RigState): Promise<void> {
  const newest = (await (
    await fetch(`${rig.baseURL}/api/threads/${rig.seededThreadId}/messages?limit=4`)
  ).json()) as { messages: { id: string; kind: string; text: string }[] };
  const answer = newest.messages.filter((m) => m.kind === "answer").at(-1)!;
  const line = /const turn\d+ = await api\.sendTurn\(threadId, "step \d+"\);/.exec(answer.text)![0];
  const link = serializeAssistantCitation({
    version: 1,
    environmentId: rig.environmentId,
    threadId: rig.seededThreadId,
    messageId: answer.id,
    text: line,
    start: 0,
    end: line.length,
    prefix: "",
    suffix: "",
    comment: "The code line above",
  });
  const origin = new URL(rig.baseURL).origin;
  const sent = await fetch(`${rig.baseURL}/api/threads/${rig.seededThreadId}/turns`, {
    method: "POST",
    headers: { "content-type": "application/json", origin },
    body: JSON.stringify({ input: `See ${link}` }),
  });
  if (!sent.ok) throw new Error(`could not add the in-view chip: ${sent.status}`);
  for (let i = 0; i < 100; i++) {
    const detail = (await (
      await fetch(`${rig.baseURL}/api/threads/${rig.seededThreadId}`)
    ).json()) as { activeTurn: unknown };
    if (detail.activeTurn === null) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error("the in-view chip's reply did not finish");
}

/** The seeded thread's deep-link comments by turns back, read from its last prompts. */
async function deepLinkComments(rig: RigState): Promise<Map<number, string>> {
  const page = (await (
    await fetch(`${rig.baseURL}/api/threads/${rig.seededThreadId}/messages?limit=40`)
  ).json()) as { messages: { kind: string; text: string }[] };
  const comments = new Map<number, string>();
  for (const message of page.messages) {
    if (message.kind !== "prompt") continue;
    for (const { citation } of collectAssistantCitations(message.text)) {
      const match = /^Deep link to turn (\d+)$/.exec(citation.comment ?? "");
      if (match) comments.set(rig.seededTurns - Number(match[1]), citation.comment!);
    }
  }
  return comments;
}

/** Measures every case `runs` times (each run in a freshly opened thread, warm cache). */
export async function measureCitationJumps(
  browser: Browser,
  rig: RigState,
  runs = 5,
): Promise<CitationJumpsResult> {
  await addInViewChip(rig);
  const comments = await deepLinkComments(rig);
  const context = await newPerfContext(browser);
  const page = await context.newPage();
  const cases: JumpCase[] = [];
  const caseOf = (label: string, values: number[]) =>
    cases.push({ label, runs: values, median: median(values) });
  try {
    await openThread(page, rig); // fills the cache

    const inView: number[] = [];
    for (let i = 0; i < runs; i++) {
      await openThread(page, rig);
      inView.push(
        await timeClick(page, page.locator(chipSelector("The code line above")), "highlight"),
      );
    }
    caseOf("source in view", inView);

    for (const back of TURN_BACKS) {
      const comment = comments.get(back);
      if (comment === undefined) throw new Error(`no deep link ${back} turns back`);
      const values: number[] = [];
      for (let i = 0; i < runs; i++) {
        await openThread(page, rig);
        values.push(await timeClick(page, page.locator(chipSelector(comment)), "highlight"));
      }
      caseOf(`${back.toLocaleString("en")} turns back`, values);
    }

    const newestId = await page.evaluate(async (threadId) => {
      const res = await fetch(`/api/threads/${threadId}/messages?limit=1`);
      return ((await res.json()) as { messages: { id: string }[] }).messages[0]!.id;
    }, rig.seededThreadId);
    const latest: number[] = [];
    const deepest = comments.get(1900)!;
    for (let i = 0; i < runs; i++) {
      await openThread(page, rig);
      await timeClick(page, page.locator(chipSelector(deepest)), "highlight");
      const button = page.getByRole("button", { name: "Jump to latest" });
      latest.push(await timeClick(page, button, { newestId }));
    }
    caseOf("Jump to latest (after a 1,900-turn jump)", latest);

    // Heap: after opening, then after 10 jumps back and forth.
    await openThread(page, rig);
    const heapAfterOpen = await heapUsed(page);
    for (let i = 0; i < 10; i++) {
      await timeClick(page, page.locator(chipSelector(deepest)), "highlight");
      await page.getByRole("button", { name: "Back to where you were" }).click();
      await page.locator(chipSelector(deepest)).waitFor();
      await page.waitForTimeout(100);
    }
    const heapAfterJumps = await heapUsed(page);
    return { cases, heapAfterOpen, heapAfterJumps, heapRatio: heapAfterJumps / heapAfterOpen };
  } finally {
    await context.close();
  }
}
