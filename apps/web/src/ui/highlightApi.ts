/**
 * Whether the CSS Custom Highlight API is available (`CSS.highlights` and the `Highlight`
 * class): the one check every painter of a named highlight (citation source, hover and backlink
 * marks, find matches, the comment-editing highlight) asks before touching `CSS.highlights`.
 */
export function supportsHighlightApi(): boolean {
  return (
    typeof CSS !== "undefined" &&
    "highlights" in CSS &&
    typeof (globalThis as { Highlight?: unknown }).Highlight === "function"
  );
}
