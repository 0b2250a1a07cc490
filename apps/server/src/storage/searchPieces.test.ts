/**
 * Pieces of a long indexed text (`searchPieces.ts`, issue 33): every substring a query can match
 * lies whole in at least one piece, and no bound splits a surrogate pair.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  SEARCH_PIECE_CHARS,
  SEARCH_PIECE_OVERLAP,
  SEARCH_QUERY_MAX_CHARS,
  searchPiece,
  searchPieceBounds,
  searchPieceCount,
} from "./searchPieces.ts";

const isHigh = (unit: number) => unit >= 0xd800 && unit <= 0xdbff;
const isLow = (unit: number) => unit >= 0xdc00 && unit <= 0xdfff;
const splits = (text: string, at: number) =>
  at > 0 && at < text.length && isHigh(text.charCodeAt(at - 1)) && isLow(text.charCodeAt(at));

describe("search pieces", () => {
  it("overlap by the longest query less one, so any query fits whole in one piece", () => {
    expect(SEARCH_PIECE_OVERLAP).toBe(SEARCH_QUERY_MAX_CHARS - 1);
    const text = "a".repeat(SEARCH_PIECE_CHARS * 2 + 1000);
    expect(searchPieceBounds(text)).toEqual([
      [0, SEARCH_PIECE_CHARS + SEARCH_PIECE_OVERLAP],
      [SEARCH_PIECE_CHARS, SEARCH_PIECE_CHARS * 2 + SEARCH_PIECE_OVERLAP],
      [SEARCH_PIECE_CHARS * 2, text.length],
    ]);
    // A last piece shorter than the overlap: the one before ends with the text.
    const short = "a".repeat(SEARCH_PIECE_CHARS + 10);
    expect(searchPieceBounds(short)).toEqual([
      [0, short.length],
      [SEARCH_PIECE_CHARS, short.length],
    ]);
    expect(searchPieceCount("")).toBe(1);
    expect(searchPieceBounds("")).toEqual([[0, 0]]);
    expect(searchPieceCount("x".repeat(SEARCH_PIECE_CHARS))).toBe(1);
    expect(searchPieceCount("x".repeat(SEARCH_PIECE_CHARS + 1))).toBe(2);
  });

  it("hold every substring up to the overlap plus one, and never split a surrogate pair (property)", () => {
    const unit = fc.constantFrom("a", "b", "\u00e9", "\ud83d\ude00", "\ud800", "\udc00");
    fc.assert(
      fc.property(
        fc.array(unit, { maxLength: 120 }).map((units) => units.join("")),
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 1, max: 6 }),
        (text, size, overlap) => {
          const bounds = searchPieceBounds(text, size, overlap);
          expect(bounds).toHaveLength(searchPieceCount(text, size));
          expect(bounds[0]![0]).toBe(0);
          expect(bounds.at(-1)![1]).toBe(text.length);
          for (const [start, end] of bounds) {
            expect(splits(text, start)).toBe(false);
            expect(splits(text, end)).toBe(false);
            expect(end).toBeGreaterThanOrEqual(start);
          }
          for (let from = 0; from < text.length; from++) {
            const to = Math.min(text.length, from + overlap + 1);
            expect(bounds.some(([start, end]) => start <= from && to <= end)).toBe(true);
          }
        },
      ),
    );
  });

  it("slices the text at its bounds", () => {
    const text = `${"x".repeat(SEARCH_PIECE_CHARS - 1)}\ud83d\ude00${"y".repeat(500)}`;
    // The second piece would start inside the pair: it starts one unit earlier.
    expect(searchPieceBounds(text)[1]![0]).toBe(SEARCH_PIECE_CHARS - 1);
    expect(searchPiece(text, 1)).toBe(`\ud83d\ude00${"y".repeat(500)}`);
    expect(() => searchPiece(text, 2)).toThrow(RangeError);
  });
});
