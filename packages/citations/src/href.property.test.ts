import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { anyUtf16String, citationArbitrary, referenceHref } from "./__fixtures__/citations.ts";
import { ASSISTANT_CITATION_HREF_PREFIX } from "./constants.ts";
import { formatAssistantCitationHref, parseAssistantCitationHref } from "./href.ts";

const isDotSegmentId = (id: string) => id === "." || id === "..";

describe("href properties", () => {
  it("parse(format(c)) deep-equals c for every valid citation", () => {
    fc.assert(
      fc.property(citationArbitrary, (citation) => {
        expect(parseAssistantCitationHref(formatAssistantCitationHref(citation))).toStrictEqual(
          citation,
        );
      }),
      { numRuns: 1000 },
    );
  });

  it("format matches the URLSearchParams reference except for dot-segment ids", () => {
    fc.assert(
      fc.property(citationArbitrary, (citation) => {
        fc.pre(
          ![citation.environmentId, citation.threadId, citation.messageId].some(isDotSegmentId),
        );
        expect(formatAssistantCitationHref(citation)).toBe(referenceHref(citation));
      }),
      { numRuns: 500 },
    );
  });

  it("formatted hrefs are printable ASCII without whitespace, `)` or `#`", () => {
    fc.assert(
      fc.property(citationArbitrary, (citation) => {
        expect(formatAssistantCitationHref(citation)).toMatch(/^[!-~]+$/);
        expect(formatAssistantCitationHref(citation)).not.toMatch(/[)#\s]/);
      }),
    );
  });

  it("parse never throws and returns null or a citation that formats back to a valid href", () => {
    const hrefLike = fc.oneof(
      anyUtf16String,
      anyUtf16String.map((tail) => ASSISTANT_CITATION_HREF_PREFIX + tail),
      fc.tuple(citationArbitrary, fc.nat(), anyUtf16String).map(([citation, at, insert]) => {
        const href = formatAssistantCitationHref(citation);
        const index = at % (href.length + 1);
        return href.slice(0, index) + insert + href.slice(index);
      }),
      fc.tuple(citationArbitrary, fc.nat(), fc.nat()).map(([citation, at, length]) => {
        const href = formatAssistantCitationHref(citation);
        const index = at % (href.length + 1);
        return href.slice(0, index) + href.slice(index + (length % 8));
      }),
    );
    fc.assert(
      fc.property(hrefLike, (href) => {
        const parsed = parseAssistantCitationHref(href);
        if (parsed !== null) {
          expect(parseAssistantCitationHref(formatAssistantCitationHref(parsed))).toStrictEqual(
            parsed,
          );
        }
      }),
      { numRuns: 1000 },
    );
  });

  it("accepts the query keys in any order", () => {
    fc.assert(
      fc.property(citationArbitrary, fc.nat(), (citation, seed) => {
        const href = formatAssistantCitationHref(citation);
        const queryStart = href.indexOf("?");
        const parts = href.slice(queryStart + 1).split("&");
        // A seeded rotation plus swap gives a different order for most seeds.
        const rotated = [
          ...parts.slice(seed % parts.length),
          ...parts.slice(0, seed % parts.length),
        ];
        rotated.reverse();
        const reordered = `${href.slice(0, queryStart)}?${rotated.join("&")}`;
        expect(parseAssistantCitationHref(reordered)).toStrictEqual(citation);
      }),
    );
  });
});
