/**
 * DESIGN.md section 4 (selector semantics and resolution) pinned against a brute-force reference
 * written straight from its sentences.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { findAssistantCitationText } from "./resolve.ts";
import { createAssistantCitationSelector } from "./selector.ts";

const normalize = (text: string) => text.replace(/\s+/g, " ");
const isHigh = (code: number) => code >= 0xd800 && code <= 0xdbff;
const isLow = (code: number) => code >= 0xdc00 && code <= 0xdfff;

/** Section 4's selector rules, computed on the whole normalized text. */
function referenceSelector(rendered: string, rawStart: number, rawEnd: number) {
  if (rawStart < 0 || rawEnd > rendered.length || rawEnd <= rawStart) return null;
  const text = rendered.slice(rawStart, rawEnd);
  if (!/\S/.test(text)) return null;
  const normalized = normalize(rendered);
  // Normalized index of raw unit `rawStart`: a whitespace run is one unit (its single space).
  const start = normalize(rendered.slice(0, rawStart + 1)).length - 1;
  const end = start + normalize(text).length;
  let prefixStart = Math.max(0, start - 32);
  if (
    prefixStart > 0 &&
    isLow(normalized.charCodeAt(prefixStart)) &&
    isHigh(normalized.charCodeAt(prefixStart - 1))
  ) {
    prefixStart++;
  }
  let suffixEnd = Math.min(normalized.length, end + 32);
  if (
    suffixEnd < normalized.length &&
    isHigh(normalized.charCodeAt(suffixEnd - 1)) &&
    isLow(normalized.charCodeAt(suffixEnd))
  ) {
    suffixEnd--;
  }
  return {
    text,
    start,
    end,
    prefix: normalized.slice(prefixStart, start),
    suffix: normalized.slice(end, suffixEnd),
  };
}

/** Section 4's resolution rules, by checking every position of the normalized document. */
function referenceFind(
  rendered: string,
  selector: { text: string; prefix: string; suffix: string },
) {
  const document = normalize(rendered);
  const quote = normalize(selector.text);
  const prefix = normalize(selector.prefix);
  const suffix = normalize(selector.suffix);
  const occurrences: number[] = [];
  const contextMatching: number[] = [];
  for (let at = 0; at + quote.length <= document.length; at++) {
    if (!document.startsWith(quote, at)) continue;
    occurrences.push(at);
    const before = prefix === "" || document.slice(0, at).endsWith(prefix);
    const after = suffix === "" || document.startsWith(suffix, at + quote.length);
    if (before && after) contextMatching.push(at);
  }
  const found = (at: number) => ({ status: "found", start: at, end: at + quote.length });
  if (contextMatching.length === 1) return found(contextMatching[0]!);
  if (contextMatching.length > 1) return { status: "ambiguous", count: contextMatching.length };
  if (occurrences.length === 1) return found(occurrences[0]!);
  if (occurrences.length > 1) return { status: "ambiguous", count: occurrences.length };
  return { status: "missing" };
}

const unit = fc.constantFrom(
  "a",
  "b",
  "a",
  "b",
  " ",
  " ",
  "\n",
  "\t",
  "\u00a0",
  "\ufeff",
  "😀",
  "c",
);
const small = (maxLength: number) => fc.string({ unit, maxLength });
const quoteText = fc.string({ unit, minLength: 1, maxLength: 6 }).filter((text) => /\S/.test(text));

describe("contract: resolution compares each side of context literally (DESIGN.md section 4)", () => {
  it("a side of context matches only when the normalized text directly before the occurrence equals the prefix", () => {
    // Normalized document "y b x b": " b" occurs at 1 and 5; the text before 5 is "y b x", which
    // ends in "x", never in "x " (a normalized document has no two spaces in a row).
    const selector = { text: " b", prefix: "x ", suffix: "" };
    expect(findAssistantCitationText("y b x b", selector)).toEqual({
      status: "ambiguous",
      count: 2,
    });
    expect(findAssistantCitationText("y b x b", { ...selector, prefix: "x" })).toEqual({
      status: "found",
      start: 5,
      end: 7,
    });
  });

  it("a side of context matches only when the normalized text directly after the occurrence equals the suffix", () => {
    const selector = { text: "b ", prefix: "", suffix: " x" };
    expect(findAssistantCitationText("b y b\n\tx", selector)).toEqual({
      status: "ambiguous",
      count: 2,
    });
    expect(findAssistantCitationText("b y b\n\tx", { ...selector, suffix: "x" })).toEqual({
      status: "found",
      start: 4,
      end: 6,
    });
  });

  it("findAssistantCitationText agrees with the brute-force reading of section 4", () => {
    fc.assert(
      fc.property(small(40), quoteText, small(4), small(4), (rendered, text, prefix, suffix) => {
        const selector = { text, prefix, suffix };
        expect(findAssistantCitationText(rendered, selector)).toEqual(
          referenceFind(rendered, selector),
        );
      }),
      { numRuns: 3000 },
    );
  });

  it("findAssistantCitationText agrees with the reference when anchor hits are dense", () => {
    // Long runs of one letter make the raw-text search give up and fall back to the
    // normalized-document search; both must give the same answer as the reference.
    const run = fc.integer({ min: 0, max: 120 }).map((length) => "a".repeat(length));
    const document = fc
      .array(fc.tuple(run, fc.constantFrom(" ", "\n ", "b", " a", "  ")), {
        minLength: 40,
        maxLength: 80,
      })
      .map((parts) => parts.map(([letters, gap]) => letters + gap).join(""));
    const quote = fc
      .tuple(
        fc.constantFrom(" ", ""),
        fc.integer({ min: 8, max: 40 }),
        fc.constantFrom(" ", "", "b"),
      )
      .map(([head, length, tail]) => head + "a".repeat(length) + tail);
    const side = fc.constantFrom("", "a", " ", "a ", " a", "b");
    fc.assert(
      fc.property(document, quote, side, side, (rendered, text, prefix, suffix) => {
        const selector = { text, prefix, suffix };
        expect(findAssistantCitationText(rendered, selector)).toEqual(
          referenceFind(rendered, selector),
        );
      }),
      { numRuns: 150 },
    );
  });
});

describe("contract: selector semantics (DESIGN.md section 4)", () => {
  it("createAssistantCitationSelector agrees with the brute-force reading of section 4", () => {
    fc.assert(
      fc.property(small(80), fc.nat(85), fc.nat(85), (rendered, rawStart, rawEnd) => {
        const selector = createAssistantCitationSelector(rendered, rawStart, rawEnd);
        expect(selector).toEqual(referenceSelector(rendered, rawStart, rawEnd));
        if (selector !== null) {
          expect(normalize(rendered).slice(selector.start, selector.end)).toBe(
            normalize(selector.text),
          );
        }
      }),
      { numRuns: 3000 },
    );
  });

  it("a selection that starts inside a whitespace run starts at that run's single space", () => {
    const selector = createAssistantCitationSelector("one \n\t two", 5, 10);
    expect(selector).toEqual({ text: "\t two", start: 3, end: 7, prefix: "one", suffix: "" });
  });
});
