import { foldCase } from "@app/markdown";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { findOccurrences, textMatchesQuery } from "./textMatches.ts";

const WORD_CHARACTER = /[\p{L}\p{N}\p{M}_]/u;

/** Whole word by the contract: no word character (whole code points) on either side. */
function isWholeWordAt(text: string, start: number, end: number): boolean {
  const before = [...text.slice(0, start)].at(-1) ?? "";
  const after = [...text.slice(end)][0] ?? "";
  return !WORD_CHARACTER.test(before) && !WORD_CHARACTER.test(after);
}

const ANY = { matchCase: false, wholeWords: false };
const CASE = { matchCase: true, wholeWords: false };
const WORDS = { matchCase: false, wholeWords: true };

/** Brute force: try every start, left to right, skipping past each accepted match. */
function reference(
  text: string,
  query: string,
  options: { matchCase: boolean; wholeWords: boolean },
): Array<[number, number]> {
  const found: Array<[number, number]> = [];
  if (query === "") return found;
  for (let start = 0; start + query.length <= text.length; ) {
    const slice = text.slice(start, start + query.length);
    const equal = options.matchCase ? slice === query : foldCase(slice) === foldCase(query);
    if (equal && (!options.wholeWords || isWholeWordAt(text, start, start + query.length))) {
      found.push([start, start + query.length]);
      start += query.length;
    } else {
      start += 1;
    }
  }
  return found;
}

describe("foldCase (from @app/markdown, as the server folds)", () => {
  it("lower-cases per code point and keeps the UTF-16 length", () => {
    expect(foldCase("Hello ÄÖÜ")).toBe("hello äöü");
    // U+0130 lower-cases to two units: kept as it is.
    expect(foldCase("İstanbul")).toBe("İstanbul");
    expect(foldCase("😀A")).toBe("😀a");
    fc.assert(
      fc.property(fc.string({ unit: "binary" }), (text) => {
        expect(foldCase(text).length).toBe(text.length);
      }),
    );
  });
});

describe("findOccurrences", () => {
  it("finds substrings, case-insensitively by default", () => {
    expect(findOccurrences("useThread and USETHREAD", "usethread", ANY)).toEqual([
      [0, 9],
      [14, 23],
    ]);
    expect(findOccurrences("useThread and USETHREAD", "useThread", CASE)).toEqual([[0, 9]]);
    expect(findOccurrences("measure p50 first", "p5", ANY)).toEqual([[8, 10]]);
  });

  it("takes overlapping occurrences left to right, without overlap", () => {
    expect(findOccurrences("aaaa", "aa", ANY)).toEqual([
      [0, 2],
      [2, 4],
    ]);
    expect(findOccurrences("aaa", "aa", ANY)).toEqual([[0, 2]]);
  });

  it("whole words: no letter, digit, underscore or combining mark on either side", () => {
    expect(findOccurrences("cat catalog cat_x (cat)", "cat", WORDS)).toEqual([
      [0, 3],
      [19, 22],
    ]);
    // A combining acute accent after the word makes it part of a longer word.
    expect(findOccurrences("cafe\u0301 cafe", "cafe", WORDS)).toEqual([[6, 10]]);
    expect(findOccurrences("東京 東京都", "東京", WORDS)).toEqual([[0, 2]]);
    // An emoji is not a word character.
    expect(findOccurrences("😀go😀", "go", WORDS)).toEqual([[2, 4]]);
    // A failed boundary at one start does not hide a good one that overlaps it.
    expect(findOccurrences("aab ab", "ab", WORDS)).toEqual([[4, 6]]);
  });

  it("finds CJK, emoji and combining marks with exact UTF-16 offsets", () => {
    expect(findOccurrences("前に 日本語 の後", "日本語", ANY)).toEqual([[3, 6]]);
    expect(findOccurrences("a 👍🏽 b 👍🏽", "👍🏽", ANY)).toEqual([
      [2, 6],
      [9, 13],
    ]);
    expect(findOccurrences("no\u0308el", "o\u0308", ANY)).toEqual([[1, 3]]);
  });

  it("finds nothing for an empty or over-long query", () => {
    expect(findOccurrences("abc", "", ANY)).toEqual([]);
    expect(findOccurrences("ab", "abc", ANY)).toEqual([]);
  });

  it("agrees with a brute-force reference on generated text", () => {
    const alphabet = fc.constantFrom("a", "A", "b", " ", "_", "1", "é", "\u0301", "日", "😀", "İ");
    const text = fc.array(alphabet, { maxLength: 30 }).map((parts) => parts.join(""));
    const query = fc.array(alphabet, { minLength: 1, maxLength: 4 }).map((parts) => parts.join(""));
    const options = fc.record({ matchCase: fc.boolean(), wholeWords: fc.boolean() });
    fc.assert(
      fc.property(text, query, options, (t, q, o) => {
        expect(findOccurrences(t, q, o)).toEqual(reference(t, q, o));
      }),
      { numRuns: 2000 },
    );
  });

  it("every occurrence's text matches the query", () => {
    fc.assert(
      fc.property(fc.string(), fc.string({ minLength: 1, maxLength: 3 }), (t, q) => {
        for (const [start, end] of findOccurrences(t, q, ANY)) {
          expect(textMatchesQuery(t.slice(start, end), q, ANY)).toBe(true);
        }
      }),
    );
  });
});

describe("textMatchesQuery", () => {
  it("folds case unless matching case", () => {
    expect(textMatchesQuery("Step 100", "step 100", ANY)).toBe(true);
    expect(textMatchesQuery("Step 100", "step 100", CASE)).toBe(false);
    expect(textMatchesQuery("Step 10", "step 100", ANY)).toBe(false);
  });
});
