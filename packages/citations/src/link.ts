/**
 * The link syntax as other code meets it: in a Markdown renderer (one link's href or source at a
 * time) and in readable outputs that must never show encoded citation bytes. Recognition in a
 * whole text is `collectAssistantCitations`; these helpers agree with it (DESIGN.md section 3)
 * so that no consumer needs its own copy of the scheme or a link pattern.
 */
import { ASSISTANT_CITATION_LINK_OPENER, ASSISTANT_CITATION_PROTOCOL } from "./constants.ts";
import { parseAssistantCitationHref } from "./href.ts";
import type { AssistantCitation } from "./schema.ts";

/** The first character that cannot be part of a link's href: JavaScript whitespace or `)`. */
const HREF_STOP = /[\s)]/;

/**
 * True when `href` is written in the citation URL form, `t3-citation://` (case-sensitive), any
 * version, whether or not it parses. A link renderer keeps such hrefs instead of dropping them,
 * so that an invalid citation link can still be shown as its own source text.
 */
export function isAssistantCitationHref(href: string): boolean {
  return href.startsWith(`${ASSISTANT_CITATION_PROTOCOL}//`);
}

/**
 * True when a Markdown link's source starts like a citation link: the label and then the scheme,
 * `[Assistant quote](t3-citation:` (case-sensitive). A renderer shows such a link as its exact
 * source when it does not parse, so a malformed citation stays ordinary text byte for byte.
 */
export function looksLikeAssistantCitationLink(source: string): boolean {
  return source.startsWith(ASSISTANT_CITATION_LINK_OPENER + ASSISTANT_CITATION_PROTOCOL);
}

/** A whole Markdown link source that is a valid citation link. */
export interface ParsedAssistantCitationLink {
  /** The link's href, exactly as written. */
  href: string;
  citation: AssistantCitation;
}

/**
 * Parses one whole Markdown link source (a renderer's link node): exactly `[Assistant quote](`
 * + an href without whitespace or `)` + `)`, nothing before or after, with a valid href.
 * Returns `null` (never throws) otherwise. Agrees with `collectAssistantCitations` on the
 * same string: a source parses here exactly when collect finds one link spanning all of it.
 */
export function parseAssistantCitationLink(source: string): ParsedAssistantCitationLink | null {
  if (typeof source !== "string") return null;
  const opener = ASSISTANT_CITATION_LINK_OPENER;
  if (source.length <= opener.length + 1 || !source.startsWith(opener) || !source.endsWith(")")) {
    return null;
  }
  const href = source.slice(opener.length, -1);
  if (HREF_STOP.test(href)) return null;
  const citation = parseAssistantCitationHref(href);
  return citation === null ? null : { href, citation };
}

/**
 * Citation link syntax in any letter case, valid or not: a `[Assistant quote](t3-citation:...)`
 * link up to its `)`, or a bare `t3-citation:` URI up to the next whitespace. Linear: the
 * first branch scans only from a label, and the label holds a space, so scans never overlap.
 * Written out: `\[Assistant quote\]\(t3-citation:[^\s)]*\)|t3-citation:\S*`, flags `gi`.
 */
const CITATION_SYNTAX = new RegExp(
  `${escapeRegExp(ASSISTANT_CITATION_LINK_OPENER + ASSISTANT_CITATION_PROTOCOL)}[^\\s)]*\\)|${escapeRegExp(ASSISTANT_CITATION_PROTOCOL)}\\S*`,
  "gi",
);

/**
 * Replaces every piece of citation link syntax left in `text` (see above) with one space. For
 * readable outputs such as titles: after `assistantCitationsToPlainText` has turned every valid
 * link into its quote, this keeps the bytes of invalid ones (and bare scheme URIs) out too.
 */
export function removeAssistantCitationSyntax(text: string): string {
  return text.replace(CITATION_SYNTAX, " ");
}

function escapeRegExp(literal: string): string {
  return literal.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
