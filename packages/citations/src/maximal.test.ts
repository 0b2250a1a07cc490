import { describe, expect, it } from "vitest";
import { getAssistantCitationChipLabel } from "./chipLabel.ts";
import { collectAssistantCitations } from "./collect.ts";
import { ASSISTANT_CITATION_MAX_HREF_LENGTH, PROVIDER_INPUT_MAX_CHARS } from "./constants.ts";
import { expandAssistantCitationsForProvider } from "./expandForProvider.ts";
import { formatAssistantCitationHash, parseAssistantCitationHash } from "./hash.ts";
import { formatAssistantCitationHref, parseAssistantCitationHref } from "./href.ts";
import { assistantCitationsToPlainText } from "./plainText.ts";
import { validateProviderInput } from "./providerInput.ts";
import { renderAssistantCitationsAsText } from "./renderAsText.ts";
import type { AssistantCitation } from "./schema.ts";
import { serializeAssistantCitation } from "./serialize.ts";

/** The largest citation the limits allow, in the characters that percent-encode longest (CJK). */
const maximal: AssistantCitation = {
  version: 1,
  environmentId: "環".repeat(512),
  threadId: "境".repeat(512),
  messageId: "訊".repeat(512),
  text: "引".repeat(8000),
  start: Number.MAX_SAFE_INTEGER - 1,
  end: Number.MAX_SAFE_INTEGER,
  prefix: "前".repeat(32),
  suffix: "後".repeat(32),
  comment: "評".repeat(8000),
};

describe("a maximal all-CJK citation", () => {
  const href = formatAssistantCitationHref(maximal);
  const link = serializeAssistantCitation(maximal);

  it("fits within the href limit and round-trips", () => {
    expect(href.length).toBeLessThanOrEqual(ASSISTANT_CITATION_MAX_HREF_LENGTH);
    expect(parseAssistantCitationHref(href)).toStrictEqual(maximal);
    expect(parseAssistantCitationHash(formatAssistantCitationHash(href))).toStrictEqual(maximal);
  });

  it("is rejected one unit past any of its limits", () => {
    const pastLimits: Array<Partial<AssistantCitation>> = [
      { environmentId: "環".repeat(513) },
      { messageId: "訊".repeat(513) },
      { text: "引".repeat(8001) },
      { comment: "評".repeat(8001) },
      { prefix: "前".repeat(33) },
      { suffix: "後".repeat(33) },
    ];
    for (const change of pastLimits) {
      const citation = { ...maximal, ...change };
      expect(() => formatAssistantCitationHref(citation)).toThrow(/Invalid assistant citation/);
      // The same bytes a lenient writer would produce are rejected by the parser.
      const tampered =
        change.text !== undefined
          ? href.replace("text=", `text=${encodeURIComponent("引")}`)
          : change.comment !== undefined
            ? href.replace("comment=", `comment=${encodeURIComponent("評")}`)
            : change.prefix !== undefined
              ? href.replace("prefix=", `prefix=${encodeURIComponent("前")}`)
              : change.suffix !== undefined
                ? href.replace("suffix=", `suffix=${encodeURIComponent("後")}`)
                : href.replace("t3-citation://v1/", `t3-citation://v1/${encodeURIComponent("環")}`);
      expect(parseAssistantCitationHref(tampered)).toBeNull();
    }
  });

  it("is collected and expanded with the complete quote and comment", () => {
    const prompt = `Compare ${link} please`;
    expect(collectAssistantCitations(prompt)).toHaveLength(1);
    const expanded = expandAssistantCitationsForProvider(prompt);
    expect(
      expanded.startsWith("Compare [assistant-quote-1] please\n\n<assistant_citations>\n"),
    ).toBe(true);
    const json = expanded.slice(expanded.indexOf("\n[") + 1, -"\n</assistant_citations>".length);
    expect(JSON.parse(json)).toStrictEqual([{ id: "assistant-quote-1", citation: maximal }]);
    expect(validateProviderInput(prompt).ok).toBe(false);
    expect(validateProviderInput(prompt).length).toBeGreaterThan(PROVIDER_INPUT_MAX_CHARS);
  });

  it("reads as text in every readable output", () => {
    expect(assistantCitationsToPlainText(link)).toBe(
      `${maximal.text}\nComment: ${maximal.comment}`,
    );
    const rendered = renderAssistantCitationsAsText(link);
    expect(rendered).toBe(`> ${maximal.text}\n\n${maximal.comment}`);
    expect(getAssistantCitationChipLabel(maximal)).toBe(`${"評".repeat(64)}…`);
  });
});
