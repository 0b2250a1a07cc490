import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { truncateText, truncateTextStart } from "./truncate.ts";

const splitsPair = (text: string, at: number) =>
  at > 0 &&
  at < text.length &&
  /[\uD800-\uDBFF]/.test(text[at - 1]!) &&
  /[\uDC00-\uDFFF]/.test(text[at]!);

describe("truncateText", () => {
  it("keeps text that fits and cuts longer text to max units", () => {
    expect(truncateText("abc", 3)).toBe("abc");
    expect(truncateText("abcd", 3)).toBe("abc");
    expect(truncateText("abcd", 0)).toBe("");
  });

  it("never ends between the halves of a surrogate pair", () => {
    expect(truncateText("ab😀c", 3)).toBe("ab");
    expect(truncateText("ab😀c", 4)).toBe("ab😀");
    // A lone high surrogate is no pair: it is kept like any other unit.
    expect(truncateText("ab\uD800c", 3)).toBe("ab\uD800");
  });

  it("adds the ellipsis only to a cut text, after dropping trailing whitespace", () => {
    expect(truncateText("a".repeat(5), 5, "…")).toBe("aaaaa");
    expect(truncateText("abc def", 4, "…")).toBe("abc…");
    expect(truncateText("a😀😀", 2, "…")).toBe("a…");
  });

  it("is a prefix of at most max units that splits no pair (property)", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary" }), fc.nat(40), (text, max) => {
        const cut = truncateText(text, max);
        expect(text.startsWith(cut)).toBe(true);
        expect(cut.length).toBeLessThanOrEqual(max);
        expect(cut.length >= max - 1 || cut === text).toBe(true);
        expect(splitsPair(text, cut.length)).toBe(false);
      }),
    );
  });
});

describe("truncateTextStart", () => {
  it("keeps the last max units, one fewer instead of splitting a pair", () => {
    expect(truncateTextStart("abcd", 2)).toBe("cd");
    expect(truncateTextStart("a😀bc", 3)).toBe("bc");
    expect(truncateTextStart("a😀bc", 4)).toBe("😀bc");
  });

  it("is a suffix of at most max units that splits no pair (property)", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary" }), fc.nat(40), (text, max) => {
        const cut = truncateTextStart(text, max);
        expect(text.endsWith(cut)).toBe(true);
        expect(cut.length).toBeLessThanOrEqual(max);
        expect(cut.length >= max - 1 || cut === text).toBe(true);
        expect(splitsPair(text, text.length - cut.length)).toBe(false);
      }),
    );
  });
});
