/**
 * Where focus goes when the in-place editor of a prompt closes (Escape, Cancel, a sent edit):
 * removing the editor leaves it on `<body>`. It goes to the message's **Edit message** button
 * (so Enter opens the editor again), else to its row (articles are `tabindex=-1`), once the
 * timeline shows it. Never scrolls: the timeline alone decides where the view is.
 */

/** How many frames to wait for the row (a sent edit's version comes with the reloaded path). */
const MAX_FRAMES = 120;

/** Nothing has focus: the element that had it went away (or the reader has not moved it since). */
function focusIsLost(): boolean {
  const active = document.activeElement;
  return active === null || active === document.body;
}

/**
 * Focuses the Edit message button of `messageId` (else its row) once the row is shown;
 * `fallback` runs instead when the row is not shown within {@link MAX_FRAMES} frames.
 */
export function focusEditedMessage(messageId: string, fallback?: () => void): void {
  let frames = 0;
  const attempt = () => {
    const row = document.querySelector<HTMLElement>(
      `[data-timeline] [data-message-id="${CSS.escape(messageId)}"]`,
    );
    // Not shown yet, or still showing the editor: the next frame may.
    if (row === null || row.querySelector("[data-message-edit]") !== null) {
      if (frames++ < MAX_FRAMES) requestAnimationFrame(attempt);
      else if (focusIsLost()) fallback?.();
      return;
    }
    // The reader put focus somewhere meanwhile: leave it there.
    if (!focusIsLost()) return;
    const edit = Array.from(row.querySelectorAll<HTMLButtonElement>("button")).find(
      (button) => button.textContent === "Edit message",
    );
    (edit ?? row).focus({ preventScroll: true });
  };
  requestAnimationFrame(attempt);
}
