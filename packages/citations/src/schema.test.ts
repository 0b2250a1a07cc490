import { describe, expect, it } from "vitest";
import { sampleCitation } from "./__fixtures__/citations.ts";
import {
  ASSISTANT_CITATION_CONTEXT_LENGTH,
  ASSISTANT_CITATION_MAX_COMMENT_LENGTH,
  ASSISTANT_CITATION_MAX_ID_LENGTH,
  ASSISTANT_CITATION_MAX_TEXT_LENGTH,
} from "./constants.ts";
import { formatAssistantCitationHref, parseAssistantCitationHref } from "./href.ts";
import {
  type AssistantCitation,
  AssistantCitationSchema,
  isAssistantCitation,
  isWellFormedUtf16,
} from "./schema.ts";

/** Valid by the schema, and (when valid) also survives the wire. */
function accepts(citation: AssistantCitation): boolean {
  const valid = AssistantCitationSchema.safeParse(citation).success;
  if (valid) {
    expect(parseAssistantCitationHref(formatAssistantCitationHref(citation))).toStrictEqual(
      citation,
    );
  } else {
    expect(() => formatAssistantCitationHref(citation)).toThrow(/Invalid assistant citation/);
  }
  return valid;
}

describe("AssistantCitationSchema limits, exactly at and one past each bound", () => {
  it("ids: 1 to 512 code units", () => {
    for (const field of ["environmentId", "threadId", "messageId"] as const) {
      expect(accepts({ ...sampleCitation, [field]: "a" })).toBe(true);
      expect(accepts({ ...sampleCitation, [field]: "" })).toBe(false);
      expect(
        accepts({ ...sampleCitation, [field]: "a".repeat(ASSISTANT_CITATION_MAX_ID_LENGTH) }),
      ).toBe(true);
      expect(
        accepts({ ...sampleCitation, [field]: "a".repeat(ASSISTANT_CITATION_MAX_ID_LENGTH + 1) }),
      ).toBe(false);
    }
  });

  it("ids: not blank", () => {
    expect(accepts({ ...sampleCitation, threadId: " \t\n" })).toBe(false);
    expect(accepts({ ...sampleCitation, threadId: "\uFEFF" })).toBe(false);
    expect(accepts({ ...sampleCitation, threadId: " a " })).toBe(true);
  });

  it("quote: 1 to 8,000 code units with a non-whitespace character", () => {
    const max = ASSISTANT_CITATION_MAX_TEXT_LENGTH;
    expect(accepts({ ...sampleCitation, text: "x" })).toBe(true);
    expect(accepts({ ...sampleCitation, text: "" })).toBe(false);
    expect(accepts({ ...sampleCitation, text: "x".repeat(max) })).toBe(true);
    expect(accepts({ ...sampleCitation, text: "x".repeat(max + 1) })).toBe(false);
    expect(accepts({ ...sampleCitation, text: " \n\t\u00A0" })).toBe(false);
    expect(accepts({ ...sampleCitation, text: `  ${"x"}  ` })).toBe(true);
  });

  it("quote length counts UTF-16 code units, so an emoji counts twice", () => {
    const max = ASSISTANT_CITATION_MAX_TEXT_LENGTH;
    expect(accepts({ ...sampleCitation, text: "😀".repeat(max / 2) })).toBe(true);
    expect(accepts({ ...sampleCitation, text: `${"😀".repeat(max / 2)}x` })).toBe(false);
  });

  it("comment: 0 to 8,000 code units, blank allowed", () => {
    const max = ASSISTANT_CITATION_MAX_COMMENT_LENGTH;
    expect(accepts({ ...sampleCitation, comment: "" })).toBe(true);
    expect(accepts({ ...sampleCitation, comment: "   " })).toBe(true);
    expect(accepts({ ...sampleCitation, comment: "c".repeat(max) })).toBe(true);
    expect(accepts({ ...sampleCitation, comment: "c".repeat(max + 1) })).toBe(false);
  });

  it("prefix and suffix: 0 to 32 code units", () => {
    const max = ASSISTANT_CITATION_CONTEXT_LENGTH;
    for (const field of ["prefix", "suffix"] as const) {
      expect(accepts({ ...sampleCitation, [field]: "" })).toBe(true);
      expect(accepts({ ...sampleCitation, [field]: "p".repeat(max) })).toBe(true);
      expect(accepts({ ...sampleCitation, [field]: "p".repeat(max + 1) })).toBe(false);
    }
  });

  it("offsets: nonnegative safe integers with end > start", () => {
    const maxSafe = Number.MAX_SAFE_INTEGER;
    expect(accepts({ ...sampleCitation, start: 0, end: 1 })).toBe(true);
    expect(accepts({ ...sampleCitation, start: -1, end: 1 })).toBe(false);
    expect(accepts({ ...sampleCitation, start: 1, end: 1 })).toBe(false);
    expect(accepts({ ...sampleCitation, start: 2, end: 1 })).toBe(false);
    expect(accepts({ ...sampleCitation, start: 0.5, end: 1 })).toBe(false);
    expect(accepts({ ...sampleCitation, start: maxSafe - 1, end: maxSafe })).toBe(true);
    expect(accepts({ ...sampleCitation, start: maxSafe, end: maxSafe + 1 })).toBe(false);
    expect(accepts({ ...sampleCitation, start: 0, end: Number.POSITIVE_INFINITY })).toBe(false);
    expect(accepts({ ...sampleCitation, start: Number.NaN, end: 1 })).toBe(false);
  });

  it("every string must be well-formed UTF-16", () => {
    for (const field of ["environmentId", "text", "prefix", "suffix", "comment"] as const) {
      expect(accepts({ ...sampleCitation, [field]: "a\uD800" })).toBe(false);
      expect(accepts({ ...sampleCitation, [field]: "\uDC00a" })).toBe(false);
      expect(accepts({ ...sampleCitation, [field]: "a😀" })).toBe(true);
    }
  });

  it("version 1 only and no unknown keys", () => {
    expect(isAssistantCitation({ ...sampleCitation, version: 2 })).toBe(false);
    expect(isAssistantCitation({ ...sampleCitation, extra: true })).toBe(false);
    const { prefix: _prefix, ...missing } = sampleCitation;
    expect(isAssistantCitation(missing)).toBe(false);
    expect(isAssistantCitation(sampleCitation)).toBe(true);
  });
});

describe("isWellFormedUtf16", () => {
  it("accepts pairs and rejects lone or reversed surrogates", () => {
    expect(isWellFormedUtf16("")).toBe(true);
    expect(isWellFormedUtf16("a😀b")).toBe(true);
    expect(isWellFormedUtf16("\uD83D")).toBe(false);
    expect(isWellFormedUtf16("\uDE00\uD83D")).toBe(false);
    expect(isWellFormedUtf16("\uD83D\uD83D\uDE00")).toBe(false);
  });
});
