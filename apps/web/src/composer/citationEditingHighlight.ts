/**
 * The transient link between an open comment editor and the cited text in the assistant
 * response: where the live DOM range is on screen, and the "editing" highlight painted on it
 * through the CSS Custom Highlight API (whether the range is still live: ui/liveSourceRange.ts).
 * The range is never stored in the citation; every function here needs a live DOM range.
 */
import { supportsHighlightApi } from "../ui/highlightApi.ts";

/** The `CSS.highlights` name of the comment-editing highlight (styled in `composer.css`). */
export const ASSISTANT_CITATION_EDITING_HIGHLIGHT = "assistant-citation-editing";

/** The range's on-screen box, or null when the environment cannot measure ranges. */
export function measureSourceRange(range: Range): DOMRect | null {
  if (typeof range.getBoundingClientRect !== "function") return null;
  const rect = range.getBoundingClientRect();
  return rect.width === 0 && rect.height === 0 ? null : rect;
}

/**
 * Paints the comment-editing highlight on `range` and returns the function that removes it.
 * Where the Highlight API is missing nothing is painted (the editor still opens). The remover
 * deletes the registry entry only while it is still this highlight, so a newer editing session
 * keeps its own.
 */
export function paintCitationEditingHighlight(range: Range): () => void {
  if (!supportsHighlightApi()) return () => {};
  const registry = CSS.highlights;
  const highlight = new Highlight(range);
  registry.set(ASSISTANT_CITATION_EDITING_HIGHLIGHT, highlight);
  return () => {
    if (registry.get(ASSISTANT_CITATION_EDITING_HIGHLIGHT) === highlight) {
      registry.delete(ASSISTANT_CITATION_EDITING_HIGHLIGHT);
    }
  };
}
