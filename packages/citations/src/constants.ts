/** The literal Markdown link label that marks an assistant citation. */
export const ASSISTANT_CITATION_LABEL = "Assistant quote";

/** Maximum length of each source id (environment, thread, message), in UTF-16 code units. */
export const ASSISTANT_CITATION_MAX_ID_LENGTH = 512;

/** Maximum length of the quoted text, in UTF-16 code units. */
export const ASSISTANT_CITATION_MAX_TEXT_LENGTH = 8000;

/** Maximum length of the user's comment, in UTF-16 code units. */
export const ASSISTANT_CITATION_MAX_COMMENT_LENGTH = 8000;

/** Maximum length of the `prefix` and `suffix` context windows, in UTF-16 code units. */
export const ASSISTANT_CITATION_CONTEXT_LENGTH = 32;

/** Maximum length of a whole citation href, in characters (UTF-16 code units). */
export const ASSISTANT_CITATION_MAX_HREF_LENGTH = 160000;

/** Maximum provider input, in characters, checked before and after citation expansion. */
export const PROVIDER_INPUT_MAX_CHARS = 120000;

/** URI scheme name of citation links, without its colon. */
export const ASSISTANT_CITATION_SCHEME = "t3-citation";

/** URI scheme of citation links, with its colon (what `new URL(href).protocol` reports). */
export const ASSISTANT_CITATION_PROTOCOL = `${ASSISTANT_CITATION_SCHEME}:`;

/** Every version 1 citation href starts with exactly this prefix (matched case-sensitively). */
export const ASSISTANT_CITATION_HREF_PREFIX = `${ASSISTANT_CITATION_PROTOCOL}//v1/`;

/** The literal text that opens a citation link in Markdown: `[Assistant quote](`. */
export const ASSISTANT_CITATION_LINK_OPENER = `[${ASSISTANT_CITATION_LABEL}](`;
