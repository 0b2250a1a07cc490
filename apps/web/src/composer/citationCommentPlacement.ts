/**
 * Pure placement of the citation comment editor (a `position: fixed` popover): beside an anchor
 * rectangle (the cited source text, or the chip), below it when it fits, else above, and kept
 * inside the viewport. No DOM access, so it is tested without a layout engine.
 */

/** A viewport-relative rectangle (the subset of DOMRect used here). */
export type AnchorRect = { left: number; top: number; right: number; bottom: number };
/** Width and height in CSS pixels. */
export type BoxSize = { width: number; height: number };
/** Where the popover's top-left corner goes, and on which side of the anchor it sits. */
export type CommentEditorPlacement = { x: number; y: number; side: "below" | "above" | "none" };

/** Space between the anchor and the popover. */
export const COMMENT_EDITOR_GAP = 6;
/** Minimum distance from the viewport edges. */
export const COMMENT_EDITOR_MARGIN = 8;

function clamp(value: number, min: number, max: number): number {
  return Math.min(Math.max(value, min), Math.max(min, max));
}

/**
 * Places a popover of `size` beside `anchor` within `viewport`. Horizontally it starts at the
 * anchor's left edge; vertically it goes below the anchor if it fits, else above if that fits,
 * else on the roomier side. Both coordinates are then clamped so the popover stays at least
 * {@link COMMENT_EDITOR_MARGIN} inside the viewport (a popover larger than the viewport keeps its
 * top-left corner visible). Without an anchor it is centred near the bottom of the viewport.
 */
export function placeCitationCommentEditor(
  anchor: AnchorRect | null,
  size: BoxSize,
  viewport: BoxSize,
): CommentEditorPlacement {
  const margin = COMMENT_EDITOR_MARGIN;
  const maxX = viewport.width - size.width - margin;
  const maxY = viewport.height - size.height - margin;
  if (anchor === null) {
    return {
      x: clamp((viewport.width - size.width) / 2, margin, maxX),
      y: clamp(maxY, margin, maxY),
      side: "none",
    };
  }
  const below = anchor.bottom + COMMENT_EDITOR_GAP;
  const above = anchor.top - COMMENT_EDITOR_GAP - size.height;
  const fitsBelow = below + size.height <= viewport.height - margin;
  const fitsAbove = above >= margin;
  const side: "below" | "above" =
    fitsBelow || (!fitsAbove && viewport.height - anchor.bottom >= anchor.top) ? "below" : "above";
  return {
    x: clamp(anchor.left, margin, maxX),
    y: clamp(side === "below" ? below : above, margin, maxY),
    side,
  };
}
