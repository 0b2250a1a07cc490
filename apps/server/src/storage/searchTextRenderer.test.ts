/**
 * Rendering a long message's search text off the event loop (`searchTextRenderer.ts`): the
 * worker thread and the stepped fallback both give exactly `searchTextOf`'s text, and the
 * fallback lets other work run between blocks.
 */
import { describe, expect, it } from "vitest";
import { searchTextOf } from "./searchText.ts";
import { createSearchTextRenderer, renderInSteps } from "./searchTextRenderer.ts";

const manyBlocks = Array.from(
  { length: 300 },
  (_, i) => `Paragraph ${i} with **bold** and \`code\`.\n\n| a | b |\n| - | - |\n| ${i} | x |`,
).join("\n\n");

describe("the search text renderer", () => {
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
});
