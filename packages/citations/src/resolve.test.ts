import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { normalizeRenderedText } from "./normalize.ts";
import { type AssistantCitationTextMatch, findAssistantCitationText } from "./resolve.ts";
import { type AssistantCitationSelector, createAssistantCitationSelector } from "./selector.ts";

/** Selector for the first raw occurrence of `quote` in `rendered`. */
function selectorFor(rendered: string, quote: string, fromIndex = 0): AssistantCitationSelector {
  const rawStart = rendered.indexOf(quote, fromIndex);
  const selector = createAssistantCitationSelector(rendered, rawStart, rawStart + quote.length);
  if (!selector) throw new Error(`no selector for ${JSON.stringify(quote)}`);
  return selector;
}

/**
 * Reference implementation of DESIGN.md section 4 by brute force: every position is tried,
 * context is compared by slicing.
 */
function referenceFind(
  rendered: string,
  selector: Pick<AssistantCitationSelector, "text" | "prefix" | "suffix">,
): AssistantCitationTextMatch {
  const document = normalizeRenderedText(rendered);
  const quote = normalizeRenderedText(selector.text);
  if (!/\S/.test(quote)) return { status: "missing" };
  // Each side is compared literally with the normalized document (DESIGN.md section 4).
  const prefix = normalizeRenderedText(selector.prefix);
  const suffix = normalizeRenderedText(selector.suffix);
  const occurrences: number[] = [];
  for (let i = 0; i + quote.length <= document.length; i++) {
    if (document.slice(i, i + quote.length) === quote) occurrences.push(i);
  }
  const matching = occurrences.filter(
    (i) =>
      (prefix === "" || (i >= prefix.length && document.slice(i - prefix.length, i) === prefix)) &&
      (suffix === "" ||
        document.slice(i + quote.length, i + quote.length + suffix.length) === suffix),
  );
  const pick = matching.length > 0 ? matching : occurrences;
  if (pick.length === 1) return { status: "found", start: pick[0]!, end: pick[0]! + quote.length };
  if (pick.length > 1) return { status: "ambiguous", count: pick.length };
  return { status: "missing" };
}

describe("findAssistantCitationText", () => {
  it("finds a quote at its saved offsets", () => {
    const rendered = "First paragraph.\nThe answer is 42.\nLast paragraph.";
    const selector = selectorFor(rendered, "answer is 42");
    expect(findAssistantCitationText(rendered, selector)).toEqual({
      status: "found",
      start: selector.start,
      end: selector.end,
    });
  });

  it("matches across different whitespace: runs, NBSP, tabs and CRLF", () => {
    const selector = selectorFor("Say  hello\tto\r\nthe world.", "hello\tto\r\nthe");
    const rendered = "Say hello\u00a0to   the\n\nworld.";
    expect(findAssistantCitationText(rendered, selector)).toEqual({
      status: "found",
      start: 4,
      end: 16,
    });
  });

  it("finds moved text through its context", () => {
    const original = "alpha beta gamma. delta beta epsilon.";
    const selector = selectorFor(original, "beta", original.indexOf("delta"));
    const moved = `A new first line was added.\n${original}`;
    const result = findAssistantCitationText(moved, selector);
    const expectedStart = normalizeRenderedText(moved).indexOf("beta epsilon");
    expect(result).toEqual({ status: "found", start: expectedStart, end: expectedStart + 4 });
  });

  it("finds a unique quote after its context changed", () => {
    const selector = selectorFor("before UNIQUE after", "UNIQUE");
    const result = findAssistantCitationText("entirely different UNIQUE surroundings", selector);
    expect(result).toEqual({ status: "found", start: 19, end: 25 });
  });

  it("is ambiguous with two context-matching occurrences, even at the saved offsets", () => {
    const rendered = "x repeat y ... x repeat y";
    const selector = selectorFor(rendered, "repeat");
    expect(selector).toMatchObject({ start: 2, prefix: "x ", suffix: " y ... x repeat y" });
    const short = { ...selector, prefix: "x ", suffix: " y" };
    expect(findAssistantCitationText(rendered, short)).toEqual({ status: "ambiguous", count: 2 });
  });

  it("counts only the context-matching occurrences when some match", () => {
    const rendered = "a-word b-word a-word c-word a-word";
    const selector = { text: "word", start: 0, end: 4, prefix: "a-", suffix: "" };
    expect(findAssistantCitationText(rendered, selector)).toEqual({
      status: "ambiguous",
      count: 3,
    });
    expect(findAssistantCitationText(rendered, { ...selector, prefix: "b-" })).toEqual({
      status: "found",
      start: 9,
      end: 13,
    });
  });

  it("is ambiguous when several occurrences exist and none matches the context", () => {
    const selector = { text: "twin", start: 0, end: 4, prefix: "gone ", suffix: " away" };
    expect(findAssistantCitationText("twin and twin and twin", selector)).toEqual({
      status: "ambiguous",
      count: 3,
    });
  });

  it("does not use the saved offsets as a tiebreak when context no longer matches", () => {
    const rendered = "one two one two";
    const selector = { text: "one", start: 0, end: 3, prefix: "zzz", suffix: "" };
    expect(findAssistantCitationText(rendered, selector)).toEqual({
      status: "ambiguous",
      count: 2,
    });
  });

  it("is missing when the quote does not occur", () => {
    const selector = selectorFor("some quoted words", "quoted");
    expect(findAssistantCitationText("other text", selector)).toEqual({ status: "missing" });
  });

  it("counts overlapping occurrences", () => {
    const none = { text: "aaa", start: 0, end: 3, prefix: "", suffix: "" };
    expect(findAssistantCitationText("aaaaa", none)).toEqual({ status: "ambiguous", count: 3 });
    expect(findAssistantCitationText("aaaaa", { ...none, prefix: "a", suffix: "a" })).toEqual({
      status: "found",
      start: 1,
      end: 4,
    });
    expect(findAssistantCitationText("abababa", { ...none, text: "aba" })).toEqual({
      status: "ambiguous",
      count: 3,
    });
    expect(
      findAssistantCitationText("abaabaaba", { ...none, text: "abaaba", prefix: "aba" }),
    ).toEqual({ status: "found", start: 3, end: 9 });
  });

  it("stays correct when a self-overlapping quote has too many candidates to check one by one", () => {
    // Every position of the long run is a candidate, which sends the search to its fallback.
    const rendered = `x${"a".repeat(50_000)}y`;
    const quote = { text: "a".repeat(20), start: 0, end: 0, prefix: "x", suffix: "" };
    expect(findAssistantCitationText(rendered, quote)).toEqual({
      status: "found",
      start: 1,
      end: 21,
    });
    expect(findAssistantCitationText(rendered, { ...quote, prefix: "", suffix: "y" })).toEqual({
      status: "found",
      start: 50_000 - 19,
      end: 50_001,
    });
    expect(findAssistantCitationText(rendered, { ...quote, prefix: "" })).toEqual({
      status: "ambiguous",
      count: 50_000 - 19,
    });
    const spaced = `${"a ".repeat(30_000)}b`;
    expect(findAssistantCitationText(spaced, { ...quote, text: "a\ta  a", prefix: "" })).toEqual({
      status: "ambiguous",
      count: 30_000 - 2,
    });
    expect(
      findAssistantCitationText(spaced, { ...quote, text: "a\ta  a", prefix: "", suffix: " b" }),
    ).toEqual({ status: "found", start: 60_000 - 6, end: 60_000 - 1 });
  });

  it("treats regex metacharacters literally", () => {
    const rendered = "match a.*b here, then (x) and $1 and $& and \\d+ [z]";
    for (const quote of ["a.*b", "(x)", "$1", "$&", "\\d+", "[z]"]) {
      const start = rendered.indexOf(quote);
      expect(findAssistantCitationText(rendered, selectorFor(rendered, quote))).toEqual({
        status: "found",
        start,
        end: start + quote.length,
      });
    }
    const stray = { text: "a.b", start: 0, end: 3, prefix: "", suffix: "" };
    expect(findAssistantCitationText("axb", stray)).toEqual({ status: "missing" });
  });

  it("matches case-sensitively", () => {
    const selector = selectorFor("Hello World", "World");
    expect(findAssistantCitationText("hello world", selector)).toEqual({ status: "missing" });
  });

  it("handles quotes whose normalized edges are spaces", () => {
    // Selected from inside a run to inside another run: " b " in normalized text.
    const rendered = "a  b  c";
    const selector = createAssistantCitationSelector(rendered, 2, 5)!;
    expect(selector).toMatchObject({ text: " b ", start: 1, end: 4, prefix: "a", suffix: "c" });
    expect(findAssistantCitationText("a\nb\tc", selector)).toEqual({
      status: "found",
      start: 1,
      end: 4,
    });
    // Context is compared literally with the normalized document: "x " can never sit right
    // before an occurrence of " b" (that would need two spaces in a row), so no occurrence is
    // context-matching and the two occurrences are ambiguous.
    const loose = { text: "\n b", start: 0, end: 0, prefix: "x ", suffix: "" };
    expect(findAssistantCitationText("y b x b", loose)).toEqual({
      status: "ambiguous",
      count: 2,
    });
    expect(findAssistantCitationText("y b x b", { ...loose, prefix: "x" })).toEqual({
      status: "found",
      start: 5,
      end: 7,
    });
    // Without the space before it, a quote starting with one does not match the text's start.
    expect(findAssistantCitationText("b", loose)).toEqual({ status: "missing" });
  });

  it("works in UTF-16 units with emoji and combining marks", () => {
    const rendered = "😀 cafe\u0301 👍🏽 cafe\u0301!";
    const selector = selectorFor(rendered, "cafe\u0301 👍🏽");
    expect(findAssistantCitationText(rendered, selector)).toEqual({
      status: "found",
      start: 3,
      end: 13, // 5 units of "cafe\u0301", a space, 4 units of the toned thumbs-up
    });
  });

  it("accepts a full citation object", () => {
    const citation = {
      version: 1 as const,
      environmentId: "env",
      threadId: "thread",
      messageId: "message",
      text: "cited",
      start: 4,
      end: 9,
      prefix: "the ",
      suffix: " part",
      comment: "why",
    };
    expect(findAssistantCitationText("the cited part", citation)).toEqual({
      status: "found",
      start: 4,
      end: 9,
    });
  });

  it("is missing for a blank quote and never throws on malformed selectors", () => {
    const blank = { text: " \n\t", start: 0, end: 1, prefix: "", suffix: "" };
    expect(findAssistantCitationText("a b", blank)).toEqual({ status: "missing" });
    expect(findAssistantCitationText("a b", { ...blank, text: "" })).toEqual({ status: "missing" });
    const malformed: unknown[] = [null, undefined, 42, "text", {}, { text: 5 }, { text: "a" }];
    for (const selector of malformed) {
      expect(() =>
        findAssistantCitationText("a b", selector as AssistantCitationSelector),
      ).not.toThrow();
    }
    expect(findAssistantCitationText("a b", { text: "a" } as AssistantCitationSelector)).toEqual({
      status: "found",
      start: 0,
      end: 1,
    });
    expect(
      findAssistantCitationText(null as unknown as string, blank as AssistantCitationSelector),
    ).toEqual({ status: "missing" });
  });
});

describe("findAssistantCitationText properties", () => {
  const pieces = ["a", "b", "A", " ", "  ", "\n", "\t", "\u00a0", "😀", "e\u0301"];
  const text = (maxLength: number) =>
    fc.array(fc.constantFrom(...pieces), { maxLength }).map((p) => p.join(""));

  it("finds a fresh selector at its own offsets when the normalized quote is unique", () => {
    fc.assert(
      fc.property(text(80), fc.nat(), fc.nat(), (rendered, a, b) => {
        const rawStart = Math.min(a, b) % (rendered.length + 1);
        const rawEnd = Math.max(a, b) % (rendered.length + 1);
        const selector = createAssistantCitationSelector(rendered, rawStart, rawEnd);
        if (!selector) return;
        const document = normalizeRenderedText(rendered);
        const quote = normalizeRenderedText(selector.text);
        const first = document.indexOf(quote);
        const result = findAssistantCitationText(rendered, selector);
        if (document.indexOf(quote, first + 1) === -1) {
          expect(result).toEqual({ status: "found", start: selector.start, end: selector.end });
        } else if (result.status === "found") {
          // Several occurrences: a found result is the one the context singles out.
          expect(result).toEqual({ status: "found", start: selector.start, end: selector.end });
        } else {
          expect(result.status).toBe("ambiguous");
        }
      }),
      { numRuns: 500 },
    );
  });

  it("agrees with a brute-force reference on small alphabets", () => {
    const small = fc.array(fc.constantFrom("a", "b", " ", "\n", "\t\u00a0"), { maxLength: 40 });
    const join = (p: string[]) => p.join("");
    fc.assert(
      fc.property(
        small.map(join),
        small.map(join),
        fc.array(fc.constantFrom("a", "b", " "), { maxLength: 4 }).map(join),
        fc.array(fc.constantFrom("a", "b", " "), { maxLength: 4 }).map(join),
        (rendered, quote, prefix, suffix) => {
          const selector = { text: quote, start: 0, end: quote.length, prefix, suffix };
          expect(findAssistantCitationText(rendered, selector)).toEqual(
            referenceFind(rendered, selector),
          );
        },
      ),
      { numRuns: 2000 },
    );
  });

  it("never throws on arbitrary input", () => {
    fc.assert(
      fc.property(
        fc.string({ unit: "binary" }),
        fc.record({
          text: fc.oneof(fc.string({ unit: "binary" }), fc.anything()),
          start: fc.anything(),
          end: fc.anything(),
          prefix: fc.oneof(fc.string({ unit: "binary" }), fc.anything()),
          suffix: fc.oneof(fc.string({ unit: "binary" }), fc.anything()),
        }),
        (rendered, selector) => {
          const result = findAssistantCitationText(
            rendered,
            selector as unknown as AssistantCitationSelector,
          );
          expect(["found", "ambiguous", "missing"]).toContain(result.status);
          if (result.status === "found") {
            const document = normalizeRenderedText(rendered);
            expect(document.slice(result.start, result.end)).toBe(
              normalizeRenderedText(selector.text as string),
            );
          }
        },
      ),
    );
  });
});
