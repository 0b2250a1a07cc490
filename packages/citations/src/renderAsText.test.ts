import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { citationArbitrary, sampleCitation } from "./__fixtures__/citations.ts";
import { renderAssistantCitationsAsText } from "./renderAsText.ts";
import type { AssistantCitation } from "./schema.ts";
import { serializeAssistantCitation } from "./serialize.ts";

const link = (overrides: Partial<AssistantCitation> = {}) =>
  serializeAssistantCitation({ ...sampleCitation, ...overrides });

/** A line that Markdown could read as structure rather than paragraph text. */
const STRUCTURAL_LINE = /^( {0,3}([#+\-=>*_`~|]|\d+[.)])| {4}|\t)/;

describe("renderAssistantCitationsAsText", () => {
  it("turns a link into a blockquote on its own, set off from the paragraph around it", () => {
    expect(renderAssistantCitationsAsText(`Before ${link()} after`)).toBe(
      "Before \n\n> quoted text\n\nafter",
    );
  });

  it("prefixes every quote line with > and keeps blank quote lines inside the quote", () => {
    expect(renderAssistantCitationsAsText(link({ text: "one\ntwo\r\n\nthree" }))).toBe(
      "> one\n> two\n> \n> three",
    );
  });

  it("puts a non-blank comment below the quote as its own paragraph", () => {
    expect(renderAssistantCitationsAsText(`${link({ comment: "  my take  " })}\nnext`)).toBe(
      "> quoted text\n\nmy take\n\nnext",
    );
    expect(renderAssistantCitationsAsText(link({ comment: " \n " }))).toBe("> quoted text");
    expect(renderAssistantCitationsAsText(link({ comment: "" }))).toBe("> quoted text");
  });

  it("escapes Markdown structure and HTML in the quote and the comment", () => {
    const text = [
      "# Heading",
      "- item",
      "+ item",
      "* item",
      "1. one",
      "2) two",
      "```js",
      "~~~",
      "> nested",
      "===",
      "---",
      "| a | b |",
      "    indented code",
      "\tindented by tab",
      "<script>alert(1)</script> &amp; *em* _em_ `code` [a](b) ![i](j) ~~s~~ \\",
    ].join("\n");
    const output = renderAssistantCitationsAsText(link({ text, comment: "# also\n<b>bold</b>" }));
    const [quote = "", comment = ""] = output.split("\n\n");
    const quoteLines = quote.split("\n");
    expect(quoteLines).toHaveLength(15);
    for (const line of quoteLines) {
      expect(line.startsWith("> ")).toBe(true);
      expect(line.slice(2)).not.toMatch(STRUCTURAL_LINE);
    }
    for (const line of comment.split("\n")) expect(line).not.toMatch(STRUCTURAL_LINE);
    expect(output).not.toMatch(/<(?!\n)/);
    expect(quoteLines[0]).toBe("> \\# Heading");
    expect(quoteLines[4]).toBe("> 1\\. one");
    expect(quoteLines[12]).toBe(`> ${"\u00A0".repeat(4)}indented code`);
    expect(quoteLines[14]).toBe(
      "> &lt;script&gt;alert(1)&lt;/script&gt; &amp;amp; \\*em\\* \\_em\\_ \\`code\\` \\[a\\](b) !\\[i\\](j) \\~\\~s\\~\\~ \\\\",
    );
    expect(comment).toBe("\\# also\n&lt;b&gt;bold&lt;/b&gt;");
  });

  it("starts the block on its own line even after indentation", () => {
    expect(renderAssistantCitationsAsText(`para\n\n    ${link()}`)).toBe(
      "para\n\n    \n> quoted text",
    );
    expect(renderAssistantCitationsAsText(`    ${link()}`)).toBe("    \n\n> quoted text");
  });

  it("keeps text after the block out of the quote", () => {
    expect(renderAssistantCitationsAsText(`${link()}\nlazy line`)).toBe(
      "> quoted text\n\nlazy line",
    );
    expect(renderAssistantCitationsAsText(`${link()}     indented`)).toBe(
      "> quoted text\n\nindented",
    );
    expect(renderAssistantCitationsAsText(`${link()}\n\nsecond`)).toBe("> quoted text\n\nsecond");
  });

  it("separates adjacent citations into distinct blocks", () => {
    const second = link({ text: "second" });
    expect(renderAssistantCitationsAsText(`${link()}${second}`)).toBe("> quoted text\n\n> second");
    expect(renderAssistantCitationsAsText(`${link()} ${second}`)).toBe("> quoted text\n\n> second");
  });

  it("leaves text without valid links, and invalid links, byte for byte", () => {
    const invalid = link().replace("end=15", "end=1");
    const text = `# Title\n\n${invalid} and <b>html</b> & [Assistant quote](x)`;
    expect(renderAssistantCitationsAsText(text)).toBe(text);
    expect(renderAssistantCitationsAsText(`${invalid} ${link()}`)).toBe(
      `${invalid} \n\n> quoted text`,
    );
  });

  it("never lets a quote or comment produce structure or HTML (property)", () => {
    fc.assert(
      fc.property(citationArbitrary, (citation) => {
        const output = renderAssistantCitationsAsText(
          `x ${serializeAssistantCitation(citation)} y`,
        );
        expect(output.startsWith("x \n\n> ")).toBe(true);
        expect(output.endsWith("\n\ny")).toBe(true);
        expect(output).not.toContain("<");
        const body = output.slice("x \n\n".length, -"\n\ny".length);
        const quoteLineCount = citation.text.split(/\r\n|\r|\n/).length;
        const lines = body.split("\n");
        for (const line of lines.slice(0, quoteLineCount)) {
          expect(line.startsWith("> ")).toBe(true);
          expect(line.slice(2)).not.toMatch(STRUCTURAL_LINE);
        }
        for (const line of lines.slice(quoteLineCount)) {
          expect(line).not.toMatch(STRUCTURAL_LINE);
        }
      }),
      { numRuns: 500 },
    );
  });
});
