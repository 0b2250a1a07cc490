import { citationFixture } from "@app/citations/testing";
import { describe, expect, it } from "vitest";
import { CHIP_QUOTE_PREVIEW_LENGTH, citationChipText, shortPreview } from "./citationChipText.ts";

const citation = (text: string, comment?: string) =>
  citationFixture({ text, ...(comment === undefined ? {} : { comment }) });

describe("citationChipText", () => {
  it("labels a quote without comment by the quote, with no secondary part", () => {
    expect(citationChipText(citation("The  quoted\nwords"))).toEqual({
      label: "The quoted words",
      quotePreview: null,
      description: "Quote: The quoted words",
      title: "The  quoted\nwords",
    });
  });

  it("labels a commented quote by the comment and adds a short quote preview", () => {
    const long = "word ".repeat(30);
    const parts = citationChipText(citation(long, "  Why is this bold?  "));
    expect(parts.label).toBe("Why is this bold?");
    expect(parts.quotePreview).toBe(`${"word ".repeat(8).trim()}…`);
    expect(parts.quotePreview!.length).toBeLessThanOrEqual(CHIP_QUOTE_PREVIEW_LENGTH + 1);
    expect(parts.description).toBe(`Quote: ${long.trim()} Comment: Why is this bold?`);
  });

  it("treats a blank comment as none", () => {
    expect(citationChipText(citation("quote", "   ")).quotePreview).toBeNull();
    expect(citationChipText(citation("quote", "   ")).title).toBe("quote");
  });

  it("titles a chip by the quote as written, with the trimmed comment below it", () => {
    expect(citationChipText(citation("The  quoted\nwords")).title).toBe("The  quoted\nwords");
    expect(citationChipText(citation("The quote", "  Why?\n")).title).toBe(
      "The quote\n\nComment: Why?",
    );
  });

  it("never cuts a surrogate pair", () => {
    const text = `${"a".repeat(CHIP_QUOTE_PREVIEW_LENGTH - 1)}😀tail`;
    expect(shortPreview(text, CHIP_QUOTE_PREVIEW_LENGTH)).toBe(
      `${"a".repeat(CHIP_QUOTE_PREVIEW_LENGTH - 1)}…`,
    );
  });
});
