/**
 * Mouse-up to "Cite in composer" toolbar on screen, after a drag selection in an answer.
 *
 * A fresh thread gets one demo answer. Each run drags across its "To repeat: …" paragraph with
 * real (CDP) mouse input; just before the release the page starts watching: the `pointerup`
 * event's timeStamp, then every animation frame until the toolbar is in the DOM and visible. The
 * delay is from the release to that frame (the frame that paints it). The toolbar is closed with
 * Escape between runs. Target: median under 100 ms (a click still waits out the 500 ms
 * repeat-click window, for double and triple clicks; a drag does not).
 */
import type { Browser } from "@playwright/test";
import type { RigState } from "../../e2e/support/rig.ts";
import { newPerfContext } from "./rig.ts";
import { median, percentile } from "./stats.ts";

export type ToolbarTiming = {
  runs: number[];
  median: number;
  p95: number;
  worst: number;
};

async function createAnsweredThread(state: RigState): Promise<string> {
  const headers = { "content-type": "application/json" };
  const created = await fetch(`${state.baseURL}/api/threads`, {
    method: "POST",
    headers,
    body: JSON.stringify({ title: "Perf: selection toolbar" }),
  });
  if (!created.ok) throw new Error(`creating a thread failed: ${created.status}`);
  const thread = (await created.json()) as { id: string };
  const sent = await fetch(`${state.baseURL}/api/threads/${thread.id}/turns`, {
    method: "POST",
    headers,
    body: JSON.stringify({ input: "Measure the selection toolbar" }),
  });
  if (!sent.ok) throw new Error(`sending a turn failed: ${sent.status}`);
  return thread.id;
}

/** Drags across one paragraph `runs` times; see the module doc. */
export async function measureSelectionToolbar(
  browser: Browser,
  state: RigState,
  runs = 15,
): Promise<ToolbarTiming> {
  const threadId = await createAnsweredThread(state);
  const context = await newPerfContext(browser);
  const page = await context.newPage();
  try {
    await page.goto(`${state.baseURL}/${state.environmentId}/${threadId}`);
    const paragraph = page
      .locator("[data-assistant-citation-source] p")
      .filter({ hasText: "To repeat:" })
      .first();
    await paragraph.waitFor({ timeout: 30_000 });
    await page.getByText("I received no citations with this message.").waitFor();
    const delays: number[] = [];
    for (let run = 0; run < runs; run++) {
      const box = await paragraph.boundingBox();
      if (box === null) throw new Error("the paragraph is not on screen");
      const y = box.y + box.height / 2;
      await page.mouse.move(box.x + 4, y);
      await page.mouse.down();
      await page.mouse.move(box.x + box.width * (0.4 + (run % 5) * 0.1), y, { steps: 6 });
      await page.evaluate(() => {
        const record = window as unknown as { toolbarDelay?: number };
        record.toolbarDelay = undefined;
        let released = 0;
        document.addEventListener("pointerup", (event) => (released = event.timeStamp), {
          once: true,
          capture: true,
        });
        const watch = () => {
          const toolbar = document.querySelector("[data-assistant-selection-toolbar]");
          if (
            released > 0 &&
            toolbar !== null &&
            getComputedStyle(toolbar).visibility === "visible"
          ) {
            record.toolbarDelay = performance.now() - released;
          } else {
            requestAnimationFrame(watch);
          }
        };
        requestAnimationFrame(watch);
      });
      await page.mouse.up();
      await page.waitForFunction(
        () => (window as unknown as { toolbarDelay?: number }).toolbarDelay !== undefined,
        undefined,
        { timeout: 5_000 },
      );
      delays.push(
        await page.evaluate(() => (window as unknown as { toolbarDelay: number }).toolbarDelay),
      );
      await page.keyboard.press("Escape");
      await page.evaluate(() => window.getSelection()?.removeAllRanges());
      await page.waitForFunction(
        () => document.querySelector("[data-assistant-selection-toolbar]") === null,
      );
    }
    return {
      runs: delays,
      median: median(delays),
      p95: percentile(delays, 95),
      worst: Math.max(...delays),
    };
  } finally {
    await context.close();
  }
}
