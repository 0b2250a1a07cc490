import { describe, expect, it } from "vitest";
import { sampleCitation } from "./__fixtures__/citations.ts";
import { assistantCitationsToPlainText } from "./plainText.ts";
import { serializeAssistantCitation } from "./serialize.ts";

describe("assistantCitationsToPlainText", () => {
  it("replaces a link with its quote", () => {
    const link = serializeAssistantCitation({ ...sampleCitation, text: "line one\n  line two" });
    expect(assistantCitationsToPlainText(`Title: ${link}!`)).toBe("Title: line one\n  line two!");
  });

  it("adds the comment on its own line when it is not blank", () => {
    const link = serializeAssistantCitation({ ...sampleCitation, comment: "why so?" });
    expect(assistantCitationsToPlainText(`${link} end`)).toBe("quoted text\nComment: why so? end");
  });

  it("treats a blank or empty comment as no comment", () => {
    for (const comment of ["", "   ", "\n\t"]) {
      const link = serializeAssistantCitation({ ...sampleCitation, comment });
      expect(assistantCitationsToPlainText(link)).toBe("quoted text");
    }
  });

  it("keeps all other text, invalid links included, byte for byte", () => {
    const invalid = serializeAssistantCitation(sampleCitation).replace("start=4", "start=x");
    const text = `\uFEFF  keep\r\n${invalid}\t[Assistant quote](t3-citation://v1/a/b) **md** `;
    expect(assistantCitationsToPlainText(text)).toBe(text);
  });

  it("handles every link of a text, duplicates included", () => {
    const link = serializeAssistantCitation(sampleCitation);
    expect(assistantCitationsToPlainText(`${link}|${link}`)).toBe("quoted text|quoted text");
  });
});
