/**
 * @app/citations: the pure citation kernel (DESIGN.md sections 3-5). No DOM, no React, no I/O.
 *
 * The public surface, by name. First the contract of DESIGN.md section 4 (other code and checks
 * rely on these names), then the documented extras (README.md, "API"). Everything else is
 * internal to the package. `api.test.ts` pins this list at the type level and at run time.
 */

export { getAssistantCitationChipLabel } from "./chipLabel.ts";
export { type CollectedAssistantCitation, collectAssistantCitations } from "./collect.ts";
export { withAssistantCitationComment } from "./comment.ts";
// DESIGN.md section 4: limits and the citation itself.
// Extra: the link syntax for renderers and readable outputs, so no app spells it itself.
export {
  ASSISTANT_CITATION_CONTEXT_LENGTH,
  ASSISTANT_CITATION_LABEL,
  ASSISTANT_CITATION_MAX_COMMENT_LENGTH,
  ASSISTANT_CITATION_MAX_HREF_LENGTH,
  ASSISTANT_CITATION_MAX_ID_LENGTH,
  ASSISTANT_CITATION_MAX_TEXT_LENGTH,
  ASSISTANT_CITATION_SCHEME,
  PROVIDER_INPUT_MAX_CHARS,
} from "./constants.ts";
export { expandAssistantCitationsForProvider } from "./expandForProvider.ts";
export { formatAssistantCitationHash, parseAssistantCitationHash } from "./hash.ts";
// DESIGN.md section 4: the wire format and transforms over text.
export { formatAssistantCitationHref, parseAssistantCitationHref } from "./href.ts";
export {
  isAssistantCitationHref,
  looksLikeAssistantCitationLink,
  type ParsedAssistantCitationLink,
  parseAssistantCitationLink,
  removeAssistantCitationSyntax,
} from "./link.ts";
// DESIGN.md section 4: selection, resolution, chips and navigation.
// Extra: the web app's DOM offset mapping, with the same normalization as the selector.
export {
  buildNormalizedRenderedText,
  isRenderedWhitespaceCode,
  type NormalizedRenderedText,
  normalizedRangeToRaw,
  normalizeRenderedText,
} from "./normalize.ts";
export { assistantCitationsToPlainText } from "./plainText.ts";
export { type ProviderInputValidation, validateProviderInput } from "./providerInput.ts";
export { renderAssistantCitationsAsText } from "./renderAsText.ts";
export { type AssistantCitationTextMatch, findAssistantCitationText } from "./resolve.ts";
// Extra: checks that share the schema's rules.
export {
  type AssistantCitation,
  AssistantCitationSchema,
  hasNonWhitespace,
  isAssistantCitation,
} from "./schema.ts";
export { type AssistantCitationSelector, createAssistantCitationSelector } from "./selector.ts";
export { serializeAssistantCitation } from "./serialize.ts";
