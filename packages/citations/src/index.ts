/**
 * @app/citations: the pure citation kernel (DESIGN.md sections 3-5). No DOM, no React, no I/O.
 *
 * The public surface, by name: the contract of DESIGN.md section 4 (other code and checks rely
 * on these names) and the documented extras (README.md, "API"). Each export below says which it
 * is; the statements are sorted by module, so a comment belongs to the one statement under it.
 * Everything else is internal to the package. `api.test.ts` pins this list at the type level
 * and at run time.
 */

// Contract: the chip label.
export { getAssistantCitationChipLabel } from "./chipLabel.ts";
// Contract: every valid link in a text.
export { type CollectedAssistantCitation, collectAssistantCitations } from "./collect.ts";
// Contract: adding or removing a comment.
export { withAssistantCitationComment } from "./comment.ts";
// Contract: the label and every limit. Extras: ASSISTANT_CITATION_SCHEME, for code that must keep
// the scheme's name out of its output; ASSISTANT_CITATION_LINK_OPENER, the text that opens a link.
export {
  ASSISTANT_CITATION_CONTEXT_LENGTH,
  ASSISTANT_CITATION_LABEL,
  ASSISTANT_CITATION_LINK_OPENER,
  ASSISTANT_CITATION_MAX_COMMENT_LENGTH,
  ASSISTANT_CITATION_MAX_HREF_LENGTH,
  ASSISTANT_CITATION_MAX_ID_LENGTH,
  ASSISTANT_CITATION_MAX_TEXT_LENGTH,
  ASSISTANT_CITATION_SCHEME,
  PROVIDER_INPUT_MAX_CHARS,
} from "./constants.ts";
// Contract: provider expansion (DESIGN.md section 5).
export { expandAssistantCitationsForProvider } from "./expandForProvider.ts";
// Contract: the navigation hash.
export { formatAssistantCitationHash, parseAssistantCitationHash } from "./hash.ts";
// Contract: the wire format.
export { formatAssistantCitationHref, parseAssistantCitationHref } from "./href.ts";
// Extra: the link syntax for renderers and readable outputs, so no app spells it itself.
export {
  isAssistantCitationHref,
  looksLikeAssistantCitationLink,
  type ParsedAssistantCitationLink,
  parseAssistantCitationLink,
  removeAssistantCitationSyntax,
} from "./link.ts";
// Contract: normalizeRenderedText. Extra: the web app's DOM offset mapping, with the same
// normalization as the selector.
export {
  buildNormalizedRenderedText,
  isRenderedWhitespaceCode,
  type NormalizedRenderedText,
  normalizedRangeToRaw,
  normalizeRenderedText,
} from "./normalize.ts";
// Contract: links read as their quotes.
export { assistantCitationsToPlainText } from "./plainText.ts";
// Contract: validateProviderInput. Extra: checkProviderInput, the same check with the expanded
// text the server sends on.
export {
  checkProviderInput,
  type ProviderInputCheck,
  type ProviderInputValidation,
  validateProviderInput,
} from "./providerInput.ts";
// Contract: readable Markdown for exports.
export { renderAssistantCitationsAsText } from "./renderAsText.ts";
// Contract: resolution of a quote in a rendered text.
export { type AssistantCitationTextMatch, findAssistantCitationText } from "./resolve.ts";
// Contract: the schema and type. Extra: the schema's own checks (well-formed UTF-16 among them).
export {
  type AssistantCitation,
  AssistantCitationSchema,
  hasNonWhitespace,
  isAssistantCitation,
  isWellFormedUtf16,
} from "./schema.ts";
// Contract: the selector of a selection.
export { type AssistantCitationSelector, createAssistantCitationSelector } from "./selector.ts";
// Contract: the Markdown link.
export { serializeAssistantCitation } from "./serialize.ts";
// Extra: cutting text to a length without splitting a surrogate pair.
export { truncateText } from "./truncate.ts";
