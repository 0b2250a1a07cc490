/**
 * The row-level mark of a jump that ended with a warning (the cited text changed, or appears
 * more than once): while the warning stands, the source message's row carries
 * `data-citation-warned="true"` (styled as a visible outline). Rows are reused for other
 * messages as they scroll, so the mark follows the message id, re-applied on every change of
 * the rows' DOM. Needs a live DOM.
 */

const ATTRIBUTE = "data-citation-warned";

function apply(root: ParentNode, messageId: string): void {
  for (const marked of root.querySelectorAll(`[${ATTRIBUTE}]`)) {
    if (marked.getAttribute("data-message-id") !== messageId) marked.removeAttribute(ATTRIBUTE);
  }
  const row = root.querySelector(`[data-message-id="${CSS.escape(messageId)}"]`);
  if (row && row.getAttribute(ATTRIBUTE) !== "true") row.setAttribute(ATTRIBUTE, "true");
}

/** Marks the row of `messageId` under `root` until the returned function is called. */
export function markWarnedRow(root: HTMLElement, messageId: string): () => void {
  apply(root, messageId);
  const observer = new MutationObserver(() => apply(root, messageId));
  observer.observe(root, {
    subtree: true,
    childList: true,
    attributes: true,
    attributeFilter: ["data-message-id"],
  });
  return () => {
    observer.disconnect();
    for (const marked of root.querySelectorAll(`[${ATTRIBUTE}]`)) marked.removeAttribute(ATTRIBUTE);
  };
}
