/**
 * A match inside a block that scrolls sideways (a long code line, a wide table) can be in view
 * vertically and still hidden to the right. The timeline only scrolls vertically (and alone:
 * timeline/README.md), so the block's own horizontal scroll is set here, within the message:
 * the nearest ancestor of the range that scrolls on the x axis gets the range inside its box,
 * with a small margin. Needs a live DOM (layout).
 */

/** Space kept between the revealed words and the block's edge, in CSS px. */
const MARGIN_PX = 24;

function scrollsSideways(element: Element): boolean {
  if (element.scrollWidth <= element.clientWidth) return false;
  const overflow = getComputedStyle(element).overflowX;
  return overflow === "auto" || overflow === "scroll";
}

/** Scrolls the range's sideways-scrolling block (if any) so the range is inside it. */
export function revealRangeInline(range: Range, stopAt: Element | null): void {
  const node = range.startContainer;
  let element = node instanceof Element ? node : node.parentElement;
  for (; element !== null && element !== stopAt; element = element.parentElement) {
    if (!scrollsSideways(element)) continue;
    const rect = range.getBoundingClientRect();
    const box = element.getBoundingClientRect();
    if (rect.left < box.left + MARGIN_PX) {
      element.scrollLeft -= box.left + MARGIN_PX - rect.left;
    } else if (rect.right > box.right - MARGIN_PX) {
      // As much as is needed, but never so far that the start leaves the box.
      const needed = rect.right - (box.right - MARGIN_PX);
      const room = rect.left - (box.left + MARGIN_PX);
      element.scrollLeft += Math.max(0, Math.min(needed, room));
    }
    return;
  }
}
