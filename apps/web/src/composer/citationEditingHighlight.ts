/**
 * The transient link between an open comment editor and the cited text in the assistant
 * response: whether the live DOM range still covers text, where it is on screen, and the
 * "editing" highlight painted on it through the CSS Custom Highlight API. The range is never
 * stored in the citation; every function here needs a live DOM range.
 */

/** The `CSS.highlights` name of the comment-editing highlight (styled in `composer.css`). */
export const ASSISTANT_CITATION_EDITING_HIGHLIGHT = "assistant-citation-editing";

/**
 * True while `range` still covers text in the document. When the row holding the cited text
 * re-renders, the browser moves the range's boundaries out of the removed nodes, which leaves it
 * collapsed (or its containers disconnected); such a range is no longer the cited text. With
 * `messageId`, the range must also still lie in that message's text.
 */
export function isLiveSourceRange(range: Range, messageId: string | null = null): boolean {
  if (range.collapsed || !range.startContainer.isConnected || !range.endContainer.isConnected) {
    return false;
  }
  // The timeline reuses a row's elements for another message: connected is not enough.
  return messageId === null || sourceMessageOf(range) === messageId;
}

/** The id of the message (`data-assistant-citation-source`) whose text `range` starts in. */
export function sourceMessageOf(range: Range): string | null {
  const node = range.startContainer;
  const element = node instanceof Element ? node : node.parentElement;
  return (
    element
      ?.closest("[data-assistant-citation-source]")
      ?.getAttribute("data-assistant-citation-source") ?? null
  );
}

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
  const registry = typeof CSS !== "undefined" ? CSS.highlights : undefined;
  if (registry === undefined || typeof Highlight !== "function") return () => {};
  const highlight = new Highlight(range);
  registry.set(ASSISTANT_CITATION_EDITING_HIGHLIGHT, highlight);
  return () => {
    if (registry.get(ASSISTANT_CITATION_EDITING_HIGHLIGHT) === highlight) {
      registry.delete(ASSISTANT_CITATION_EDITING_HIGHLIGHT);
    }
  };
}
