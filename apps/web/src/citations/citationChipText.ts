/**
 * What a citation chip shows and says, for both chips (the composer's and a sent message's).
 * Pure: no DOM, no React.
 *
 * - `label`: the spec's rule (the comment when there is one, else a short quote preview).
 * - `quotePreview`: only when the label is a comment, a shorter quote preview shown as a
 *   visibly separate, secondary part, so the comment never reads as if it were the quote.
 * - `description`: the full quote and the full comment (whitespace collapsed), for the chip's
 *   accessible description.
 * - `title`: the tooltip, the quote as written and the comment below it when there is one.
 */
import {
  type AssistantCitation,
  getAssistantCitationChipLabel,
  hasNonWhitespace,
  truncateText,
} from "@app/citations";

/** Longest quote preview beside a comment, in UTF-16 units (before the ellipsis). */
export const CHIP_QUOTE_PREVIEW_LENGTH = 40;

const collapse = (text: string) => text.replace(/\s+/g, " ").trim();

/** `text` with whitespace collapsed, cut to `max` units plus "…" (never inside a surrogate pair). */
export function shortPreview(text: string, max: number): string {
  return truncateText(collapse(text), max, "…");
}

/** The comment, if it is not blank. */
export function chipComment(citation: AssistantCitation): string | null {
  const comment = citation.comment;
  return comment !== undefined && hasNonWhitespace(comment) ? comment.trim() : null;
}

/** The parts of a chip; see the module doc. */
export function citationChipText(citation: AssistantCitation): {
  label: string;
  quotePreview: string | null;
  description: string;
  title: string;
} {
  const comment = chipComment(citation);
  return {
    label: getAssistantCitationChipLabel(citation),
    quotePreview: comment === null ? null : shortPreview(citation.text, CHIP_QUOTE_PREVIEW_LENGTH),
    // Whitespace collapsed, as accessible text is read.
    description:
      comment === null
        ? `Quote: ${collapse(citation.text)}`
        : `Quote: ${collapse(citation.text)} Comment: ${collapse(comment)}`,
    title: comment === null ? citation.text : `${citation.text}\n\nComment: ${comment}`,
  };
}
