import { describe, expect, it } from "vitest";
import { HistoryTextCache } from "./historyTexts.ts";

describe("HistoryTextCache", () => {
  it("keeps inputs and answers apart, up to its bound, least recently used out first", () => {
    const cache = new HistoryTextCache(10);
    cache.setInput("a", "1234");
    cache.setAnswer("a", "5678");
    expect([cache.input("a"), cache.answer("a")]).toEqual(["1234", "5678"]);
    // "a"'s input was used before its answer: it goes first.
    cache.setInput("b", "xyz");
    expect([cache.input("a"), cache.answer("a"), cache.input("b")]).toEqual([
      undefined,
      "5678",
      "xyz",
    ]);
    // A text over the bound is not kept, and pushes nothing out.
    cache.setAnswer("c", "x".repeat(11));
    expect([cache.answer("c"), cache.answer("a"), cache.input("b")]).toEqual([
      undefined,
      "5678",
      "xyz",
    ]);
  });
});
