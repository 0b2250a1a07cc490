/**
 * The DOM side of the scroll policy: reads a scroller's geometry and moves it. Only Timeline.tsx
 * imports this module (README.md: which modules may scroll); everyone else asks the timeline
 * through its handle.
 */
import { isInsideBox, isOutOfBox, scrollTopToOffset, scrollTopToPlace } from "./followPolicy.ts";

/** Where cited text goes in the view: a third down, as a reader expects. */
const RANGE_VIEW_POSITION = 1 / 3;

/** How {@link scrollRangeIntoView} may leave a range where it is. */
export type RevealRangeOptions = {
  instant: boolean;
  /** Leave it where it is when any part of it is visible. */
  onlyIfOutOfView?: boolean;
  /** Leave it where it is when all of it is visible (a jump's words: never under an edge). */
  unlessFullyInView?: boolean;
};

/**
 * Scrolls `scroller` so the range sits about a third down its view; a range taller than the
 * view gets its first line at the top.
 */
export function scrollRangeIntoView(
  scroller: HTMLElement | null,
  range: Range,
  options: RevealRangeOptions,
): void {
  const behavior = options.instant ? "instant" : "smooth";
  // Without range geometry (old engines, jsdom) or a scroller, scroll the text's element.
  if (!scroller || typeof range.getBoundingClientRect !== "function") {
    if (options.onlyIfOutOfView || options.unlessFullyInView) return;
    range.startContainer.parentElement?.scrollIntoView?.({ block: "center", behavior });
    return;
  }
  if (typeof scroller.scrollTo !== "function") return;
  const rect = range.getBoundingClientRect();
  const box = scroller.getBoundingClientRect();
  if (options.onlyIfOutOfView && !isOutOfBox(box, rect)) return;
  if (options.unlessFullyInView && isInsideBox(box, rect)) return;
  scroller.scrollTo({
    top: scrollTopToPlace(scroller, box, rect, RANGE_VIEW_POSITION),
    behavior,
  });
}

/**
 * Puts a mounted message row at `viewPosition` of the view (0 top, 1 bottom) at once; false when
 * the row is not mounted.
 */
export function placeMountedRow(
  scroller: HTMLElement | null,
  messageId: string,
  viewPosition: number,
): boolean {
  const row = scroller?.querySelector(`[data-message-id="${CSS.escape(messageId)}"]`);
  if (!scroller || !row) return false;
  const top = scrollTopToPlace(
    scroller,
    scroller.getBoundingClientRect(),
    row.getBoundingClientRect(),
    viewPosition,
  );
  scroller.scrollTo({ top, behavior: "instant" });
  return true;
}

/**
 * Puts a mounted message row's top `offset` px below the view's top (negative: above it) at once,
 * unless it is already there (to half a pixel); false when the row is not mounted.
 */
export function placeMountedRowAt(
  scroller: HTMLElement | null,
  messageId: string,
  offset: number,
): boolean {
  const row = scroller?.querySelector(`[data-message-id="${CSS.escape(messageId)}"]`);
  if (!scroller || !row) return false;
  const box = scroller.getBoundingClientRect();
  const rect = row.getBoundingClientRect();
  if (Math.abs(rect.top - box.top - offset) <= 0.5) return true;
  scroller.scrollTo({ top: scrollTopToOffset(scroller, box, rect, offset), behavior: "instant" });
  return true;
}
