/**
 * A folded message keeps its whole text in the DOM, clipped (messageFold.ts). The reader must
 * never act on text they cannot see, so reaching the clipped part unfolds the message: a
 * selection whose moving end goes there (Shift+Arrow, a drag past the fold) or keyboard focus on
 * a link inside it (Tab). What they select or focus is then on screen, as everywhere else.
 *
 * Reads the DOM (selection, geometry) and calls `unfoldMessage`; never writes the DOM itself.
 */
import { unfoldMessage } from "./messageFold.ts";

const FOLDED_SELECTOR = ".chat-markdown--folded";

/**
 * The viewport rectangle of the character at a boundary point (the one after it, or before it
 * at the end of a text node), else of the point's element. A collapsed range has no box.
 */
function pointRect(node: Node, offset: number): DOMRect | null {
  if (node.nodeType === Node.TEXT_NODE) {
    const text = node as Text;
    if (text.length > 0) {
      const at = Math.min(offset, text.length - 1);
      const range = text.ownerDocument.createRange();
      range.setStart(text, at);
      range.setEnd(text, at + 1);
      const rect = range.getBoundingClientRect?.();
      if (rect && rect.height > 0) return rect;
    }
    return text.parentElement?.getBoundingClientRect() ?? null;
  }
  if (!(node instanceof Element)) return null;
  const child = node.childNodes[Math.min(offset, node.childNodes.length - 1)];
  if (child instanceof Text) return pointRect(child, 0);
  return (child instanceof Element ? child : node).getBoundingClientRect();
}

/** Unfolds the message of `clip` when `rect` starts below what the clip shows. */
function unfoldIfHidden(clip: Element, rect: DOMRect | null): void {
  if (rect === null) return;
  if (rect.top < clip.getBoundingClientRect().bottom - 1) return;
  const messageId = clip.closest("[data-message-id]")?.getAttribute("data-message-id");
  if (messageId) unfoldMessage(messageId);
}

/**
 * Watches selections and focus inside `root` (the timeline) and unfolds a folded message whose
 * clipped text they reach. Returns a function that stops watching.
 */
export function revealFoldedTextOnReach(root: HTMLElement): () => void {
  const document = root.ownerDocument;
  const onSelectionChange = () => {
    const selection = document.getSelection();
    const node = selection?.focusNode;
    if (!selection || !node || selection.isCollapsed || !root.contains(node)) return;
    const element = node instanceof Element ? node : node.parentElement;
    const clip = element?.closest(FOLDED_SELECTOR);
    if (clip) unfoldIfHidden(clip, pointRect(node, selection.focusOffset));
  };
  const onFocusIn = (event: FocusEvent) => {
    const target = event.target;
    if (!(target instanceof Element)) return;
    const clip = target.closest(FOLDED_SELECTOR);
    if (clip) unfoldIfHidden(clip, target.getBoundingClientRect());
  };
  document.addEventListener("selectionchange", onSelectionChange);
  root.addEventListener("focusin", onFocusIn);
  return () => {
    document.removeEventListener("selectionchange", onSelectionChange);
    root.removeEventListener("focusin", onFocusIn);
  };
}
