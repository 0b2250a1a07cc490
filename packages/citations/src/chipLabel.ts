import type { AssistantCitation } from "./schema.ts";
import { hasNonWhitespace } from "./schema.ts";
import { truncateText } from "./truncate.ts";

/** Longest chip label before truncation, in UTF-16 code units (the ellipsis comes on top). */
const ASSISTANT_CITATION_CHIP_LABEL_MAX_LENGTH = 64;

/**
 * The short label of a citation chip: the comment when it is not blank, otherwise the quote;
 * whitespace runs collapsed to one space and trimmed. Longer than 64 code units, it is cut to at
 * most 64 units (never between the halves of a surrogate pair) followed by `…`.
 */
export function getAssistantCitationChipLabel(citation: AssistantCitation): string {
  const source =
    citation.comment !== undefined && hasNonWhitespace(citation.comment)
      ? citation.comment
      : citation.text;
  const label = source.replace(/\s+/g, " ").trim();
  return truncateText(label, ASSISTANT_CITATION_CHIP_LABEL_MAX_LENGTH, "…");
}
