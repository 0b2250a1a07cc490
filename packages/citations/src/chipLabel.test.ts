import { describe, expect, it } from "vitest";
import { sampleCitation } from "./__fixtures__/citations.ts";
import { getAssistantCitationChipLabel } from "./chipLabel.ts";

describe("getAssistantCitationChipLabel", () => {
  it("shows the comment when present, otherwise the quote", () => {
    expect(getAssistantCitationChipLabel(sampleCitation)).toBe("quoted text");
    expect(getAssistantCitationChipLabel({ ...sampleCitation, comment: "my note" })).toBe(
      "my note",
    );
  });

  it("treats a blank comment as no comment", () => {
    expect(getAssistantCitationChipLabel({ ...sampleCitation, comment: "" })).toBe("quoted text");
    expect(getAssistantCitationChipLabel({ ...sampleCitation, comment: " \n " })).toBe(
      "quoted text",
    );
  });

  it("collapses whitespace runs and trims", () => {
    expect(
      getAssistantCitationChipLabel({ ...sampleCitation, text: "\n  first\t\tline\r\n second  " }),
    ).toBe("first line second");
  });

  it("keeps exactly 64 units and truncates 65 with an ellipsis", () => {
    expect(getAssistantCitationChipLabel({ ...sampleCitation, text: "a".repeat(64) })).toBe(
      "a".repeat(64),
    );
    expect(getAssistantCitationChipLabel({ ...sampleCitation, text: "a".repeat(65) })).toBe(
      `${"a".repeat(64)}…`,
    );
  });

  it("never splits a surrogate pair", () => {
    const label = getAssistantCitationChipLabel({
      ...sampleCitation,
      text: `${"a".repeat(63)}😀😀`,
    });
    expect(label).toBe(`${"a".repeat(63)}…`);
    const emoji = getAssistantCitationChipLabel({ ...sampleCitation, text: "😀".repeat(40) });
    expect(emoji).toBe(`${"😀".repeat(32)}…`);
  });

  it("does not leave a space before the ellipsis", () => {
    const label = getAssistantCitationChipLabel({
      ...sampleCitation,
      text: `${"a".repeat(63)} bcd`,
    });
    expect(label).toBe(`${"a".repeat(63)}…`);
  });
});
