import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { anyUtf16String, citationArbitrary, sampleCitation } from "./__fixtures__/citations.ts";
import { collectAssistantCitations } from "./collect.ts";
import { formatAssistantCitationHref, parseAssistantCitationHref } from "./href.ts";
import {
  isAssistantCitationHref,
  looksLikeAssistantCitationLink,
  parseAssistantCitationLink,
  removeAssistantCitationSyntax,
} from "./link.ts";
import { serializeAssistantCitation } from "./serialize.ts";

const href = formatAssistantCitationHref(sampleCitation);
const link = serializeAssistantCitation(sampleCitation);

/** How the web app recognised one link's source before the kernel owned it (the reference). */
function referenceParseLink(source: string) {
  const match = /^\[Assistant quote\]\(([^\s)]+)\)$/.exec(source);
  if (!match) return null;
  const citation = parseAssistantCitationHref(match[1]!);
  return citation === null ? null : { href: match[1]!, citation };
}

/** How the server stripped leftover syntax from titles before the kernel owned it. */
function referenceRemoveSyntax(text: string): string {
  return text.replace(/\[Assistant quote\]\(t3-citation:[^\s)]*\)|t3-citation:\S*/gi, " ");
}

/** Pieces of link syntax in several casings, so random texts come close to real links. */
const syntaxPiece = fc.constantFrom(
  "[Assistant quote](",
  "[assistant QUOTE](",
  "t3-citation:",
  "T3-Citation:",
  "t3-citation://v1/",
  "t3-citation://v2/",
  ")",
  "(",
  " ",
  "\n",
  "\u00a0",
  "a/b/c?text=x&start=1&end=2&prefix=&suffix=",
  "%",
);
const textArbitrary = fc.oneof(
  anyUtf16String,
  fc.array(fc.oneof(syntaxPiece, anyUtf16String), { maxLength: 10 }).map((parts) => parts.join("")),
  fc
    .tuple(citationArbitrary, fc.nat(), fc.oneof(syntaxPiece, anyUtf16String))
    .map(([citation, at, insert]) => {
      const source = serializeAssistantCitation(citation);
      const index = at % (source.length + 1);
      return `${source.slice(0, index)}${insert}${source.slice(index)}`;
    }),
  citationArbitrary.map(serializeAssistantCitation),
);

describe("isAssistantCitationHref", () => {
  it("is true for the citation URL form, valid or not, and false for anything else", () => {
    expect(isAssistantCitationHref(href)).toBe(true);
    expect(isAssistantCitationHref("t3-citation://v2/a/b/c?x")).toBe(true);
    expect(isAssistantCitationHref("t3-citation://")).toBe(true);
    expect(isAssistantCitationHref("t3-citation:v1/a")).toBe(false);
    expect(isAssistantCitationHref("T3-CITATION://v1/a/b/c?text=x")).toBe(false);
    expect(isAssistantCitationHref(" t3-citation://v1/")).toBe(false);
    expect(isAssistantCitationHref("https://example.com")).toBe(false);
    expect(isAssistantCitationHref("")).toBe(false);
  });

  it("holds for every href the formatter writes", () => {
    fc.assert(
      fc.property(citationArbitrary, (citation) => {
        expect(isAssistantCitationHref(formatAssistantCitationHref(citation))).toBe(true);
      }),
    );
  });
});

describe("looksLikeAssistantCitationLink", () => {
  it("is true when the label is followed by the scheme, case-sensitively", () => {
    expect(looksLikeAssistantCitationLink(link)).toBe(true);
    expect(looksLikeAssistantCitationLink("[Assistant quote](t3-citation:broken")).toBe(true);
    expect(looksLikeAssistantCitationLink("[Assistant quote](https://example.com)")).toBe(false);
    expect(looksLikeAssistantCitationLink("[assistant quote](t3-citation://v1/)")).toBe(false);
    expect(looksLikeAssistantCitationLink(`x${link}`)).toBe(false);
  });
});

describe("parseAssistantCitationLink", () => {
  it("parses exactly one whole valid link", () => {
    expect(parseAssistantCitationLink(link)).toStrictEqual({ href, citation: sampleCitation });
    expect(parseAssistantCitationLink(`${link} `)).toBeNull();
    expect(parseAssistantCitationLink(` ${link}`)).toBeNull();
    expect(parseAssistantCitationLink(`${link}${link}`)).toBeNull();
    expect(parseAssistantCitationLink("[Assistant quote]()")).toBeNull();
    expect(parseAssistantCitationLink(`[Assistant quote](<${href}>)`)).toBeNull();
    expect(parseAssistantCitationLink(`[Other](${href})`)).toBeNull();
    expect(parseAssistantCitationLink(link.replace("start=", "start=x"))).toBeNull();
  });

  it("agrees with the former web regex on arbitrary sources", () => {
    fc.assert(
      fc.property(textArbitrary, (source) => {
        expect(parseAssistantCitationLink(source)).toStrictEqual(referenceParseLink(source));
      }),
      { numRuns: 2000 },
    );
  });

  it("parses a source exactly when collect finds one link spanning all of it", () => {
    fc.assert(
      fc.property(textArbitrary, (source) => {
        const found = collectAssistantCitations(source);
        const whole =
          found.length === 1 && found[0]!.start === 0 && found[0]!.end === source.length;
        const parsed = parseAssistantCitationLink(source);
        expect(parsed !== null).toBe(whole);
        if (parsed !== null) expect(parsed.citation).toStrictEqual(found[0]!.citation);
      }),
      { numRuns: 2000 },
    );
  });
});

describe("removeAssistantCitationSyntax", () => {
  it("replaces links and bare scheme URIs in any casing with one space", () => {
    expect(removeAssistantCitationSyntax(`a ${link} b`)).toBe("a   b");
    expect(removeAssistantCitationSyntax("a [ASSISTANT quote](T3-CITATION:x) b")).toBe("a   b");
    // Whitespace before the `)`: only the bare URI part is syntax.
    expect(removeAssistantCitationSyntax("a [Assistant quote](t3-citation:x y) b")).toBe(
      "a [Assistant quote](  y) b",
    );
    expect(removeAssistantCitationSyntax("a [Assistant quote](t3-citation:x) b")).toBe("a   b");
    expect(removeAssistantCitationSyntax("see T3-citation://v1/x/y?z and")).toBe("see   and");
    expect(removeAssistantCitationSyntax("plain [Assistant quote](https://x) text")).toBe(
      "plain [Assistant quote](https://x) text",
    );
  });

  it("agrees with the former server regex on arbitrary texts", () => {
    fc.assert(
      fc.property(textArbitrary, textArbitrary, (a, b) => {
        const text = `${a} ${b}`;
        expect(removeAssistantCitationSyntax(text)).toBe(referenceRemoveSyntax(text));
      }),
      { numRuns: 2000 },
    );
  });

  it("leaves no scheme behind", () => {
    fc.assert(
      fc.property(textArbitrary, (text) => {
        expect(removeAssistantCitationSyntax(text).toLowerCase()).not.toContain("t3-citation:");
      }),
    );
  });
});
