import { describe, expect, it } from "vitest";
import { sampleCitation } from "./__fixtures__/citations.ts";
import { collectAssistantCitations } from "./collect.ts";
import { expandAssistantCitationsForProvider } from "./expandForProvider.ts";
import { formatAssistantCitationHref } from "./href.ts";
import { assistantCitationsToPlainText } from "./plainText.ts";
import { validateProviderInput } from "./providerInput.ts";
import { renderAssistantCitationsAsText } from "./renderAsText.ts";
import { serializeAssistantCitation } from "./serialize.ts";

const href = formatAssistantCitationHref(sampleCitation);
const valid = serializeAssistantCitation(sampleCitation);

/** Links that look right but break one rule each; every consumer must treat them as plain text. */
const invalidLinks: Array<[string, string]> = (
  [
    ["version 2", href.replace("/v1/", "/v2/")],
    ["credentials", href.replace("//v1/", "//user:secret@v1/")],
    ["a port", href.replace("//v1/", "//v1:443/")],
    ["a fragment", `${href}#top`],
    ["two path segments", href.replace("/thread-1", "")],
    ["malformed encoding", href.replace("quoted+text", "quoted%E2%82")],
    ["a missing field", href.replace("&prefix=the+", "")],
    ["an extra field", `${href}&extra=1`],
    ["a duplicate field", `${href}&end=15`],
    ["two comments", `${href}&comment=a&comment=b`],
    ["a bad number", href.replace("start=4", "start=4.0")],
    ["an 8,001-unit quote", href.replace("quoted+text", "q".repeat(8001))],
    ["an 8,001-unit comment", `${href}&comment=${"c".repeat(8001)}`],
    ["a 33-unit prefix", href.replace("prefix=the+", `prefix=${"p".repeat(33)}`)],
    ["a whitespace-only quote", href.replace("quoted+text", "+++")],
    ["a 160,001-character href", `${href}&comment=${"c".repeat(160_001 - href.length - 9)}`],
  ] satisfies Array<[string, string]>
).map(([name, bad]) => [name, `[Assistant quote](${bad})`]);

describe("invalid links stay ordinary text in every transform", () => {
  it("covers a 160,001-character href", () => {
    expect(invalidLinks.at(-1)?.[1]).toHaveLength("[Assistant quote]()".length + 160_001);
  });

  it.each(invalidLinks)("%s", (_name, link) => {
    const text = `Before ${link} between ${valid} after ${link}`;
    expect(collectAssistantCitations(text).map((item) => item.source)).toEqual([valid]);

    expect(assistantCitationsToPlainText(link)).toBe(link);
    expect(renderAssistantCitationsAsText(link)).toBe(link);
    expect(expandAssistantCitationsForProvider(link)).toBe(link);

    expect(assistantCitationsToPlainText(text)).toBe(
      `Before ${link} between quoted text after ${link}`,
    );
    expect(renderAssistantCitationsAsText(text)).toBe(
      `Before ${link} between \n\n> quoted text\n\nafter ${link}`,
    );
    expect(
      expandAssistantCitationsForProvider(text).startsWith(
        `Before ${link} between [assistant-quote-1] after ${link}\n\n<assistant_citations>\n`,
      ),
    ).toBe(true);
    expect(validateProviderInput(link).length).toBe(link.length);
  });
});
