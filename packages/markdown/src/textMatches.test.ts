/**
 * Match offsets of find-in-thread (issue 23) against rendered text: each range slices the
 * rendered text to the query as shown, wherever Markdown put it.
 */
import { serializeAssistantCitation } from "@app/citations";
import { citationFixture } from "@app/citations/testing";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { renderedTextOfMarkdown } from "./renderedText.ts";
import { findTextMatches, foldCase, MAX_RANGES_PER_MESSAGE } from "./textMatches.ts";

function slices(text: string, query: string, options = {}): string[] {
  return findTextMatches(text, query, options).ranges.map(([start, end]) => text.slice(start, end));
}

describe("findTextMatches over rendered text", () => {
  it("finds words in code, tables, links and emphasis as shown", () => {
    const text = renderedTextOfMarkdown(
      "Use **use**`Thread` in [the p50 link](https://x.y).\n\n| p50 | 12 ms |\n|---|---|\n\n```\nuseThread(p50)\n```",
      "assistant",
    );
    expect(text).toBe("Use useThread in the p50 link.\np50\t12 ms\nuseThread(p50)\n");
    expect(findTextMatches(text, "useThread").ranges).toEqual([
      [4, 13],
      [41, 50],
    ]);
    expect(slices(text, "p50")).toEqual(["p50", "p50", "p50"]);
    expect(slices(text, "p50\t12")).toEqual(["p50\t12"]);
    expect(slices(text, "**")).toEqual([]);
  });

  it("finds a chip's label in a user message, never its link", () => {
    const link = serializeAssistantCitation(citationFixture({ text: "quoted words" }));
    const text = renderedTextOfMarkdown(`Compare ${link} with @src/a.ts`, "user");
    expect(slices(text, "quoted words")).toEqual(["quoted words"]);
    expect(findTextMatches(text, "t3-citation").ranges).toEqual([]);
    expect(slices(text, "@src/a")).toEqual(["@src/a"]);
  });

  it("matches case-insensitively by default, exactly with caseSensitive", () => {
    expect(slices("Thread thread THREAD", "thread")).toEqual(["Thread", "thread", "THREAD"]);
    expect(slices("Thread thread THREAD", "thread", { caseSensitive: true })).toEqual(["thread"]);
    expect(slices("ΣΑΣ σας", "σας")).toEqual(["ΣΑΣ", "σας"]);
    expect(slices("Straße STRASSE", "straße")).toEqual(["Straße"]);
  });

  it("keeps offsets exact where lowercasing would change the length", () => {
    expect(foldCase("İx")).toBe("İx");
    expect(findTextMatches("aİb İB", "ib").ranges).toEqual([]);
    expect(findTextMatches("aİb x", "x").ranges).toEqual([[4, 5]]);
  });

  it("finds half words, or whole words only", () => {
    expect(slices("useThread threads thread_id thread", "thread")).toHaveLength(4);
    expect(
      findTextMatches("useThread threads thread_id (thread)", "thread", { wholeWord: true }).ranges,
    ).toEqual([[29, 35]]);
  });

  it("handles CJK, emoji and combining marks in UTF-16 units", () => {
    expect(findTextMatches("数据库和数据", "数据").ranges).toEqual([
      [0, 2],
      [4, 6],
    ]);
    expect(findTextMatches("a🙂b🙂", "🙂").ranges).toEqual([
      [1, 3],
      [4, 6],
    ]);
    // e + U+0301: a mark after the match makes it part of a longer word.
    const text = "cafe\u0301 cafe";
    expect(findTextMatches(text, "cafe").ranges).toEqual([
      [0, 4],
      [6, 10],
    ]);
    expect(findTextMatches(text, "cafe", { wholeWord: true }).ranges).toEqual([[6, 10]]);
    expect(findTextMatches(text, "cafe\u0301", { wholeWord: true }).ranges).toEqual([[0, 5]]);
    expect(findTextMatches("x😀y", "x", { wholeWord: true }).ranges).toEqual([[0, 1]]);
  });

  it("takes overlapping occurrences left to right, and stops at the limit", () => {
    expect(findTextMatches("aaaa", "aa").ranges).toEqual([
      [0, 2],
      [2, 4],
    ]);
    const many = findTextMatches("ab".repeat(MAX_RANGES_PER_MESSAGE + 5), "ab");
    expect(many.ranges).toHaveLength(MAX_RANGES_PER_MESSAGE);
    expect(many.truncated).toBe(true);
    expect(findTextMatches("abc", "").ranges).toEqual([]);
  });

  it("returns sorted, disjoint ranges that slice to the query (property)", () => {
    const alphabet = fc.constantFrom("a", "A", "b", " ", "_", "İ", "Σ", "σ", "🙂", "\u0301", "数");
    const text = fc.array(alphabet, { maxLength: 30 }).map((parts) => parts.join(""));
    const query = fc.array(alphabet, { minLength: 1, maxLength: 3 }).map((p) => p.join(""));
    fc.assert(
      fc.property(text, query, fc.boolean(), fc.boolean(), (t, q, caseSensitive, wholeWord) => {
        const { ranges } = findTextMatches(t, q, { caseSensitive, wholeWord });
        let previousEnd = 0;
        for (const [start, end] of ranges) {
          expect(start).toBeGreaterThanOrEqual(previousEnd);
          expect(end - start).toBe(q.length);
          const found = t.slice(start, end);
          if (caseSensitive) expect(found).toBe(q);
          else expect(foldCase(found)).toBe(foldCase(q));
          previousEnd = end;
        }
        // Case-sensitive, not whole-word: exactly the left-to-right occurrences.
        if (caseSensitive && !wholeWord) {
          let count = 0;
          for (let at = t.indexOf(q); at >= 0; at = t.indexOf(q, at + q.length)) count++;
          expect(ranges).toHaveLength(count);
        }
      }),
      { numRuns: 500 },
    );
  });
});
