/**
 * (c) Typing into a composer restored from a saved draft: one that holds 100 chips (50 file
 * mentions, 50 skills), and a 120,000-character single-paragraph draft with 50 citation chips
 * (over the limit once its quotes are expanded, so the live count and the disabled Send are
 * part of what each keystroke may cost). For each keystroke the page records keydown `event.timeStamp` and the time of
 * the first animation frame after the editor's DOM changed, read after that frame painted
 * (a MessageChannel task queued from requestAnimationFrame). One key at a time: the next key is
 * pressed only after the previous one was measured.
 *
 * Keys are sent at spread-out points of the 60 Hz frame, as a person's keystrokes land. Sent
 * straight after the previous measurement (which resolves in a frame callback), every key would
 * arrive just after a frame and wait nearly a whole one for the next: the median was then
 * ~16.5 ms whatever the app did (measured 2026-12-03, with the app's own work at ~4 ms). So each
 * key waits a delay from a golden-ratio sequence over one frame first (reproducible, evenly
 * spread), and the app's own work (keydown to the editor's DOM update) is reported separately.
 */
import { setTimeout as sleep } from "node:timers/promises";
import type { Browser, Page } from "@playwright/test";
import type { RigState } from "../../e2e/support/rig.ts";
import {
  PROVIDER_INPUT_MAX_CHARS,
  serializeAssistantCitation,
} from "../../packages/citations/src/index.ts";
import { newPerfContext } from "./rig.ts";
import { median, percentile } from "./stats.ts";
import { type CpuProfile, rendererMainTasks } from "./trace.ts";

/** Result of {@link measureTyping}. */
export interface TypingResult {
  /** Characters in the restored draft. */
  draftLength: number;
  chips: number;
  keystrokes: number;
  median: number;
  p95: number;
  worst: number;
  /** Keydown to the editor's DOM update (the app's input handling, without the frame wait). */
  workMedian: number;
  workP95: number;
  /** Renderer main-thread tasks over 16 ms CPU time while typing (input handling, rendering). */
  tasksOver16Cpu: number;
  longestTaskCpu: number;
  /** Live length count measurements while typing (idle time, after the keystroke painted). */
  countMeasurements: number;
  countMedian: number;
  countWorst: number;
}

/** A prompt with `count` chips: alternating `@path` mentions and `$skill` tokens between words. */
export function promptWithChips(count: number): string {
  const parts: string[] = [];
  for (let i = 0; i < count; i++) {
    parts.push(i % 2 === 0 ? `see @src/module${i}/file${i}.ts` : `then $skill-${i}`);
  }
  return `${parts.join(" and ")} `;
}

/**
 * A single paragraph of exactly `length` characters (default 120,000) with `count` citation
 * chips spread through it: the worst case the composer accepts as typed. Its quotes expand past
 * the limit, so the composer shows "N over" and keeps Send disabled while the user types.
 */
export function promptWithQuotes(
  ids: { environmentId: string; threadId: string },
  count = 50,
  length = PROVIDER_INPUT_MAX_CHARS,
): string {
  const links = Array.from({ length: count }, (_, i) =>
    serializeAssistantCitation({
      version: 1,
      environmentId: ids.environmentId,
      threadId: ids.threadId,
      messageId: `message-${i}`,
      text: `the quoted sentence number ${i} from an earlier answer, cited in full`,
      start: 100 + i,
      end: 170 + i,
      prefix: "a little context before ",
      suffix: " and after it",
    }),
  );
  const words = "the draft goes on with ordinary words between the quotes ";
  const filler = length - links.reduce((sum, link) => sum + link.length + 2, 0);
  if (filler < count * 10) throw new Error("The quotes do not fit in the draft length.");
  const per = Math.floor(filler / count);
  let prompt = "";
  for (let i = 0; i < count; i++) {
    const size = i === count - 1 ? filler - per * (count - 1) : per;
    prompt += `${words.repeat(Math.ceil(size / words.length)).slice(0, size)} ${links[i]} `;
  }
  return prompt;
}

/** What {@link measureTyping} types into. */
export interface TypingDraft {
  /** Thread title (shows in the sidebar while the script runs). */
  title: string;
  /** The draft's prompt string, restored from `localStorage` before the page loads. */
  draft(thread: { environmentId: string; threadId: string }): string;
  /** Selector of the chips the restored draft shows; the script waits for all of them. */
  chipSelector: string;
  chipCount: number;
  /** Waited for before typing (e.g. the live count being shown), if given. */
  readySelector?: string;
}

/** The 100-chip draft of the original measure. */
export const HUNDRED_CHIPS: TypingDraft = {
  title: "Perf: typing with 100 chips",
  draft: () => promptWithChips(100),
  chipSelector: "[data-composer-mention-chip], [data-composer-skill-chip]",
  chipCount: 100,
};

/** The 120,000-character draft with 50 citation chips. */
export const BIG_DRAFT_WITH_QUOTES: TypingDraft = {
  title: "Perf: typing into a 120,000-character draft with 50 quotes",
  draft: (thread) => promptWithQuotes(thread, 50),
  chipSelector: "[data-composer-citation-chip]",
  chipCount: 50,
  readySelector: '[data-composer-length="over"]',
};

/** Installed in the page: pairs each keydown with the frame that shows its edit. */
function installKeystrokeRecorder(): void {
  const w = window as unknown as { __perfKeys: number[]; __perfWork: number[] };
  w.__perfKeys = [];
  w.__perfWork = [];
  let pending: number | null = null;
  document.addEventListener(
    "keydown",
    (event) => {
      pending = event.timeStamp;
    },
    true,
  );
  const observer = new MutationObserver(() => {
    if (pending === null) return;
    const start = pending;
    pending = null;
    w.__perfWork.push(performance.now() - start);
    requestAnimationFrame(() => {
      const channel = new MessageChannel();
      channel.port1.onmessage = () => w.__perfKeys.push(performance.now() - start);
      channel.port2.postMessage(null);
    });
  });
  const attach = () => {
    const editor = document.querySelector('[contenteditable="true"][aria-label="Message"]');
    if (editor === null) return false;
    observer.observe(editor, { subtree: true, childList: true, characterData: true });
    return true;
  };
  if (!attach()) {
    const waiter = new MutationObserver(() => {
      if (attach()) waiter.disconnect();
    });
    waiter.observe(document, { subtree: true, childList: true });
  }
}

const FRAME_MS = 1000 / 60;
const GOLDEN = (Math.sqrt(5) - 1) / 2;

/** Delay before key `index`: evenly spread over one frame, the same on every run. */
function keyPhaseDelay(index: number): number {
  return ((index * GOLDEN) % 1) * FRAME_MS;
}

export async function measureTyping(
  browser: Browser,
  rig: RigState,
  subject: TypingDraft = HUNDRED_CHIPS,
  text = "typing after one hundred chips stays quick",
  {
    cpuProfile,
    cpuThrottle = 1,
    trace,
    prepare,
  }: {
    /** Runs once the draft is shown, before typing (e.g. to try a variant of the page). */
    prepare?: (page: Page) => Promise<void>;
    cpuProfile?: (profile: CpuProfile) => void;
    cpuThrottle?: number;
    /** Receives the renderer trace of the typing (with the devtools timeline categories). */
    trace?: (trace: Buffer) => void;
  } = {},
): Promise<TypingResult> {
  const created = await fetch(`${rig.baseURL}/api/threads`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ title: subject.title }),
  });
  if (!created.ok) throw new Error(`POST /api/threads answered ${created.status}`);
  const thread = (await created.json()) as { id: string };

  const context = await newPerfContext(browser);
  const page = await context.newPage();
  const draft = subject.draft({ environmentId: rig.environmentId, threadId: thread.id });
  const chipCount = subject.chipCount;
  await page.addInitScript(
    ({ key, value }) => {
      if (sessionStorage.getItem("perf-draft-set") === null) {
        localStorage.setItem(key, value);
        sessionStorage.setItem("perf-draft-set", "1");
      }
    },
    { key: `composer:draft:v1:${thread.id}`, value: draft },
  );
  await page.addInitScript(installKeystrokeRecorder);
  await page.goto(`${rig.baseURL}/${rig.environmentId}/${thread.id}`);
  const chips = page.locator(subject.chipSelector);
  await chips.nth(chipCount - 1).waitFor();
  const chipsShown = await chips.count();
  if (subject.readySelector) await page.locator(subject.readySelector).waitFor();

  const box = page.getByRole("textbox", { name: "Message", exact: true });
  await prepare?.(page);
  await box.click();
  await box.press("ControlOrMeta+End");
  await page.evaluate(() => {
    const w = window as unknown as { __perfKeys: number[]; __perfWork: number[] };
    w.__perfKeys.length = 0;
    w.__perfWork.length = 0;
    (w as unknown as { __perfTypingStart: number }).__perfTypingStart = performance.now();
  });
  const cdp = cpuProfile || cpuThrottle !== 1 ? await context.newCDPSession(page) : null;
  if (cdp && cpuThrottle !== 1)
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: cpuThrottle });
  if (cdp && cpuProfile) {
    await cdp.send("Profiler.enable");
    await cdp.send("Profiler.setSamplingInterval", { interval: 100 });
    await cdp.send("Profiler.start");
  }
  await browser.startTracing(page, {
    categories: trace ? ["toplevel", "devtools.timeline", "blink"] : ["toplevel"],
  });
  let done = 0;
  for (const char of text) {
    await sleep(keyPhaseDelay(done));
    await page.keyboard.press(char === " " ? "Space" : char);
    done++;
    await page.waitForFunction(
      (n) => (window as unknown as { __perfKeys: number[] }).__perfKeys.length >= n,
      done,
    );
  }
  const { samples, work, counts } = await page.evaluate(() => {
    const w = window as unknown as { __perfKeys: number[]; __perfWork: number[] };
    // "composer:draft-length" (useDraftLength.ts): one entry per live count measurement.
    const counts = performance
      .getEntriesByName("composer:draft-length")
      .filter(
        (entry) =>
          entry.startTime >= (w as unknown as { __perfTypingStart: number }).__perfTypingStart,
      )
      .map((entry) => entry.duration);
    return { samples: w.__perfKeys, work: w.__perfWork, counts };
  });
  const traced = await browser.stopTracing();
  trace?.(traced);
  const tasks = rendererMainTasks(traced);
  if (cdp && cpuProfile) {
    const { profile } = (await cdp.send("Profiler.stop")) as unknown as { profile: CpuProfile };
    cpuProfile(profile);
  }
  await context.close();
  return {
    draftLength: draft.length,
    chips: chipsShown,
    keystrokes: samples.length,
    median: median(samples),
    p95: percentile(samples, 95),
    worst: Math.max(...samples),
    workMedian: median(work),
    workP95: percentile(work, 95),
    tasksOver16Cpu: tasks.filter((task) => task.cpu > 16).length,
    longestTaskCpu: Math.max(0, ...tasks.map((task) => task.cpu)),
    countMeasurements: counts.length,
    countMedian: counts.length > 0 ? median(counts) : 0,
    countWorst: Math.max(0, ...counts),
  };
}
