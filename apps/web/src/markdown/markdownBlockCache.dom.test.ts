import { afterEach, describe, expect, it, vi } from "vitest";
import {
  cachedMarkdownBlock,
  isMarkdownBlockCached,
  warmMarkdownCache,
} from "./markdownBlockCache.ts";

afterEach(() => {
  vi.useRealTimers();
});

describe("markdownBlockCache", () => {
  it("returns the same element tree for the same block, flavor and offset", () => {
    const a = cachedMarkdownBlock("Hello **there**", 0, "assistant");
    expect(cachedMarkdownBlock("Hello **there**", 0, "assistant")).toBe(a);
    expect(cachedMarkdownBlock("Hello **there**", 5, "assistant")).not.toBe(a);
    expect(cachedMarkdownBlock("Hello **there**", 0, "user")).not.toBe(a);
  });

  it("parses queued messages block by block in idle time", () => {
    vi.useFakeTimers();
    const text = "# Warm title\n\nwarm paragraph\n\n- warm item";
    warmMarkdownCache([{ text, flavor: "assistant" }]);
    expect(isMarkdownBlockCached("# Warm title\n\n", 0, "assistant")).toBe(false);
    vi.advanceTimersByTime(200);
    expect(isMarkdownBlockCached("# Warm title\n\n", 0, "assistant")).toBe(true);
    expect(isMarkdownBlockCached("warm paragraph\n\n", 14, "assistant")).toBe(true);
    expect(isMarkdownBlockCached("- warm item", 30, "assistant")).toBe(true);
  });
});

describe("markdown warm-up in idle time", () => {
  it("starts a block only in an idle period it fits in, and a long block in a long period", () => {
    // Idle periods handed out by hand: each callback sees the time left that the test chose.
    const callbacks: ((deadline: { timeRemaining(): number }) => void)[] = [];
    vi.stubGlobal("requestIdleCallback", (cb: (typeof callbacks)[number]) => {
      callbacks.push(cb);
      return callbacks.length;
    });
    try {
      const small = "short paragraph to warm first\n\n";
      const big = `${"word ".repeat(4000)}\n\n`; // 20,000 characters: several ms to parse
      const tail = "tail paragraph";
      warmMarkdownCache([{ text: small + big + tail, flavor: "assistant" }]);
      const idle = (ms: number) => {
        const cb = callbacks.shift();
        expect(cb).toBeDefined();
        cb?.({ timeRemaining: () => ms });
      };
      idle(5); // 2 ms of room: the short block fits, the long one does not
      expect(isMarkdownBlockCached(small, 0, "assistant")).toBe(true);
      expect(isMarkdownBlockCached(big, small.length, "assistant")).toBe(false);
      idle(5); // still no room for it; the queue waits rather than skipping it
      expect(isMarkdownBlockCached(big, small.length, "assistant")).toBe(false);
      idle(50); // a long idle period: it runs, and so does the rest
      expect(isMarkdownBlockCached(big, small.length, "assistant")).toBe(true);
      expect(isMarkdownBlockCached(tail, small.length + big.length, "assistant")).toBe(true);
      expect(callbacks).toHaveLength(0);
    } finally {
      vi.unstubAllGlobals();
    }
  });
});
