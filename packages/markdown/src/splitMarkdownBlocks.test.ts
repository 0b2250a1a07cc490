import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { splitMarkdownBlocks } from "./splitMarkdownBlocks.ts";

const sources = (text: string) => splitMarkdownBlocks(text).map((b) => b.source);

describe("splitMarkdownBlocks", () => {
  it("splits paragraphs, headings and code at blank lines", () => {
    expect(sources("# A\n\npara\n\n```\ncode\n```\n")).toEqual([
      "# A\n\n",
      "para\n\n",
      "```\ncode\n```\n",
    ]);
  });

  it("never splits inside a fenced code block with blank lines", () => {
    expect(sources("```\na\n\nb\n```\n\nafter")).toEqual(["```\na\n\nb\n```\n\n", "after"]);
    expect(sources("~~~~\n```\n\nx\n~~~~\n\ny")).toEqual(["~~~~\n```\n\nx\n~~~~\n\n", "y"]);
  });

  it("keeps the items of a loose list together but splits before a paragraph", () => {
    expect(sources("- a\n\n- b\n\n1. c\n\npara")).toEqual(["- a\n\n- b\n\n1. c\n\n", "para"]);
  });

  it("keeps a list that started mid-block together with its later items", () => {
    // Found by the render-equivalence property: the list opens after a paragraph line.
    expect(sources("para\n- item\n2. ordered\n\n2. ordered")).toEqual([
      "para\n- item\n2. ordered\n\n2. ordered",
    ]);
  });

  it("does not cut before an ordered item the parser could read as paragraph text", () => {
    expect(sources("    code\n\n2. ordered")).toEqual(["    code\n\n2. ordered"]);
    expect(sources("para\n\n1. first")).toEqual(["para\n\n", "1. first"]);
  });

  it("keeps indented continuations with their block", () => {
    expect(sources("- a\n\n  more a\n\nnext")).toEqual(["- a\n\n  more a\n\n", "next"]);
  });

  it("does not split documents with reference definitions, footnotes or multi-line HTML", () => {
    for (const text of [
      "[x][r]\n\n[r]: http://a",
      "a[^1]\n\n[^1]: note",
      "<pre>\n\nx</pre>\n\ny",
    ]) {
      expect(sources(text)).toEqual([text]);
    }
  });

  it("covers the text exactly with consecutive blocks", () => {
    const pieces = fc.constantFrom(
      "para",
      "- item",
      "1. item",
      "  indented",
      "```",
      "~~~",
      "> q",
      "# h",
      "",
      " ",
      "|a|",
    );
    fc.assert(
      fc.property(fc.array(pieces, { maxLength: 30 }), (lines) => {
        const text = lines.join("\n");
        const blocks = splitMarkdownBlocks(text);
        expect(blocks.map((b) => b.source).join("")).toBe(text);
        let position = 0;
        for (const block of blocks) {
          expect(block.start).toBe(position);
          expect(text.slice(block.start, block.end)).toBe(block.source);
          position = block.end;
        }
      }),
    );
  });
});

describe("splitMarkdownBlocks and raw HTML", () => {
  it("keeps a raw HTML block together with a fence line that belongs to it (property counterexample)", () => {
    const text = "<div>\n```\n\n```\n\npara text";
    expect(splitMarkdownBlocks(text)).toEqual([{ start: 0, end: text.length, source: text }]);
  });
});
