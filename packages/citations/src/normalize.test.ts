import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  buildNormalizedRenderedText,
  isRenderedWhitespaceCode,
  normalizedLengthOf,
  normalizedRangeToRaw,
  normalizeRenderedText,
  rawOffsetToNormalized,
} from "./normalize.ts";

/** Pieces that exercise whitespace kinds, surrogate pairs and combining marks. */
const PIECES = [
  "a",
  "B",
  "é",
  " ",
  "  ",
  "\t",
  "\n",
  "\r\n",
  "\u00a0",
  "\u2028",
  "\ufeff",
  "😀",
  "e\u0301",
];
const renderedText = fc.array(fc.constantFrom(...PIECES), { maxLength: 40 }).map((p) => p.join(""));

describe("normalizeRenderedText", () => {
  it("collapses each whitespace run to one space without trimming", () => {
    expect(normalizeRenderedText("  a \t\tb\r\nc  ")).toBe(" a b c ");
    expect(normalizeRenderedText("x\u00a0\u00a0y")).toBe("x y");
    expect(normalizeRenderedText("x\u2028\ufeff\u3000y")).toBe("x y");
    expect(normalizeRenderedText("line one\r\n\r\n    indented")).toBe("line one indented");
    expect(normalizeRenderedText("")).toBe("");
    expect(normalizeRenderedText("no-space")).toBe("no-space");
  });

  it("keeps emoji and combining marks as they are", () => {
    expect(normalizeRenderedText("😀\n\ne\u0301")).toBe("😀 e\u0301");
  });

  it("matches a plain /\\s+/g replacement on any string", () => {
    fc.assert(
      fc.property(fc.oneof(renderedText, fc.string({ unit: "binary" })), (text) => {
        expect(normalizeRenderedText(text)).toBe(text.replace(/\s+/g, " "));
      }),
    );
  });
});

describe("normalizedLengthOf", () => {
  it("counts the normalized units before a raw offset without building the string", () => {
    expect(normalizedLengthOf("a \t\n b")).toBe(3);
    expect(normalizedLengthOf("a \t\n b", 3)).toBe(2); // a run cut by the offset keeps its space
    expect(normalizedLengthOf("a \t\n b", 1)).toBe(1);
    expect(normalizedLengthOf("ab", 99)).toBe(2);
    expect(normalizedLengthOf("ab", -1)).toBe(0);
  });

  it("equals the length of the normalized head for any text and offset", () => {
    fc.assert(
      fc.property(renderedText, fc.nat(), (text, offset) => {
        const end = offset % (text.length + 1);
        expect(normalizedLengthOf(text, end)).toBe(
          normalizeRenderedText(text.slice(0, end)).length,
        );
        expect(normalizedLengthOf(text)).toBe(normalizeRenderedText(text).length);
      }),
    );
  });
});

describe("isRenderedWhitespaceCode", () => {
  it("agrees with /\\s/ on every UTF-16 code unit", () => {
    const disagreements: number[] = [];
    for (let code = 0; code <= 0xffff; code++) {
      if (isRenderedWhitespaceCode(code) !== /\s/.test(String.fromCharCode(code))) {
        disagreements.push(code);
      }
    }
    expect(disagreements).toEqual([]);
  });
});

describe("buildNormalizedRenderedText", () => {
  it("maps a whitespace run to its single space and back to the whole run", () => {
    const map = buildNormalizedRenderedText("a \t\nb");
    expect(map.normalized).toBe("a b");
    expect(Array.from(map.rawToNormalized)).toEqual([0, 1, 1, 1, 2]);
    expect(Array.from(map.normalizedToRaw)).toEqual([0, 1, 4, 5]);
    // Inside the run: a start lands on the space, an end just after it.
    expect(rawOffsetToNormalized(map, 2, "start")).toBe(1);
    expect(rawOffsetToNormalized(map, 2, "end")).toBe(2);
    // On real boundaries both affinities agree.
    for (const offset of [0, 1, 4, 5]) {
      expect(rawOffsetToNormalized(map, offset, "start")).toBe(
        rawOffsetToNormalized(map, offset, "end"),
      );
    }
    expect(normalizedRangeToRaw(map, 1, 3)).toEqual({ start: 1, end: 5 });
    expect(normalizedRangeToRaw(map, 2, 3)).toEqual({ start: 4, end: 5 });
  });

  it("clamps out-of-range offsets instead of failing", () => {
    const map = buildNormalizedRenderedText("ab");
    expect(rawOffsetToNormalized(map, -5, "start")).toBe(0);
    expect(rawOffsetToNormalized(map, 99, "end")).toBe(2);
    expect(rawOffsetToNormalized(map, Number.NaN, "end")).toBe(0);
    expect(normalizedRangeToRaw(map, 5, 1)).toEqual({ start: 2, end: 2 });
  });

  it("handles the empty text", () => {
    const map = buildNormalizedRenderedText("");
    expect(map.normalized).toBe("");
    expect(Array.from(map.normalizedToRaw)).toEqual([0]);
    expect(rawOffsetToNormalized(map, 0, "start")).toBe(0);
  });

  it("gives maps that agree with the normalized text for any input", () => {
    fc.assert(
      fc.property(renderedText, (raw) => {
        const map = buildNormalizedRenderedText(raw);
        const { normalized, normalizedToRaw, rawToNormalized } = map;
        expect(normalized).toBe(normalizeRenderedText(raw));
        expect(normalizedToRaw.length).toBe(normalized.length + 1);
        expect(normalizedToRaw[normalized.length]).toBe(raw.length);
        for (let k = 0; k < normalized.length; k++) {
          const segment = raw.slice(normalizedToRaw[k], normalizedToRaw[k + 1]);
          expect(normalizeRenderedText(segment)).toBe(normalized[k]);
          for (let i = normalizedToRaw[k]!; i < normalizedToRaw[k + 1]!; i++) {
            expect(rawToNormalized[i]).toBe(k);
          }
        }
        // An end offset counts the normalized units produced by the raw text before it.
        for (let i = 0; i <= raw.length; i++) {
          expect(rawOffsetToNormalized(map, i, "end")).toBe(
            normalizeRenderedText(raw.slice(0, i)).length,
          );
        }
      }),
    );
  });
});
