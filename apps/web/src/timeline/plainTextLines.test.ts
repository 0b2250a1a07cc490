import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { countWrappedLines, isPlainParagraph } from "./plainTextLines.ts";

/** A monospace font of 10 px per character. */
const mono = (text: string) => text.length * 10;

/** Reference wrap: lays out character by character the way `white-space: pre-line` does. */
function referenceLines(text: string, maxWidth: number): number {
  const perLine = Math.floor(maxWidth / 10);
  let lines = 0;
  for (const line of text.split("\n")) {
    const words = line.split(/[ \t]+/).filter((word) => word !== "");
    let current = "";
    lines += 1;
    for (const word of words) {
      if (current === "") {
        let rest = word;
        while (rest.length > perLine) {
          lines += 1;
          rest = rest.slice(perLine);
        }
        current = rest;
      } else if (current.length + 1 + word.length <= perLine) {
        current += ` ${word}`;
      } else {
        lines += 1;
        let rest = word;
        while (rest.length > perLine) {
          lines += 1;
          rest = rest.slice(perLine);
        }
        current = rest;
      }
    }
  }
  return lines;
}

describe("countWrappedLines", () => {
  it.each([
    ["one short line", "hello world", 200, 1],
    ["exactly full", "aaaa bbbbb", 100, 1],
    ["one over", "aaaa bbbbbb", 100, 2],
    ["kept line breaks", "one\ntwo\n\nfour", 200, 4],
    ["collapsed spaces", "a     b", 30, 1],
    ["leading and trailing spaces", "   ab   ", 20, 1],
    ["a word longer than a line", "x".repeat(25), 100, 3],
    ["a long word after a short one", `ab ${"x".repeat(15)}`, 100, 3],
    ["empty", "", 100, 1],
  ])("%s", (_, text, width, lines) => {
    expect(countWrappedLines(text, width, mono)).toBe(lines);
  });

  it("treats a width of zero or less as one line", () => {
    expect(countWrappedLines("a b c", 0, mono)).toBe(1);
    expect(countWrappedLines("a b c", Number.NaN, mono)).toBe(1);
  });

  it("matches a character-by-character layout (property)", () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom("a", "b", " ", " ", "\n"), maxLength: 200 }),
        fc.integer({ min: 1, max: 30 }),
        (text, chars) => {
          expect(countWrappedLines(text, chars * 10, mono)).toBe(referenceLines(text, chars * 10));
        },
      ),
    );
  });

  it("never needs more lines on a wider bubble (property)", () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom("ab", "c", " ", "\n", "lengthy"), maxLength: 60 }),
        fc.integer({ min: 10, max: 400 }),
        fc.integer({ min: 0, max: 400 }),
        (text, width, extra) => {
          const measure = (s: string) => s.length * 7.3;
          expect(countWrappedLines(text, width + extra, measure)).toBeLessThanOrEqual(
            countWrappedLines(text, width, measure),
          );
        },
      ),
    );
  });
});

describe("isPlainParagraph", () => {
  it.each([
    "Turn 12: tell me about SQLite indexes, with an example and a small table.",
    "two lines\nkept as typed",
    "Is 3 more than 4? no: wait, (really) it's fine!",
  ])("accepts plain text: %s", (text) => {
    expect(isPlainParagraph(text)).toBe(true);
  });

  it.each([
    ["emphasis", "a *b* c"],
    ["code", "use `x`"],
    ["a link", "see [docs](https://x)"],
    ["a bare URL", "see https://example.com"],
    ["a heading", "# Title"],
    ["a list", "- one\n- two"],
    ["a numbered list", "1. one"],
    ["a mention", "look at @src/app.ts"],
    ["a skill", "run $review"],
    ["a table", "| a | b |"],
    ["an entity", "a &amp; b"],
    ["two paragraphs", "one\n\ntwo"],
    ["a setext underline", "Title\n==="],
    ["blank", "   "],
  ])("rejects %s", (_, text) => {
    expect(isPlainParagraph(text)).toBe(false);
  });
});
