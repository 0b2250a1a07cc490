/**
 * DESIGN.md section 3/4 rules about the whole href and its navigation hash, at their extremes.
 */
import { describe, expect, it } from "vitest";
import { ASSISTANT_CITATION_MAX_HREF_LENGTH } from "./constants.ts";
import { formatAssistantCitationHash, parseAssistantCitationHash } from "./hash.ts";
import { formatAssistantCitationHref, parseAssistantCitationHref } from "./href.ts";
import type { AssistantCitation } from "./schema.ts";

/** Every field at its limit, in the characters that cost the most bytes on the wire (9 per unit). */
const longest: AssistantCitation = {
  version: 1,
  environmentId: "中".repeat(512),
  threadId: "文".repeat(512),
  messageId: "字".repeat(512),
  text: "引".repeat(8000),
  start: 9_007_199_254_740_990,
  end: 9_007_199_254_740_991,
  prefix: "前".repeat(32),
  suffix: "后".repeat(32),
  comment: "评".repeat(8000),
};

describe("contract: the longest valid citation (DESIGN.md sections 3 and 4)", () => {
  it("whole href at most 160,000 characters: every field at its limit still fits", () => {
    const href = formatAssistantCitationHref(longest);
    expect(href.length).toBeLessThanOrEqual(ASSISTANT_CITATION_MAX_HREF_LENGTH);
    expect(parseAssistantCitationHref(href)).toStrictEqual(longest);
  });

  it("parseAssistantCitationHash works for every valid href, the longest included", () => {
    const href = formatAssistantCitationHref(longest);
    const hash = formatAssistantCitationHash(href);
    expect(hash).toMatch(/^#assistant-citation=[A-Za-z0-9_-]+$/);
    expect(parseAssistantCitationHash(hash)).toStrictEqual(longest);
    expect(parseAssistantCitationHash(hash.slice(1))).toStrictEqual(longest);
  });
});
