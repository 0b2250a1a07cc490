/**
 * Focus for a thread whose row re-renders: after a rename or an Undo the list changes under the
 * control that had focus (the rename textbox, the status's Undo button), and the windowed list
 * may render the row again in another container, so a ref held before the change can point at
 * an element that is gone. The link is found again by its thread id once the list has rendered.
 */

/** Frames to wait for the list to render the row before giving up. */
const MAX_FRAMES = 10;

/** The sidebar link of `threadId`, when rendered. */
function threadLink(threadId: string): HTMLElement | null {
  return document.querySelector<HTMLElement>(
    `nav[data-thread-list] [data-thread-id="${CSS.escape(threadId)}"]`,
  );
}

/**
 * Focuses the sidebar link of `threadId` in a coming frame (at the latest after
 * {@link MAX_FRAMES}); nothing when focus has meanwhile moved to another control.
 */
export function focusThreadLinkSoon(threadId: string): void {
  const before = document.activeElement;
  let frames = 0;
  const attempt = () => {
    // The reader moved on (clicked or tabbed elsewhere): leave focus where it is.
    const now = document.activeElement;
    if (now !== before && now !== null && now !== document.body) return;
    const link = threadLink(threadId);
    if (link !== null) link.focus();
    else if (++frames < MAX_FRAMES) requestAnimationFrame(attempt);
  };
  requestAnimationFrame(attempt);
}
