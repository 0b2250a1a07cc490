/**
 * The **Skip to composer** link (the first Tab stop of every screen): focuses the shown
 * composer (a textbox named "Message", DESIGN.md section 6). On a narrow home screen, which
 * lists threads, it asks for the home composer as **New thread** does.
 */
import { requestNewThread } from "../threads/newThreadRequest.ts";

/** The composer editor when it is rendered and shown, else null. */
export function shownComposer(root: ParentNode = document): HTMLElement | null {
  for (const editor of root.querySelectorAll<HTMLElement>(
    '[role="textbox"][aria-label="Message"]',
  )) {
    if (editor.getClientRects().length > 0) return editor;
  }
  return null;
}

/** Moves focus to the composer (see the module doc); `onHome`: the home page is shown. */
export function skipToComposer(onHome: boolean): void {
  const editor = shownComposer();
  if (editor) editor.focus();
  else if (onHome) requestNewThread();
}
