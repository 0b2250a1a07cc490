/**
 * Where focus and the selection were before the selection toolbar took focus from the keyboard,
 * so Escape in the toolbar puts both back (DESIGN.md section 6: focus never drops to <body>).
 */
import { sameRange } from "./selectionRange.ts";

/** The focused element and the selection's first range when the toolbar took focus. */
export type ToolbarReturn = { focus: Element | null; range: Range | null };

/** Remembers the current focus and selection. */
export function rememberToolbarReturn(): ToolbarReturn {
  const selection = document.getSelection();
  const range = selection && selection.rangeCount > 0 ? selection.getRangeAt(0).cloneRange() : null;
  return { focus: document.activeElement, range };
}

/**
 * Puts focus back where it was, or (it was on <body>, or its element is gone) on the selection's
 * message; and the selection back, only if it moved (focusing the button normally leaves it).
 */
export function restoreToolbarReturn(back: ToolbarReturn): void {
  const before =
    back.focus instanceof HTMLElement && back.focus.isConnected && back.focus !== document.body
      ? back.focus
      : messageRowOf(back.range);
  if (before !== null) before.focus({ preventScroll: true });
  else if (document.activeElement instanceof HTMLElement) document.activeElement.blur();
  const selection = document.getSelection();
  const now = selection && selection.rangeCount > 0 ? selection.getRangeAt(0) : null;
  if (back.range !== null && selection && (now === null || !sameRange(now, back.range))) {
    selection.removeAllRanges();
    selection.addRange(back.range);
  }
}

/** The message article (`tabindex=-1`) holding the start of `range`, or null. */
function messageRowOf(range: Range | null): HTMLElement | null {
  const node = range?.startContainer ?? null;
  const element = node instanceof Element ? node : (node?.parentElement ?? null);
  return element?.closest<HTMLElement>("[data-message-id]") ?? null;
}
