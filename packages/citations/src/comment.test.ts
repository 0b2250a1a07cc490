import { describe, expect, it } from "vitest";
import { sampleCitation } from "./__fixtures__/citations.ts";
import { withAssistantCitationComment } from "./comment.ts";
import { formatAssistantCitationHref, parseAssistantCitationHref } from "./href.ts";
import type { AssistantCitation } from "./schema.ts";
import { serializeAssistantCitation } from "./serialize.ts";

/** A link as an older T3 Code build wrote it, before comments existed. */
const LEGACY_LINK =
  "[Assistant quote](t3-citation://v1/env-1/thread-1/message-1" +
  "?text=quoted+text&start=4&end=15&prefix=the+&suffix=+here)";

describe("withAssistantCitationComment", () => {
  it("sets a comment without its outer whitespace", () => {
    expect(withAssistantCitationComment(sampleCitation, "  why?\n\n ")).toStrictEqual({
      ...sampleCitation,
      comment: "why?",
    });
    expect(withAssistantCitationComment(sampleCitation, " a\n b ").comment).toBe("a\n b");
  });

  it("removes the key for a blank comment", () => {
    const commented = { ...sampleCitation, comment: "old" };
    for (const blank of ["", "   ", "\n\t\u00A0\uFEFF", null, undefined]) {
      const result = withAssistantCitationComment(commented, blank);
      expect("comment" in result).toBe(false);
      expect(result).toStrictEqual(sampleCitation);
    }
  });

  it("never mutates the input and never changes the quote or selector", () => {
    const input: AssistantCitation = Object.freeze({ ...sampleCitation, comment: "old" });
    const result = withAssistantCitationComment(input, "new");
    expect(result).not.toBe(input);
    expect(input.comment).toBe("old");
    const { comment: _a, ...before } = input;
    const { comment: _b, ...after } = result;
    expect(after).toStrictEqual(before);
  });

  it("keeps a legacy link byte-exact through adding and clearing a comment", () => {
    const href = LEGACY_LINK.slice("[Assistant quote](".length, -1);
    const parsed = parseAssistantCitationHref(href);
    expect(parsed).toStrictEqual(sampleCitation);
    if (parsed === null) return;
    expect(serializeAssistantCitation(parsed)).toBe(LEGACY_LINK);
    const commented = withAssistantCitationComment(parsed, " note ");
    expect(formatAssistantCitationHref(commented)).toBe(`${href}&comment=note`);
    const cleared = withAssistantCitationComment(commented, "  ");
    expect(serializeAssistantCitation(cleared)).toBe(LEGACY_LINK);
  });
});
