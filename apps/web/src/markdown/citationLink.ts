/**
 * Lexical recognition of a citation link in Markdown source (DESIGN.md section 3): the literal
 * `[Assistant quote](` + an href without whitespace or `)` + `)`, validated by the kernel parser.
 */
import { type AssistantCitation, parseAssistantCitationHref } from "@app/citations";

const CITATION_LINK = /^\[Assistant quote\]\(([^\s)]+)\)$/;

/** The citation a link's exact source encodes, or null when it is not a valid citation link. */
export function citationFromLinkSource(
  source: string,
): { href: string; citation: AssistantCitation } | null {
  const match = CITATION_LINK.exec(source);
  if (!match) return null;
  const href = match[1]!;
  const citation = parseAssistantCitationHref(href);
  return citation === null ? null : { href, citation };
}
