import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  type PromptPiece,
  pieceStarts,
  positionForPromptOffset,
  promptOffsetForPosition,
} from "./promptOffsets.ts";

// "ab" + chip(5) + "\n" + chip(3) + "cd"  => offsets 0..13
const pieces: PromptPiece[] = [
  { kind: "text", length: 2 },
  { kind: "atom", length: 5 },
  { kind: "break", length: 1 },
  { kind: "atom", length: 3 },
  { kind: "text", length: 2 },
];

describe("positionForPromptOffset", () => {
  it("maps offsets in text to text positions, preferring text at boundaries", () => {
    expect(positionForPromptOffset(pieces, 0)).toEqual({ type: "text", index: 0, offset: 0 });
    expect(positionForPromptOffset(pieces, 2)).toEqual({ type: "text", index: 0, offset: 2 });
    expect(positionForPromptOffset(pieces, 11)).toEqual({ type: "text", index: 4, offset: 0 });
    expect(positionForPromptOffset(pieces, 13)).toEqual({ type: "text", index: 4, offset: 2 });
  });

  it("maps offsets between non-text pieces to boundaries", () => {
    expect(positionForPromptOffset(pieces, 7)).toEqual({ type: "boundary", index: 2 });
    expect(positionForPromptOffset(pieces, 8)).toEqual({ type: "boundary", index: 3 });
  });

  it("snaps an offset inside a chip to just after it", () => {
    expect(positionForPromptOffset(pieces, 3)).toEqual({ type: "boundary", index: 2 });
    expect(positionForPromptOffset(pieces, 6)).toEqual({ type: "boundary", index: 2 });
    expect(positionForPromptOffset(pieces, 9)).toEqual({ type: "text", index: 4, offset: 0 });
  });

  it("clamps out-of-range and non-finite offsets", () => {
    expect(positionForPromptOffset(pieces, -5)).toEqual({ type: "text", index: 0, offset: 0 });
    expect(positionForPromptOffset(pieces, 99)).toEqual({ type: "text", index: 4, offset: 2 });
    expect(positionForPromptOffset(pieces, Number.NaN)).toEqual({
      type: "text",
      index: 4,
      offset: 2,
    });
    expect(positionForPromptOffset([], 3)).toEqual({ type: "boundary", index: 0 });
  });

  it("ends after a trailing chip at the end boundary", () => {
    const trailing: PromptPiece[] = [{ kind: "atom", length: 4 }];
    expect(positionForPromptOffset(trailing, 4)).toEqual({ type: "boundary", index: 1 });
    expect(positionForPromptOffset(trailing, 0)).toEqual({ type: "boundary", index: 0 });
  });
});

describe("offset mapping properties", () => {
  const pieceArb = fc
    .record({
      kind: fc.constantFrom<PromptPiece["kind"]>("text", "atom", "break"),
      length: fc.integer({ min: 1, max: 6 }),
    })
    .map((piece): PromptPiece => (piece.kind === "break" ? { kind: "break", length: 1 } : piece));

  it("round-trips every offset that is not strictly inside a chip", () => {
    fc.assert(
      fc.property(fc.array(pieceArb, { maxLength: 8 }), (list) => {
        const starts = pieceStarts(list);
        const total = starts[starts.length - 1]!;
        for (let offset = 0; offset <= total; offset++) {
          const inside = list.some(
            (piece, index) =>
              piece.kind === "atom" &&
              offset > starts[index]! &&
              offset < starts[index]! + piece.length,
          );
          const back = promptOffsetForPosition(list, positionForPromptOffset(list, offset));
          if (inside) {
            // Snapped forward to the chip's end, never backwards, never past the prompt.
            expect(back).toBeGreaterThan(offset);
            expect(back).toBeLessThanOrEqual(total);
          } else {
            expect(back).toBe(offset);
          }
        }
      }),
    );
  });
});
