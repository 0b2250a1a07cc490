import { ASSISTANT_CITATION_LABEL } from "./constants.ts";
import { formatAssistantCitationHref } from "./href.ts";
import type { AssistantCitation } from "./schema.ts";

/**
 * Serializes a citation as the Markdown link stored in message text:
 * `[Assistant quote](t3-citation://v1/...)`.
 *
 * @throws Error when `citation` is not a valid {@link AssistantCitation}.
 */
export function serializeAssistantCitation(citation: AssistantCitation): string {
  return `[${ASSISTANT_CITATION_LABEL}](${formatAssistantCitationHref(citation)})`;
}
