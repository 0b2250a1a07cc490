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
