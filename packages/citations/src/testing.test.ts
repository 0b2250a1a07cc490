import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { collectAssistantCitations } from "./collect.ts";
import { isAssistantCitation } from "./schema.ts";
import { citationFixture, citationLinkFixture } from "./testing.ts";

describe("@app/citations/testing", () => {
  it("gives a valid citation whose end follows its quote", () => {
    expect(citationFixture()).toEqual({
      version: 1,
      environmentId: "env-1",
      threadId: "thread-1",
      messageId: "message-1",
      text: "quoted text",
      start: 0,
      end: 11,
      prefix: "",
      suffix: "",
    });
    expect(citationFixture({ text: "abc", start: 5 })).toMatchObject({ start: 5, end: 8 });
    expect(citationFixture({ text: "abc", end: 2 }).end).toBe(2);
  });

  it("gives links the kernel reads back as the same citation (property)", () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1, maxLength: 40 }).filter((text) => /\S/.test(text)),
        fc.option(
          fc.string({ minLength: 1, maxLength: 20 }).filter((c) => /\S/.test(c)),
          {
            nil: undefined,
          },
        ),
        (text, comment) => {
          const overrides = comment === undefined ? { text } : { text, comment };
          const citation = citationFixture(overrides);
          expect(isAssistantCitation(citation)).toBe(true);
          const found = collectAssistantCitations(citationLinkFixture(overrides));
          expect(found.map((entry) => entry.citation)).toEqual([citation]);
        },
      ),
    );
  });
});
