/**
 * Rendering a long message's search text off the event loop (`searchTextRenderer.ts`): the
 * worker thread and the stepped fallback both give exactly `searchTextOf`'s text, and the
 * fallback lets other work run between blocks. On Linux the worker runs below the event loop's
 * priority (issue 33).
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { searchTextOf } from "./searchText.ts";
import { createSearchTextRenderer, renderInSteps } from "./searchTextRenderer.ts";

const manyBlocks = Array.from(
  { length: 300 },
  (_, i) => `Paragraph ${i} with **bold** and \`code\`.\n\n| a | b |\n| - | - |\n| ${i} | x |`,
).join("\n\n");

// The search-text worker renders below the event loop's priority (nice 10): on a machine busy
// with other work (CI runs the browser suite beside this one) it waits for a core, so these
// tests wait for the index longer than the default 20 s. Nothing here is timed.
describe("the search text renderer", { timeout: 90_000 }, () => {
  it("renders in its worker thread exactly as on the main thread", async () => {
    const renderer = createSearchTextRenderer();
    try {
      expect(await renderer.render("assistant", manyBlocks)).toBe(
        searchTextOf("assistant", manyBlocks),
      );
      const prompt = "a [link](https://example.com)\nand a line";
      expect(await renderer.render("user", prompt)).toBe(searchTextOf("user", prompt));
    } finally {
      await renderer.close();
    }
    await expect(renderer.render("user", "closed")).rejects.toThrow(/closed/);
  });

  it("falls back to rendering block by block, yielding to other work in between", async () => {
    let ranMeanwhile = false;
    setImmediate(() => {
      ranMeanwhile = true;
    });
    const text = await renderInSteps("assistant", manyBlocks);
    expect(ranMeanwhile).toBe(true);
    expect(text).toBe(searchTextOf("assistant", manyBlocks));
  });

  it.runIf(existsSync("/proc/thread-self"))(
    "renders on a thread below the event loop's priority, leaving the event loop's own as it was (Linux)",
    async () => {
      const own = niceOf(readFileSync("/proc/thread-self/stat", "utf8"));
      const before = nicerThreads(own);
      const renderer = createSearchTextRenderer();
      try {
        expect(await renderer.render("user", "hello")).toBe(searchTextOf("user", "hello"));
        const during = nicerThreads(own);
        // The worker's thread, and no other: the event loop's priority is unchanged.
        expect(during.filter((tid) => !before.includes(tid))).toHaveLength(1);
        expect(niceOf(readFileSync("/proc/thread-self/stat", "utf8"))).toBe(own);
      } finally {
        await renderer.close();
      }
    },
  );
});

/** The nice value in a /proc stat line (field 19). */
function niceOf(stat: string): number {
  return Number(stat.slice(stat.lastIndexOf(") ") + 2).split(" ")[16]);
}

/** Ids of this process's threads whose nice value is above `nice`. */
function nicerThreads(nice: number): string[] {
  return readdirSync("/proc/self/task").filter((tid) => {
    try {
      return niceOf(readFileSync(`/proc/self/task/${tid}/stat`, "utf8")) > nice;
    } catch {
      return false; // the thread ended meanwhile
    }
  });
}
