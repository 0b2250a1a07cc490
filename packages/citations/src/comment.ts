import type { AssistantCitation } from "./schema.ts";

/**
 * Returns a copy of `citation` with its comment set to `comment` minus outer whitespace. A blank
 * (or missing) comment removes the `comment` key entirely, so the link goes back to its original
 * bytes. The quote and selector are never changed and the input is never mutated. The result is
 * not re-validated here: formatting it throws if the comment is over the 8,000-unit limit.
 */
export function withAssistantCitationComment(
  citation: AssistantCitation,
  comment: string | null | undefined,
): AssistantCitation {
  const { comment: _previous, ...rest } = citation;
  const trimmed = typeof comment === "string" ? comment.trim() : "";
  return trimmed === "" ? rest : { ...rest, comment: trimmed };
}
