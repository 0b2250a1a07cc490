import { replaceAssistantCitations } from "./collect.ts";
import { hasNonWhitespace } from "./schema.ts";

/**
 * Replaces each valid citation link with its quote, or with the quote plus
 * `"\nComment: " + comment` when the comment is not blank. Everything else, invalid links
 * included, is kept byte for byte. Used for titles, branch names and previews, which must see
 * readable text rather than encoded URIs.
 */
export function assistantCitationsToPlainText(text: string): string {
  if (typeof text !== "string") return "";
  return replaceAssistantCitations(text, ({ citation }) =>
    citation.comment !== undefined && hasNonWhitespace(citation.comment)
      ? `${citation.text}\nComment: ${citation.comment}`
      : citation.text,
  );
}
