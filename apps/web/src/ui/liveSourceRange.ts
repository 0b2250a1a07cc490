/**
 * Whether a DOM range over an assistant answer's text still stands for that text. Shared by
 * citation navigation (the pulsed source) and the composer's comment editor (its editing
 * highlight): both hold a live range across re-renders of the timeline.
 */

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

/**
 * True while `range` still covers text in the document. When the row holding the text
 * re-renders, the browser moves the range's boundaries out of the removed nodes, which leaves it
 * collapsed (or its containers disconnected). With `messageId`, the range must also still lie in
 * that message's text: the timeline reuses a row's elements for another message, so connected
 * is not enough.
 */
export function isLiveSourceRange(range: Range, messageId: string | null = null): boolean {
  if (range.collapsed || !range.startContainer.isConnected || !range.endContainer.isConnected) {
    return false;
  }
  return messageId === null || sourceMessageOf(range) === messageId;
}
