/**
 * Where a floating selection toolbar goes: pure geometry, no DOM. Below the anchor, centred on
 * it, flipped above when there is no room below, and always kept inside the viewport.
 */

/** A point in viewport (client) coordinates. */
export type ToolbarPoint = { x: number; y: number };

/** A width and height in CSS pixels. */
export type ToolbarSize = { width: number; height: number };

/** Space kept between the anchor and the toolbar, in CSS pixels. */
export const SELECTION_TOOLBAR_GAP = 8;

/** Space kept between the toolbar and the viewport edges, in CSS pixels. */
export const SELECTION_TOOLBAR_MARGIN = 8;

/** Roughly one text line: flipping above the anchor clears the line the pointer is on. */
const LINE_CLEARANCE = 20;

const clamp = (value: number, min: number, max: number) => Math.min(Math.max(value, min), max);

/**
 * The top-left corner for a toolbar of `size` anchored at `anchor` in a `viewport`. Horizontally
 * centred on the anchor; vertically just below it, or above its line when the bottom edge is too
 * close. Either way clamped so the whole toolbar stays visible (a toolbar larger than the
 * viewport is pinned to the top-left margin). Non-finite inputs count as 0.
 */
export function placeSelectionToolbar(
  anchor: ToolbarPoint,
  size: ToolbarSize,
  viewport: ToolbarSize,
): ToolbarPoint {
  const finite = (value: number) => (Number.isFinite(value) ? value : 0);
  const x = finite(anchor.x);
  const y = finite(anchor.y);
  const width = Math.max(0, finite(size.width));
  const height = Math.max(0, finite(size.height));
  const maxLeft = Math.max(
    SELECTION_TOOLBAR_MARGIN,
    finite(viewport.width) - width - SELECTION_TOOLBAR_MARGIN,
  );
  const maxTop = Math.max(
    SELECTION_TOOLBAR_MARGIN,
    finite(viewport.height) - height - SELECTION_TOOLBAR_MARGIN,
  );
  let top = y + SELECTION_TOOLBAR_GAP;
  if (top > maxTop) top = y - LINE_CLEARANCE - SELECTION_TOOLBAR_GAP - height;
  return {
    x: clamp(x - width / 2, SELECTION_TOOLBAR_MARGIN, maxLeft),
    y: clamp(top, SELECTION_TOOLBAR_MARGIN, maxTop),
  };
}
