/**
 * One mouse (or pen) press-to-release gesture, as the selection-actions observer reads it
 * (`selectionActions.ts`): where it started (inside the surface, on a control or on text), whether
 * the release makes it a drag, and the part of a drag released outside the surface to keep.
 */
import { selectionRange } from "./selectionRange.ts";

/** A pointer release farther than this from its press (CSS px) is a drag, not a click. */
const DRAG_DISTANCE = 4;

/** Elements a press on which is "using a control", never the start of a text selection. */
const CONTROL_SELECTOR =
  "button, a[href], input, textarea, select, summary, label, [role='button'], [role='link'], [contenteditable]:not([contenteditable='false'])";

/** A press that may end in a selection. */
export type MouseGesture = {
  inside: boolean;
  onControl: boolean;
  x: number;
  y: number;
  /** The press's click count (3 = triple click: nothing longer is coming). */
  detail: number;
  /** The button that started it: only its release ends the gesture. */
  button: number;
};

/** The selection as one range (see selectionRange), or null when nothing is selected. */
export function selectedRange(selection: Selection | null): Range | null {
  if (!selection || selection.isCollapsed) return null;
  const range = selectionRange(selection);
  return range === null || range.collapsed ? null : range;
}

/** The gesture a press starts on `surface`. */
export function startMouseGesture(event: MouseEvent, surface: Element): MouseGesture {
  const primary = event.button === 0 && (event as Partial<PointerEvent>).isPrimary !== false;
  const target = event.target instanceof Node ? event.target : null;
  const element = target instanceof Element ? target : (target?.parentElement ?? null);
  return {
    inside: primary && target !== null && surface.contains(target),
    onControl: element?.closest(CONTROL_SELECTOR) != null,
    x: event.clientX,
    y: event.clientY,
    detail: event.detail,
    button: event.button,
  };
}

/** Whether a release at `at` ends `gesture` as a drag. */
export function isDrag(gesture: MouseGesture, at: { x: number; y: number }): boolean {
  return Math.hypot(at.x - gesture.x, at.y - gesture.y) > DRAG_DISTANCE;
}

/**
 * A drag released outside `surface`: selects the part `clampDrag` keeps (when it lies inside the
 * surface) and returns it, or returns `released` unchanged.
 */
export function clampReleasedDrag(
  released: Range,
  surface: Element,
  selection: Selection | null,
  clampDrag: ((range: Range) => Range | null) | undefined,
): Range {
  if (surface.contains(released.commonAncestorContainer)) return released;
  const kept = clampDrag?.(released) ?? null;
  if (kept === null || selection === null || !surface.contains(kept.commonAncestorContainer)) {
    return released;
  }
  // Selecting the kept part fires selectionchange: the caller matches it to the released range.
  const copy = kept.cloneRange();
  selection.removeAllRanges();
  selection.addRange(kept);
  return copy;
}
