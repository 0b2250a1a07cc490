import { findTextMatches } from "@app/markdown";
import type { SearchRange } from "@app/protocol";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { SNIPPET_AFTER, SNIPPET_BEFORE, SNIPPET_ELLIPSIS, snippetOf } from "./searchSnippet.ts";

/** Rendered text of a demo answer (as the search index holds it), the reported case. */
const DEMO =
  "A short demo reply follows. You began with give me a bulleted list. The demo provider " +
  "repeats this sentence on purpose.\nThis reply is turn 2 of the thread. It shows bold, " +
  "emphasis and inline code so you can try selecting and citing rendered text.\nWhat this " +
  "reply contains:\nparagraphs of plain text\nthis bulleted list\na fenced sh code block\na " +
  "table\nan account of the citations it received\ngit switch -c demo-branch\ngit commit -m " +
  '"Try the demo provider"\nMeasure\tValue\nWords\t42';

function snippetFor(text: string, query: string) {
  return snippetOf(text, findTextMatches(text, query).ranges);
}

function marked(snippet: { text: string; ranges: SearchRange[] }): string[] {
  return snippet.ranges.map(([s, e]) => snippet.text.slice(s, e));
}

describe("snippetOf", () => {
  it("cuts between words with an ellipsis on each cut side (the reported snippets)", () => {
    const bulleted = snippetFor(DEMO, "bulleted list");
    expect(bulleted.text).toBe(
      "…follows. You began with give me a bulleted list. The demo provider repeats this sentence on purpose. This reply is turn 2 of…",
    );
    expect(marked(bulleted)).toEqual(["bulleted list"]);
    expect(DEMO.slice(bulleted.start)).toMatch(/^follows\. /);

    const list = snippetFor(DEMO.slice(DEMO.indexOf("What this")), "bulleted");
    expect(list.text).toBe(
      "…paragraphs of plain text this bulleted list a fenced sh code block a table an account of the citations it received…",
    );
    expect(marked(list)).toEqual(["bulleted"]);

    const received = snippetFor(DEMO, "received");
    expect(received.text).toBe(
      '…a table an account of the citations it received git switch -c demo-branch git commit -m "Try the demo provider" Measure Value…',
    );
    expect(marked(received)).toEqual(["received"]);

    const short = snippetFor(DEMO, "short");
    expect(short.text).toBe(
      "A short demo reply follows. You began with give me a bulleted list. The demo provider…",
    );
    expect(short.ranges).toEqual([[2, 7]]);
  });

  it("shows the whole text, with no ellipsis, when it fits", () => {
    const short = snippetFor("give me a bulleted list", "bulleted");
    expect(short).toEqual({ text: "give me a bulleted list", start: 0, ranges: [[10, 18]] });
    // Exactly the room on each side: nothing cut.
    const text = `${"a".repeat(SNIPPET_BEFORE - 1)} X ${"b".repeat(SNIPPET_AFTER - 1)}`;
    const exact = snippetFor(text, "X");
    expect(exact.text).toBe(text);
    expect(exact.start).toBe(0);
  });

  it("cuts only the side that does not fit", () => {
    const words = Array.from({ length: 40 }, (_, i) => `word${i}`).join(" ");
    const atStart = snippetFor(words, "word0");
    expect(atStart.text.startsWith("word0 word1")).toBe(true);
    expect(atStart.text.endsWith("…")).toBe(true);
    expect(atStart.ranges).toEqual([[0, 5]]);
    const atEnd = snippetFor(words, "word39");
    expect(atEnd.text.endsWith("word38 word39")).toBe(true);
    expect(atEnd.text.startsWith("…word")).toBe(true);
    expect(marked(atEnd)).toEqual(["word39"]);
  });

  it("moves the highlight with the start, past the leading ellipsis", () => {
    const text = `${"lorem ipsum ".repeat(10)}needle tail`;
    const snippet = snippetFor(text, "needle");
    expect(snippet.start).toBeGreaterThan(0);
    const [[s, e]] = snippet.ranges as [SearchRange];
    expect(snippet.text.slice(s, e)).toBe("needle");
    expect(s).toBe(text.indexOf("needle") - snippet.start + 1);
  });

  it("keeps a match that starts inside a word whole, cutting before its word", () => {
    const text = `${"filler ".repeat(10)}A short demo reply follows.`;
    const snippet = snippetFor(text, "hort");
    expect(snippet.text).toMatch(/^…filler .* A short demo reply follows\.$/);
    expect(marked(snippet)).toEqual(["hort"]);
  });

  it("cuts at punctuation when no space is in reach, and inside a word only when it is longer than the room", () => {
    const path = `${"segment/".repeat(20)}target/${"rest/".repeat(30)}`;
    const slashes = snippetFor(path, "target");
    expect(slashes.text).toMatch(/^…\/?segment\/.*target\/.*\/…$/);
    expect(marked(slashes)).toEqual(["target"]);

    const hash = `${"f".repeat(300)}KEY${"0".repeat(300)}`;
    const long = snippetFor(hash, "key");
    expect(long.text).toBe(
      `…${"f".repeat(SNIPPET_BEFORE - 1)}KEY${"0".repeat(SNIPPET_AFTER - 1)}…`,
    );
    expect(marked(long)).toEqual(["KEY"]);
  });

  it("never splits a surrogate pair, a mark from its letter or a ZWJ sequence", () => {
    const emoji = `${"😀".repeat(60)}🦊 fox${"🦊".repeat(60)}`;
    const snippet = snippetFor(emoji, "🦊 fox");
    expect(/[\uD800-\uDFFF]/u.test(snippet.text)).toBe(false);
    expect(marked(snippet)).toEqual(["🦊 fox"]);

    const accents = `${"e\u0301".repeat(60)} match ${"e\u0301".repeat(60)}`;
    const marks = snippetFor(accents.replaceAll(" ", ""), "match");
    expect(marks.text.startsWith(`${SNIPPET_ELLIPSIS}e\u0301`)).toBe(true);
    expect(marks.text.endsWith(`e\u0301${SNIPPET_ELLIPSIS}`)).toBe(true);

    const family = "👩‍👩‍👧";
    const zwj = snippetFor(`${family.repeat(20)}X${family.repeat(20)}`, "X");
    expect(zwj.text).toMatch(/^…(👩‍👩‍👧)+X(👩‍👩‍👧)+…$/u);
  });

  it("shows line breaks and tabs as spaces, at the same offsets", () => {
    const snippet = snippetFor("first line\nsecond\tcell\r\nthird", "second");
    expect(snippet.text).toBe("first line second cell  third");
    expect(marked(snippet)).toEqual(["second"]);
  });

  it("lists every match inside, clipped to the snippet, and none outside", () => {
    const text = `${"x ".repeat(40)}cat ${"y ".repeat(10)}cat ${"z ".repeat(80)}cat`;
    const snippet = snippetFor(text, "cat");
    expect(marked(snippet)).toEqual(["cat", "cat"]);
    expect(snippetOf("abc", [])).toEqual({ text: "", start: 0, ranges: [] });
    // A later range crossing the end is clipped to what is shown.
    const crossing = snippetOf("aa bb cc", [
      [0, 2],
      [3, 8],
    ]);
    expect(marked(crossing)).toEqual(["aa", "bb cc"]);
  });

  it("holds its contract for any text and any match inside it (property)", () => {
    const token = fc.oneof(
      fc.string({ unit: fc.constantFrom(..."abcxyzÄß_09"), minLength: 1, maxLength: 60 }),
      fc.constantFrom(" ", "  ", "\n", "\t", "\r\n", ", ", ".", "(", "-", "/", "…"),
      fc.constantFrom("😀", "👍🏽", "👩‍👩‍👧", "e\u0301", "\u0301", "𝒜𝒝", "🦊🦊🦊🦊🦊🦊🦊🦊🦊🦊"),
      fc.string({ unit: "binary", minLength: 1, maxLength: 8 }),
      // Words longer than a side's room, of astral letters and marks: cut inside.
      fc.string({ unit: fc.constantFrom("𝒜", "b", "e\u0301", "_", "\u200d"), maxLength: 120 }),
    );
    const text = fc.array(token, { maxLength: 60 }).map((tokens) => tokens.join(""));
    checkPicks(text, 4);
  });

  it("holds its contract inside words longer than the room (property)", () => {
    const word = fc.oneof(
      fc.string({ unit: fc.constantFrom("𝒜", "b", "e\u0301"), minLength: 30, maxLength: 200 }),
      fc.string({
        unit: fc.constantFrom("𝒜", "b", "e\u0301", "\u200d", "👍🏽"),
        minLength: 30,
        maxLength: 200,
      }),
    );
    const text = fc.array(word, { minLength: 1, maxLength: 4 }).map((words) => words.join(" "));
    checkPicks(text, 3);
  });

  it("holds its contract for the matcher's own ranges (property)", () => {
    const text = fc.string({ unit: fc.constantFrom(..."ab cA\n😀é_."), maxLength: 400 });
    fc.assert(
      fc.property(text, fc.nat(), fc.integer({ min: 1, max: 6 }), (text, at, length) => {
        const from = at % (text.length + 1);
        const query = text.slice(from, from + length);
        fc.pre(query !== "" && !/[\uD800-\uDFFF]/u.test(query));
        for (const wholeWord of [false, true]) {
          const { ranges } = findTextMatches(text, query, { wholeWord });
          if (ranges.length > 0) checkSnippet(text, ranges);
        }
      }),
      { numRuns: 2000 },
    );
  });
});

/** Sorted, disjoint, non-empty ranges on code point boundaries, each at most 200 units. */
function rangesOf(text: string, picks: [number, number][]): SearchRange[] {
  const bounds = [0];
  for (const char of text) bounds.push(bounds.at(-1)! + char.length);
  if (bounds.length < 2) return [];
  const ranges: SearchRange[] = [];
  let after = 0;
  for (const [at, length] of picks) {
    const left = bounds.filter((b) => b >= after);
    if (left.length < 2) break;
    const start = left[at % (left.length - 1)]!;
    const end = bounds.filter((b) => b > start && b - start <= 200).at(length % 200) ?? null;
    const fallback = bounds.find((b) => b > start)!;
    const stop = end ?? (fallback - start <= 200 ? fallback : null);
    if (stop === null) break;
    ranges.push([start, stop]);
    after = stop;
  }
  return ranges;
}

const WORD = /[\p{L}\p{N}\p{M}_]/u;
const HIGH = /[\uD800-\uDBFF]/;
const LOW = /[\uDC00-\uDFFF]/;

function splitsPair(text: string, at: number): boolean {
  return HIGH.test(text.charAt(at - 1)) && LOW.test(text.charAt(at));
}

/** Between two code points that are not both word characters (a text edge counts). */
function isWordBoundary(text: string, at: number): boolean {
  if (at <= 0 || at >= text.length) return true;
  if (splitsPair(text, at)) return false;
  const before = String.fromCodePoint(
    text.codePointAt(splitsPair(text, at - 1) ? at - 2 : at - 1)!,
  );
  const after = String.fromCodePoint(text.codePointAt(at)!);
  return !(WORD.test(before) && WORD.test(after));
}

/** Right before a mark or an emoji modifier, or around a zero-width joiner (not a space). */
function joins(text: string, at: number): boolean {
  if (at <= 0 || at >= text.length) return false;
  if (splitsPair(text, at)) return true;
  if (text.charAt(at - 1) === "\u200d" && !/\s/.test(text.charAt(at))) return true;
  return /^[\p{M}\p{Emoji_Modifier}\u200d]/u.test(String.fromCodePoint(text.codePointAt(at)!));
}

function isCleanCut(text: string, at: number): boolean {
  return isWordBoundary(text, at) && !joins(text, at);
}

/** {@link checkSnippet} for any text of `text` and up to `maxRanges` ranges picked in it. */
function checkPicks(text: fc.Arbitrary<string>, maxRanges: number): void {
  const picks = fc.array(fc.tuple(fc.nat(), fc.nat({ max: 200 })), {
    minLength: 1,
    maxLength: maxRanges,
  });
  fc.assert(
    fc.property(text, picks, (text, picks) => {
      const ranges = rangesOf(text, picks);
      fc.pre(ranges.length > 0);
      checkSnippet(text, ranges);
    }),
    { numRuns: 3000 },
  );
}

/** The contract of a snippet, checked against `text` and its ranges. */
function checkSnippet(text: string, ranges: SearchRange[]): void {
  const [s, e] = ranges[0]!;
  const snippet = snippetOf(text, ranges);
  const start = snippet.start;
  // "…" exactly where the text is cut (a leading one exactly when start > 0), and the rest is
  // the text itself, on one line.
  const lead = start > 0 ? 1 : 0;
  if (lead) expect(snippet.text.startsWith(SNIPPET_ELLIPSIS)).toBe(true);
  const shown = snippet.text.length - lead;
  expect(start + shown).toBeLessThanOrEqual(text.length);
  // Shown up to the text's end: no trailing "…" (a text that itself ends with "…" reads the same).
  const tail = start + shown === text.length ? 0 : 1;
  const end = start + shown - tail;
  if (tail) expect(snippet.text.endsWith(SNIPPET_ELLIPSIS)).toBe(true);
  expect(snippet.text.slice(lead, snippet.text.length - tail)).toBe(
    text.slice(start, end).replace(/[\r\n\t]/g, " "),
  );
  // The match is inside, whole, and the first highlight is exactly it.
  expect(start).toBeLessThanOrEqual(s);
  expect(end).toBeGreaterThanOrEqual(e);
  expect(snippet.ranges[0]).toEqual([s - start + lead, e - start + lead]);
  // Every highlight is an input range clipped to the snippet, over the same text.
  const expected = ranges
    .filter(([rs, re]) => rs < end && re > start)
    .map(([rs, re]): SearchRange => [Math.max(rs, start), Math.min(re, end)]);
  expect(snippet.ranges).toEqual(
    expected.map(([rs, re]) => [rs - start + lead, re - start + lead]),
  );
  for (const [i, [hs, he]] of snippet.ranges.entries()) {
    expect(snippet.text.slice(hs, he)).toBe(
      text.slice(expected[i]![0], expected[i]![1]).replace(/[\r\n\t]/g, " "),
    );
  }
  // Within the limits: each side's context, its "…" included.
  expect(lead + (s - start)).toBeLessThanOrEqual(SNIPPET_BEFORE);
  expect(end - e + tail).toBeLessThanOrEqual(SNIPPET_AFTER);
  expect(snippet.text.length).toBeLessThanOrEqual(SNIPPET_BEFORE + (e - s) + SNIPPET_AFTER);
  // Most context: a side that fits is never cut.
  if (s <= SNIPPET_BEFORE) expect(start).toBe(0);
  if (text.length - e <= SNIPPET_AFTER) expect(tail).toBe(0);
  // Never a split pair, mark or joined sequence (but for the match's own edge).
  expect(splitsPair(text, start) || splitsPair(text, end)).toBe(false);
  if (start !== s) expect(joins(text, start)).toBe(false);
  if (end !== e) expect(joins(text, end)).toBe(false);
  // Between words, unless no place between words is within the room (a word that long).
  if (lead && !isCleanCut(text, start)) {
    for (let p = s - (SNIPPET_BEFORE - 1); p <= s; p++) expect(isCleanCut(text, p)).toBe(false);
  }
  if (tail && !isCleanCut(text, end)) {
    for (let q = e; q <= e + SNIPPET_AFTER - 1; q++) expect(isCleanCut(text, q)).toBe(false);
  }
  // No whitespace right after a leading or before a trailing "…" (plain text).
  if (!/[\p{M}\p{Emoji_Modifier}\u200d]/u.test(text)) {
    if (lead && start < s) expect(/\s/.test(text.charAt(start))).toBe(false);
    if (tail && end > e) expect(/\s/.test(text.charAt(end - 1))).toBe(false);
  }
}
