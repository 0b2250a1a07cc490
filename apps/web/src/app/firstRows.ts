/**
 * The server-rendered first rows (apps/server/src/http/firstRows.ts): a static copy of the thread
 * view in `#first-rows`, over the app, shown before any script runs. Once the app runs it is
 * inert (no focus, no selection), and it goes away in the same task as the app's own first
 * message rows are attached (a mutation observer's microtask, before the next frame and before
 * any other script can look), so the document never holds two rows for one message. It also
 * goes when the app shows the thread's state some other way (an error, not found, deleted, an
 * empty thread) or the URL leaves the thread the rows belong to.
 */

/** Id of the server-rendered first rows' element. */
export const FIRST_ROWS_ID = "first-rows";

/** What in `#root` replaces the first rows: the app's rows, or its answer without rows. */
const REPLACES_FIRST_ROWS = [
  "[data-message-id]",
  ".thread-view__body [role=alert]",
  ".thread-view__body [role=status]",
  ".thread-view__body .page-message",
  ".timeline-empty",
].join(", ");

/** Removes `#first-rows` once the app in `root` replaces it; a no-op on a page without it. */
export function handOverFirstRows(root: HTMLElement): void {
  const firstRows = document.getElementById(FIRST_ROWS_ID);
  if (firstRows === null) return;
  // From now on the served rows are only a picture: nothing in them takes focus or a selection.
  firstRows.inert = true;
  const path = firstRows.dataset.threadPath;
  const done = () => root.querySelector(REPLACES_FIRST_ROWS) !== null || location.pathname !== path;
  if (done()) {
    firstRows.remove();
    return;
  }
  const observer = new MutationObserver(() => {
    if (!done()) return;
    observer.disconnect();
    firstRows.remove();
  });
  observer.observe(root, { childList: true, subtree: true });
}
