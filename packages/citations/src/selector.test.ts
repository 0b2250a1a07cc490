import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  buildNormalizedRenderedText,
  normalizeRenderedText,
  rawOffsetToNormalized,
} from "./normalize.ts";
import { createAssistantCitationSelector } from "./selector.ts";

const PIECES = [
  "a",
  "B",
  "é",
  "x",
  " ",
  "  ",
  "\t",
  "\n",
  "\r\n",
  "\u00a0",
  "\u2028",
  "😀",
  "e\u0301",
];
const renderedText = fc
  .array(fc.constantFrom(...PIECES), { maxLength: 120 })
  .map((p) => p.join(""));

const isHigh = (code: number) => code >= 0xd800 && code <= 0xdbff;
const isLow = (code: number) => code >= 0xdc00 && code <= 0xdfff;

describe("createAssistantCitationSelector", () => {
  it("keeps the exact raw text and uses normalized offsets and context", () => {
    const rendered = "Intro line.\n\nThe  quick\tbrown fox\r\njumps.";
    const rawStart = rendered.indexOf("quick");
    const rawEnd = rendered.indexOf("jumps") + "jumps".length;
    const selector = createAssistantCitationSelector(rendered, rawStart, rawEnd);
    expect(selector).toEqual({
      text: "quick\tbrown fox\r\njumps",
      start: "Intro line. The ".length,
      end: "Intro line. The quick brown fox jumps".length,
      prefix: "Intro line. The ",
      suffix: ".",
    });
  });

  it("starts a selection that begins inside a whitespace run at the run's single space", () => {
    // Raw "a  b": selecting " b" from index 2 (the second space of the run).
    expect(createAssistantCitationSelector("a  b", 2, 4)).toEqual({
      text: " b",
      start: 1,
      end: 3,
      prefix: "a",
      suffix: "",
    });
    // From the first space of the run the result is the same normalized range.
    expect(createAssistantCitationSelector("a  b", 1, 4)).toMatchObject({ start: 1, end: 3 });
  });

  it("ends a selection that stops inside a whitespace run just after the run's space", () => {
    const selector = createAssistantCitationSelector("a\t\t\tb", 0, 2);
    expect(selector).toEqual({ text: "a\t", start: 0, end: 2, prefix: "", suffix: "b" });
  });

  it("treats NBSP, tabs and CRLF as whitespace", () => {
    const rendered = "one\u00a0two\tthree\r\nfour";
    const selector = createAssistantCitationSelector(rendered, 0, rendered.length);
    expect(selector).toMatchObject({ start: 0, end: "one two three four".length });
  });

  it("counts offsets in UTF-16 units across emoji and combining marks", () => {
    const rendered = "😀 cafe\u0301 👍🏽 end";
    const rawStart = rendered.indexOf("cafe");
    const selector = createAssistantCitationSelector(rendered, rawStart, rawStart + 5);
    expect(selector).toEqual({
      text: "cafe\u0301",
      start: 3,
      end: 8,
      prefix: "😀 ",
      suffix: " 👍🏽 end",
    });
  });

  it("drops the one unit of a context window that would split a surrogate pair", () => {
    // 31 filler units + an emoji (2 units) before the quote: a 32-unit window would start on
    // the emoji's low surrogate, so the prefix keeps 31 units.
    const before = `😀${"p".repeat(31)}`;
    const after = `${"s".repeat(31)}😀tail`;
    const rendered = `${before}QUOTE${after}`;
    const selector = createAssistantCitationSelector(rendered, before.length, before.length + 5);
    expect(selector?.prefix).toBe("p".repeat(31));
    expect(selector?.suffix).toBe("s".repeat(31));

    // One unit more and the whole emoji fits.
    const wider = `😀${"p".repeat(30)}QUOTE${"s".repeat(30)}😀`;
    const fits = createAssistantCitationSelector(wider, 32, 37);
    expect(fits?.prefix).toBe(`😀${"p".repeat(30)}`);
    expect(fits?.suffix).toBe(`${"s".repeat(30)}😀`);
  });

  it("measures context in normalized text", () => {
    const rendered = `${"word \n\n ".repeat(10)}QUOTE${"\t\t next".repeat(10)}`;
    const rawStart = rendered.indexOf("QUOTE");
    const selector = createAssistantCitationSelector(rendered, rawStart, rawStart + 5);
    const normalized = normalizeRenderedText(rendered);
    expect(selector?.prefix).toBe(normalized.slice(selector!.start - 32, selector!.start));
    expect(selector?.suffix).toBe(normalized.slice(selector!.end, selector!.end + 32));
  });

  it("returns over-long quotes as they are", () => {
    const rendered = "q".repeat(9000);
    expect(createAssistantCitationSelector(rendered, 0, 9000)?.text.length).toBe(9000);
  });

  it("returns null for blank, empty, reversed, out-of-range and non-integer selections", () => {
    const rendered = "a \n\t\u00a0 b";
    expect(createAssistantCitationSelector(rendered, 1, 6)).toBeNull(); // whitespace only
    expect(createAssistantCitationSelector(rendered, 2, 2)).toBeNull(); // empty
    expect(createAssistantCitationSelector(rendered, 3, 1)).toBeNull(); // reversed
    expect(createAssistantCitationSelector(rendered, -1, 2)).toBeNull();
    expect(createAssistantCitationSelector(rendered, 0, rendered.length + 1)).toBeNull();
    expect(createAssistantCitationSelector(rendered, 0.5, 2)).toBeNull();
    expect(createAssistantCitationSelector(rendered, 0, Number.NaN)).toBeNull();
    expect(createAssistantCitationSelector(rendered, 0, Number.POSITIVE_INFINITY)).toBeNull();
    expect(createAssistantCitationSelector("", 0, 0)).toBeNull();
  });

  it("keeps normalized.slice(start, end) === normalizeRenderedText(text) for any range", () => {
    fc.assert(
      fc.property(renderedText, fc.nat(), fc.nat(), (rendered, a, b) => {
        const rawStart = Math.min(a, b) % (rendered.length + 1);
        const rawEnd = Math.max(a, b) % (rendered.length + 1);
        const selector = createAssistantCitationSelector(rendered, rawStart, rawEnd);
        const text = rendered.slice(rawStart, rawEnd);
        if (rawEnd <= rawStart || !/\S/.test(text)) {
          expect(selector).toBeNull();
          return;
        }
        expect(selector).not.toBeNull();
        const { start, end, prefix, suffix } = selector!;
        const normalized = normalizeRenderedText(rendered);
        expect(selector!.text).toBe(text);
        expect(normalized.slice(start, end)).toBe(normalizeRenderedText(text));
        // The offsets agree with the offset map the web app uses.
        const map = buildNormalizedRenderedText(rendered);
        expect(start).toBe(rawOffsetToNormalized(map, rawStart, "start"));
        expect(end).toBe(rawOffsetToNormalized(map, rawEnd, "end"));
        // Context is the normalized text right next to the quote, at most 32 units, and is
        // shorter than it could be only to avoid splitting a surrogate pair.
        expect(normalized.slice(start - prefix.length, start)).toBe(prefix);
        expect(normalized.slice(end, end + suffix.length)).toBe(suffix);
        expect(prefix.length).toBe(
          Math.min(32, start) - (prefix.length < Math.min(32, start) ? 1 : 0),
        );
        expect(suffix.length).toBe(
          Math.min(32, normalized.length - end) -
            (suffix.length < Math.min(32, normalized.length - end) ? 1 : 0),
        );
        if (prefix.length < Math.min(32, start)) {
          expect(isLow(normalized.charCodeAt(start - 32))).toBe(true);
        }
        if (suffix.length < Math.min(32, normalized.length - end)) {
          expect(isHigh(normalized.charCodeAt(end + 31))).toBe(true);
        }
        expect(isLow(prefix.charCodeAt(0))).toBe(false);
        expect(isHigh(suffix.charCodeAt(suffix.length - 1))).toBe(false);
      }),
      { numRuns: 500 },
    );
  });
});
