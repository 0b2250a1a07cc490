import { describe, expect, it } from "vitest";
import { sampleCitation } from "./__fixtures__/citations.ts";
import { collectAssistantCitations, replaceAssistantCitations } from "./collect.ts";
import { formatAssistantCitationHref } from "./href.ts";
import { serializeAssistantCitation } from "./serialize.ts";

const link = serializeAssistantCitation(sampleCitation);
const href = formatAssistantCitationHref(sampleCitation);
const other = serializeAssistantCitation({ ...sampleCitation, text: "other quote" });

describe("serializeAssistantCitation", () => {
  it("wraps the href in a Markdown link labelled Assistant quote", () => {
    expect(link).toBe(`[Assistant quote](${href})`);
  });
});

describe("collectAssistantCitations", () => {
  it("finds links with their source text and offsets", () => {
    const text = `Look: ${link} and ${other}.`;
    const found = collectAssistantCitations(text);
    expect(found).toHaveLength(2);
    expect(found[0]).toStrictEqual({
      citation: sampleCitation,
      source: link,
      start: 6,
      end: 6 + link.length,
    });
    expect(found[1]?.citation.text).toBe("other quote");
    for (const item of found) expect(text.slice(item.start, item.end)).toBe(item.source);
  });

  it("finds adjacent links and links inside code spans and fences", () => {
    const text = `${link}${link}\n\`${link}\`\n\`\`\`\n${link}\n\`\`\``;
    expect(collectAssistantCitations(text)).toHaveLength(4);
  });

  it("returns nothing for text without links", () => {
    expect(collectAssistantCitations("")).toEqual([]);
    expect(collectAssistantCitations("plain [link](https://example.com)")).toEqual([]);
  });

  it("skips candidates that do not parse and keeps looking", () => {
    const broken = `[Assistant quote](${href.replace("/v1/", "/v2/")})`;
    const found = collectAssistantCitations(`${broken} ${link}`);
    expect(found.map((item) => item.source)).toEqual([link]);
  });

  it("requires the exact label, no whitespace inside the href, and a closing parenthesis", () => {
    const near = [
      `[assistant quote](${href})`,
      `[Assistant  quote](${href})`,
      `[Assistant quote] (${href})`,
      `[Assistant quote](${href}`,
      `[Assistant quote](${href} "title")`,
      `[Assistant quote]( ${href})`,
      `[Assistant quote](<${href}>)`,
      `[Assistant quote](${href.replace("text=", "te xt=")})`,
      `[Assistant quote]()`,
    ];
    for (const text of near) expect(collectAssistantCitations(text)).toEqual([]);
  });

  it("recognizes a link right after an unterminated candidate", () => {
    const text = `[Assistant quote](t3-citation://v1/${"x".repeat(50)} ${link}`;
    expect(collectAssistantCitations(text).map((item) => item.start)).toEqual([text.indexOf(link)]);
  });

  it("stops the href at the first `)` and at any JavaScript whitespace", () => {
    for (const space of [" ", "\t", "\n", "\u00A0", "\u2028", "\u3000", "\uFEFF"]) {
      const text = `[Assistant quote](${href}${space})`;
      expect(collectAssistantCitations(text)).toEqual([]);
    }
    expect(collectAssistantCitations(`${link})`)).toHaveLength(1);
  });

  it("handles adversarial input: thousands of unterminated prefixes and a long run", () => {
    const prefixes = "[Assistant quote](t3-citation://v1/".repeat(5000);
    const run = `[Assistant quote](t3-citation://v1/a/b/c?${"x".repeat(100_000)}`;
    expect(collectAssistantCitations(prefixes + link)).toHaveLength(1);
    expect(collectAssistantCitations(run)).toEqual([]);
    expect(collectAssistantCitations(`${prefixes}${run}) ${link}`)).toHaveLength(1);
  });

  it("ignores non-string input", () => {
    expect(collectAssistantCitations(undefined as unknown as string)).toEqual([]);
  });
});

describe("replaceAssistantCitations", () => {
  it("replaces only valid links and copies everything else", () => {
    const text = `a ${link} b [Assistant quote](nope) c ${other}`;
    const result = replaceAssistantCitations(
      text,
      (item, index) => `<${index}:${item.citation.text}>`,
    );
    expect(result).toBe("a <0:quoted text> b [Assistant quote](nope) c <1:other quote>");
  });
});
