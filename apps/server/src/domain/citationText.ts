/**
 * NUL inside a citation link (issue 29). A link carries its fields percent-encoded, so `%00`
 * passes the request's text rule, but decoded it is NUL, which PostgreSQL text cannot hold (the
 * citation index, the title and the search text all store decoded fields). A prompt whose links
 * decode to NUL anywhere gets 400 `invalid_text` on every store, as NUL typed in the text does.
 */
import { collectAssistantCitations } from "@app/citations";
import { DomainError } from "./errors.ts";

/** Throws `invalid_text` when a field of a citation link in `text` holds NUL (U+0000). */
export function checkCitationText(text: string): void {
  if (!text.includes("%00")) return;
  for (const { citation } of collectAssistantCitations(text)) {
    for (const [field, value] of Object.entries(citation)) {
      if (typeof value === "string" && value.includes("\u0000")) {
        throw new DomainError(
          "invalid_text",
          `A citation link's ${field} contains a NUL character (U+0000), which cannot be stored. Cite the text again.`,
          { field: "input" },
        );
      }
    }
  }
}
