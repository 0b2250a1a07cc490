import { ASSISTANT_CITATION_LINK_OPENER } from "./constants.ts";
import { parseAssistantCitationHref } from "./href.ts";
import type { AssistantCitation } from "./schema.ts";

/** One valid citation link found in a text. */
export interface CollectedAssistantCitation {
  /** The parsed citation. */
  citation: AssistantCitation;
  /** The whole link exactly as it appears in the text: `[Assistant quote](...)`. */
  source: string;
  /** Offset of the link's `[` in the text, in UTF-16 code units. */
  start: number;
  /** Offset just past the link's closing `)`. */
  end: number;
}

/** The first character that ends an href: JavaScript whitespace or `)`. */
const HREF_TERMINATOR = /[\s)]/g;

/**
 * Finds every valid citation link in `text`, in order. Recognition is purely lexical and the
 * same for every consumer: the literal `[Assistant quote](`, an href without whitespace or `)`,
 * then `)`. Links inside code spans count too. Candidates whose href does not parse are skipped
 * and stay ordinary text.
 *
 * Linear time on any input: the label contains a space, so no href (which cannot contain
 * whitespace) can overlap the next label. Each candidate's href region is therefore scanned
 * and parsed once, and those regions are disjoint.
 */
export function collectAssistantCitations(text: string): CollectedAssistantCitation[] {
  const found: CollectedAssistantCitation[] = [];
  if (typeof text !== "string") return found;
  const opener = ASSISTANT_CITATION_LINK_OPENER;
  const terminator = new RegExp(HREF_TERMINATOR.source, "g");
  let from = 0;
  for (;;) {
    const start = text.indexOf(opener, from);
    if (start < 0) break;
    const hrefStart = start + opener.length;
    terminator.lastIndex = hrefStart;
    const match = terminator.exec(text);
    // No whitespace or `)` left means no later label either (it contains a space).
    if (match === null) break;
    const hrefEnd = match.index;
    from = hrefStart;
    if (match[0] !== ")" || hrefEnd === hrefStart) continue;
    const citation = parseAssistantCitationHref(text.slice(hrefStart, hrefEnd));
    if (citation === null) continue;
    const end = hrefEnd + 1;
    found.push({ citation, source: text.slice(start, end), start, end });
    from = end;
  }
  return found;
}

/**
 * Rebuilds `text` with every valid citation link replaced by `replace(link, index, links)`;
 * all other text is copied unchanged. Shared by the plain-text, render-as-text and provider
 * transforms. Linear in the text length plus the replacements' lengths.
 */
export function replaceAssistantCitations(
  text: string,
  replace: (
    link: CollectedAssistantCitation,
    index: number,
    links: readonly CollectedAssistantCitation[],
  ) => string,
): string {
  const links = collectAssistantCitations(text);
  if (links.length === 0) return text;
  // Concatenation (a V8 rope) rather than `join`: the one flat copy of a large result is made
  // when a consumer first reads it, as for expandAssistantCitationsForProvider.
  let result = "";
  let cursor = 0;
  links.forEach((link, index) => {
    result += text.slice(cursor, link.start) + replace(link, index, links);
    cursor = link.end;
  });
  return result + text.slice(cursor);
}
