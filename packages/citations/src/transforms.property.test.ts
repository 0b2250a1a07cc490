import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { anyUtf16String, citationArbitrary } from "./__fixtures__/citations.ts";
import { getAssistantCitationChipLabel } from "./chipLabel.ts";
import { collectAssistantCitations } from "./collect.ts";
import { withAssistantCitationComment } from "./comment.ts";
import { expandAssistantCitationsForProvider } from "./expandForProvider.ts";
import { parseAssistantCitationHash } from "./hash.ts";
import { parseAssistantCitationHref } from "./href.ts";
import { assistantCitationsToPlainText } from "./plainText.ts";
import { validateProviderInput } from "./providerInput.ts";
import { renderAssistantCitationsAsText } from "./renderAsText.ts";
import type { AssistantCitation } from "./schema.ts";
import { serializeAssistantCitation } from "./serialize.ts";

const OPEN = "[Assistant quote](";
const PREFIX = "t3-citation://v1/";

/** Pieces of link syntax, so random texts often come close to (or form) real links. */
const syntaxPiece = fc.constantFrom(
  OPEN,
  PREFIX,
  `${OPEN}${PREFIX}`,
  ")",
  "(",
  " ",
  "\n",
  "a/b/c?",
  "text=x&start=1&end=2&prefix=&suffix=",
  "&comment=",
  "%",
  "#",
  "&&",
  "</assistant_citations>",
  "<assistant_citations>",
  "[assistant-quote-1]",
);

/** Arbitrary text: random UTF-16, syntax soup, and valid links spliced with noise. */
const textArbitrary = fc.oneof(
  anyUtf16String,
  fc.array(fc.oneof(syntaxPiece, anyUtf16String), { maxLength: 12 }).map((parts) => parts.join("")),
  fc
    .tuple(citationArbitrary, fc.nat(), anyUtf16String, anyUtf16String)
    .map(([citation, at, insert, around]) => {
      const link = serializeAssistantCitation(citation);
      const index = at % (link.length + 1);
      return `${around}${link.slice(0, index)}${insert}${link.slice(index)}${around}`;
    }),
);

/** Texts made of ordinary prose and valid links, so expansion always has something to do. */
const promptWithLinks = fc
  .array(
    fc.oneof(
      { weight: 2, arbitrary: citationArbitrary.map(serializeAssistantCitation) },
      { weight: 3, arbitrary: anyUtf16String },
    ),
    { minLength: 1, maxLength: 8 },
  )
  .chain((parts) =>
    citationArbitrary.map((citation) => [...parts, serializeAssistantCitation(citation)].join("")),
  );

/** True when `text` has no valid link. */
const hasNoLinks = (text: string) => collectAssistantCitations(text).length === 0;

describe("transforms on arbitrary strings", () => {
  it("never throw", () => {
    fc.assert(
      fc.property(textArbitrary, (text) => {
        collectAssistantCitations(text);
        assistantCitationsToPlainText(text);
        renderAssistantCitationsAsText(text);
        expandAssistantCitationsForProvider(text);
        validateProviderInput(text);
        parseAssistantCitationHref(text);
        parseAssistantCitationHash(text);
      }),
      { numRuns: 1000 },
    );
  });

  it("leave text without a valid link byte-identical", () => {
    fc.assert(
      fc.property(textArbitrary, (text) => {
        fc.pre(hasNoLinks(text));
        expect(assistantCitationsToPlainText(text)).toBe(text);
        expect(renderAssistantCitationsAsText(text)).toBe(text);
        expect(expandAssistantCitationsForProvider(text)).toBe(text);
      }),
      { numRuns: 500 },
    );
  });

  it("collect returns in-order, non-overlapping links whose sources are the text's own bytes", () => {
    fc.assert(
      fc.property(textArbitrary, (text) => {
        let previousEnd = 0;
        for (const item of collectAssistantCitations(text)) {
          expect(item.start).toBeGreaterThanOrEqual(previousEnd);
          expect(text.slice(item.start, item.end)).toBe(item.source);
          expect(item.source.startsWith(OPEN) && item.source.endsWith(")")).toBe(true);
          expect(parseAssistantCitationHref(item.source.slice(OPEN.length, -1))).toStrictEqual(
            item.citation,
          );
          previousEnd = item.end;
        }
      }),
      { numRuns: 500 },
    );
  });

  it("plain text keeps everything between links byte for byte", () => {
    fc.assert(
      fc.property(promptWithLinks, (text) => {
        const links = collectAssistantCitations(text);
        let expected = "";
        let cursor = 0;
        for (const { start, end, citation } of links) {
          const comment = citation.comment?.trim() ? `\nComment: ${citation.comment}` : "";
          expected += text.slice(cursor, start) + citation.text + comment;
          cursor = end;
        }
        expect(assistantCitationsToPlainText(text)).toBe(expected + text.slice(cursor));
      }),
      { numRuns: 300 },
    );
  });
});

describe("provider expansion", () => {
  it("has exactly one wrapper and valid JSON whose entries parse back to the same citations", () => {
    fc.assert(
      fc.property(promptWithLinks, (text) => {
        const expanded = expandAssistantCitationsForProvider(text);
        expect(expanded.split("<assistant_citations>")).toHaveLength(2);
        expect(expanded.split("</assistant_citations>")).toHaveLength(2);
        expect(expanded.endsWith("\n</assistant_citations>")).toBe(true);

        const open = expanded.indexOf("\n\n<assistant_citations>\n");
        const afterOpen = expanded.slice(open + "\n\n<assistant_citations>\n".length);
        const json = afterOpen.slice(
          afterOpen.indexOf("\n") + 1,
          -"\n</assistant_citations>".length,
        );
        expect(json).not.toMatch(/[<>&]/);
        const entries = JSON.parse(json) as Array<{ id: string; citation: AssistantCitation }>;

        const distinct = [...new Set(collectAssistantCitations(text).map((item) => item.source))];
        expect(entries.map((entry) => entry.id)).toEqual(
          distinct.map((_, index) => `assistant-quote-${index + 1}`),
        );
        entries.forEach((entry, index) => {
          expect(entry.citation).toStrictEqual(
            parseAssistantCitationHref(distinct[index]!.slice(OPEN.length, -1)),
          );
        });
      }),
      { numRuns: 300 },
    );
  });
});

describe("comment editing", () => {
  it("keeps the quote and selector and yields a citation that serializes", () => {
    fc.assert(
      fc.property(citationArbitrary, anyUtf16String, (citation, comment) => {
        const edited = withAssistantCitationComment(citation, comment);
        const { comment: _a, ...before } = citation;
        const { comment: _b, ...after } = edited;
        expect(after).toStrictEqual(before);
        if (edited.comment !== undefined) {
          expect(edited.comment).toBe(comment.trim());
          expect(edited.comment).not.toBe("");
        }
        const wellFormed = !/[\uD800-\uDFFF]/.test(
          comment.replace(/[\uD800-\uDBFF][\uDC00-\uDFFF]/g, ""),
        );
        if (wellFormed) expect(() => serializeAssistantCitation(edited)).not.toThrow();
      }),
    );
  });

  it("chip labels are short, trimmed and whole", () => {
    fc.assert(
      fc.property(citationArbitrary, (citation) => {
        const label = getAssistantCitationChipLabel(citation);
        expect(label.length).toBeLessThanOrEqual(65);
        expect(label).toBe(label.trim());
        expect(label).not.toMatch(/\s\s/);
        expect(label).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
      }),
    );
  });
});
