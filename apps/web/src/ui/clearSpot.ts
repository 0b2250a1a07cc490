/**
 * A spot for a popover that covers none of some boxes (the selected words), inside an area (the
 * visible timeline). Pure geometry, no DOM: `floatingPlacement.ts` asks it when the side Floating
 * UI picked (below or above the reference, shifted into the area) would cover a box, as when a
 * selection fills the view and neither side has room.
 *
 * Candidates, in order; the first that covers nothing and fits the area wins:
 * 1. beside a box's line, right after its end (the last lines first: a short last line leaves
 *    room at its right), its top on the line's top, centred on it, or its bottom on the line's;
 * 2. any spot of the area, from its bottom up, at the area's right edge, the preferred x, then
 *    the left edge (the space right of short lines, between blocks).
 * Null when there is none (the words fill the area): the caller keeps Floating UI's spot.
 */

/** A box in viewport coordinates. */
export type Box = { x: number; y: number; width: number; height: number };

/** Vertical step of the area scan, in CSS pixels. */
const SCAN_STEP = 4;

function overlaps(a: Box, b: Box): boolean {
  // Touching edges do not count: a popover may sit right against a line.
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

function inside(area: Box, box: Box): boolean {
  return (
    box.x >= area.x - 0.5 &&
    box.y >= area.y - 0.5 &&
    box.x + box.width <= area.x + area.width + 0.5 &&
    box.y + box.height <= area.y + area.height + 0.5
  );
}

/** True when `box` covers none of `boxes` (each with `gap` of space around it). */
export function coversNone(box: Box, boxes: readonly Box[], gap = 0): boolean {
  return !boxes.some((other) =>
    overlaps(box, {
      x: other.x - gap,
      y: other.y - gap,
      width: other.width + 2 * gap,
      height: other.height + 2 * gap,
    }),
  );
}

/**
 * A top-left corner for a popover of `size` inside `area` covering none of `avoid` (with `gap`
 * around each), or null (see the module doc). `preferredX`: the popover's left edge as placed.
 */
export function clearSpot(
  area: Box,
  size: { width: number; height: number },
  avoid: readonly Box[],
  preferredX: number,
  gap: number,
): { x: number; y: number } | null {
  if (size.width > area.width || size.height > area.height) return null;
  const near = {
    x: area.x - gap,
    y: area.y - gap,
    width: area.width + 2 * gap,
    height: area.height + 2 * gap,
  };
  const visible = avoid.filter((box) => overlaps(box, near));
  const fits = (x: number, y: number) => {
    const box = { x, y, width: size.width, height: size.height };
    return inside(area, box) && coversNone(box, visible, gap);
  };
  const clampX = (x: number) => Math.min(Math.max(x, area.x), area.x + area.width - size.width);
  const clampY = (y: number) => Math.min(Math.max(y, area.y), area.y + area.height - size.height);

  const byBottom = [...visible].sort((a, b) => b.y + b.height - (a.y + a.height));
  for (const line of byBottom) {
    const x = line.x + line.width + gap;
    const ys = [
      line.y,
      line.y + line.height / 2 - size.height / 2,
      line.y + line.height - size.height,
    ];
    for (const y of ys) if (fits(x, clampY(y))) return { x, y: clampY(y) };
  }
  const xs = [area.x + area.width - size.width, clampX(preferredX), area.x];
  for (let y = area.y + area.height - size.height; y >= area.y; y -= SCAN_STEP) {
    for (const x of xs) if (fits(x, y)) return { x, y };
  }
  return null;
}
