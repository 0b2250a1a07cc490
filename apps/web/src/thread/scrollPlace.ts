/**
 * Where a reader is in a thread, as a message and an offset (pure: no DOM). Browser Back and
 * Forward restore this place (`useScrollRestoration.ts`). A place names a message row and how
 * far its top is below the view's top, never a raw `scrollTop`: rows of a virtualized list are
 * measured late and the rows above a place change size, so a `scrollTop` points elsewhere once
 * they do, while a row and its offset still say what the reader saw.
 */

/** A message row's vertical extent, in the same coordinates as the view's box. */
export type RowExtent = { messageId: string; top: number; bottom: number };

/** The view the rows are seen through. */
export type ViewExtent = {
  top: number;
  bottom: number;
  /** How far the view is from the end of the list (px); at most 2 px is at the end. */
  distanceFromEnd: number;
};

/** A reader's place: a row's top `offset` px below the view's top (negative: above it), or the end. */
export type ScrollPlace = { messageId: string; offset: number } | { atEnd: true };

/** The view counts as at the end within this distance (px), as the follow policy does. */
const AT_END_PX = 2;

/**
 * The place of a view: at the end, or the row holding the view's top line (the row the reader
 * reads from), else the first row starting inside the view (a gap or the history header at the
 * top). Null when no row is in view.
 */
export function placeOfView(view: ViewExtent, rows: readonly RowExtent[]): ScrollPlace | null {
  if (view.distanceFromEnd <= AT_END_PX) return { atEnd: true };
  let firstInside: RowExtent | null = null;
  for (const row of rows) {
    if (row.top <= view.top + 0.5 && row.bottom > view.top + 0.5) {
      return { messageId: row.messageId, offset: row.top - view.top };
    }
    if (
      row.top > view.top &&
      row.top < view.bottom &&
      (!firstInside || row.top < firstInside.top)
    ) {
      firstInside = row;
    }
  }
  return firstInside === null
    ? null
    : { messageId: firstInside.messageId, offset: firstInside.top - view.top };
}

/**
 * The `viewPosition` (0 top, 1 bottom) that opens a new list session near a place before its
 * exact offset is applied: a row starting above the view opens at the top.
 */
export function viewPositionOfOffset(offset: number, viewHeight: number): number {
  if (viewHeight <= 0 || offset <= 0) return 0;
  return Math.min(1, offset / viewHeight);
}
