/**
 * The tag tables of the rendered-text stream (DESIGN.md section 6), shared by the two readers of
 * rendered text: apps/web/src/renderedText/renderedTextStream.ts walks a live DOM with them (tags
 * are its fallback when no computed style is available), and `renderedText.ts` here walks the
 * hast tree the web renders. One table each, so find, search and citation offsets agree.
 */

/**
 * Elements whose content is never displayed text, or that are controls. `img` is among them: an
 * image element shows no text (MarkdownImage renders its `Image: <alt>` label beside it, which
 * `renderedText.ts` mirrors before it consults this table).
 */
export const EXCLUDED_TAGS: ReadonlySet<string> = new Set([
  "button",
  "input",
  "select",
  "textarea",
  "option",
  "optgroup",
  "datalist",
  "meter",
  "progress",
  "script",
  "style",
  "template",
  "noscript",
  "svg",
  "math",
  "img",
  "picture",
  "video",
  "audio",
  "canvas",
  "iframe",
  "object",
  "embed",
  "head",
  "title",
  "meta",
  "link",
]);

/** Block-level tags: the browser's default `display` (the DOM walk uses it without styles). */
export const BLOCK_TAGS: ReadonlySet<string> = new Set([
  "address",
  "article",
  "aside",
  "blockquote",
  "caption",
  "dd",
  "details",
  "dialog",
  "div",
  "dl",
  "dt",
  "fieldset",
  "figcaption",
  "figure",
  "footer",
  "form",
  "h1",
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
  "header",
  "hgroup",
  "hr",
  "legend",
  "li",
  "listing",
  "main",
  "menu",
  "nav",
  "ol",
  "p",
  "plaintext",
  "pre",
  "section",
  "summary",
  "table",
  "tbody",
  "tfoot",
  "thead",
  "tr",
  "ul",
  "xmp",
]);

/** Tags whose text keeps its whitespace (`white-space: pre` by default). */
export const PREFORMATTED_TAGS: ReadonlySet<string> = new Set([
  "pre",
  "listing",
  "xmp",
  "plaintext",
]);

/** How a text run's whitespace shows: CSS `white-space` reduced to what the stream needs. */
export type WhiteSpaceMode = "collapse" | "preserve" | "preserve-breaks";

/** Space, tab, LF, FF, CR: the whitespace CSS collapses (NBSP is not among them). */
export function isCollapsibleCode(code: number): boolean {
  return code === 32 || code === 9 || code === 10 || code === 12 || code === 13;
}
