import { describe, expect, it } from "vitest";
import * as citations from "./index.ts";

describe("@app/citations public API (DESIGN.md section 4)", () => {
  it("exports the constants with their contract values", () => {
    expect(citations.ASSISTANT_CITATION_LABEL).toBe("Assistant quote");
    expect(citations.ASSISTANT_CITATION_MAX_ID_LENGTH).toBe(512);
    expect(citations.ASSISTANT_CITATION_MAX_TEXT_LENGTH).toBe(8000);
    expect(citations.ASSISTANT_CITATION_MAX_COMMENT_LENGTH).toBe(8000);
    expect(citations.ASSISTANT_CITATION_CONTEXT_LENGTH).toBe(32);
    expect(citations.ASSISTANT_CITATION_MAX_HREF_LENGTH).toBe(160000);
    expect(citations.PROVIDER_INPUT_MAX_CHARS).toBe(120000);
    expect(citations.ASSISTANT_CITATION_HREF_PREFIX).toBe("t3-citation://v1/");
  });

  it("exports every contract function", () => {
    const names = [
      "formatAssistantCitationHref",
      "parseAssistantCitationHref",
      "serializeAssistantCitation",
      "collectAssistantCitations",
      "withAssistantCitationComment",
      "assistantCitationsToPlainText",
      "renderAssistantCitationsAsText",
      "expandAssistantCitationsForProvider",
      "validateProviderInput",
      "normalizeRenderedText",
      "createAssistantCitationSelector",
      "findAssistantCitationText",
      "getAssistantCitationChipLabel",
      "formatAssistantCitationHash",
      "parseAssistantCitationHash",
    ];
    const exported = citations as unknown as Record<string, unknown>;
    for (const name of names) expect(typeof exported[name], name).toBe("function");
    expect(typeof citations.AssistantCitationSchema.safeParse).toBe("function");
  });
});
