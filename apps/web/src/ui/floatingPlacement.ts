/**
 * Keeps a `position: fixed` popover beside a reference (an element, a selected text range, a
 * point) with Floating UI: on the preferred side, flipped to the other side when it does not
 * fit, shifted along both axes so it never leaves its area, and re-placed whenever anything
 * scrolls or resizes. The area is the viewport, narrowed by an optional boundary (the timeline
 * above the composer, so a popover never covers the composer). A popover may also name boxes it
 * must not cover (a selection's words): when the side picked would cover one, it moves to a
 * clear spot of its area (`clearSpot.ts`), if there is one. Needs a live DOM.
 */
import {
  autoUpdate,
  computePosition,
  flip,
  offset,
  type Placement,
  type Rect,
  shift,
  type VirtualElement,
} from "@floating-ui/dom";
import { clearSpot, coversNone } from "./clearSpot.ts";

/** Space kept between a popover and the edges of its area, in CSS pixels. */
export const FLOATING_MARGIN = 8;

/** A popover's reference: an element or anything with a bounding rect (a range, a point). */
export type FloatingReference = Element | VirtualElement;

/** Options of {@link keepFloatingPlaced}. */
export type FloatingPlacementOptions = {
  /** The preferred side (and alignment), e.g. `"bottom"` or `"top-start"`. */
  placement: Placement;
  /** Distance from the reference, in CSS pixels. */
  gap: number;
  /**
   * The area the popover must stay inside (besides the viewport), read at every placement; null
   * means the viewport alone.
   */
  area?(): Rect | null;
  /**
   * When the reference cannot be measured right now (its text was re-rendered away); the
   * popover is hidden meanwhile.
   */
  isReferenceGone?(): boolean;
  /**
   * What must overlap the area for the popover to show (default: the reference). A selection's
   * popover passes the selected text, so a pointer released off the area does not hide it.
   */
  presence?(): Rect;
  /**
   * Boxes the popover must not cover (a selection's lines of text), read when the side picked
   * would cover one; the popover then moves to a clear spot of its area, if any.
   */
  avoid?(): readonly Rect[];
  /** Called after each placement (tests and callers that record the side). */
  onPlaced?(placed: { x: number; y: number; placement: Placement; hidden: boolean }): void;
};

function intersects(a: Rect, b: Rect): boolean {
  return (
    a.x <= b.x + b.width && b.x <= a.x + a.width && a.y <= b.y + b.height && b.y <= a.y + a.height
  );
}

/**
 * Places `floating` now and after every scroll or resize until the returned function is
 * called. The popover is hidden (`visibility: hidden`) while its reference is gone or its
 * presence box (default the reference) lies entirely outside the area (scrolled off screen),
 * and shown again when it comes back.
 */
export function keepFloatingPlaced(
  reference: FloatingReference,
  floating: HTMLElement,
  options: FloatingPlacementOptions,
): () => void {
  let disposed = false;
  const update = () => {
    const area = options.area?.() ?? null;
    const gone = options.isReferenceGone?.() === true;
    const box = options.presence?.() ?? reference.getBoundingClientRect();
    // Without layout (a zero-sized area) there is nothing to be outside of.
    const measurable = area === null || area.width > 0 || area.height > 0;
    const outside =
      measurable &&
      area !== null &&
      !intersects(area, { x: box.x, y: box.y, width: box.width, height: box.height });
    const boundary = area ?? "clippingAncestors";
    void computePosition(reference, floating, {
      strategy: "fixed",
      placement: options.placement,
      middleware: [
        offset(options.gap),
        flip({ boundary, padding: FLOATING_MARGIN }),
        shift({ boundary, padding: FLOATING_MARGIN, crossAxis: true }),
      ],
    }).then((placed) => {
      if (disposed) return;
      const hidden = gone || outside;
      const { x, y } = hidden ? placed : clearOf(placed, floating, area, options);
      const { placement } = placed;
      floating.style.left = `${Math.round(x)}px`;
      floating.style.top = `${Math.round(y)}px`;
      floating.style.visibility = hidden ? "hidden" : "";
      floating.dataset.placement = placement;
      options.onPlaced?.({ x, y, placement, hidden });
    });
  };
  const stop = autoUpdate(reference, floating, update, { animationFrame: false });
  return () => {
    disposed = true;
    stop();
  };
}

/** Space kept between a popover moved to a clear spot and the boxes it avoids (CSS pixels). */
const AVOID_GAP = 4;

/** `placed`, or a clear spot of the area when `placed` covers a box the popover must avoid. */
function clearOf(
  placed: { x: number; y: number },
  floating: HTMLElement,
  area: Rect | null,
  options: FloatingPlacementOptions,
): { x: number; y: number } {
  if (options.avoid === undefined) return placed;
  const size = { width: floating.offsetWidth, height: floating.offsetHeight };
  const avoid = options.avoid();
  if (coversNone({ ...placed, ...size }, avoid)) return placed;
  const view = floating.ownerDocument.defaultView;
  const bounds = area ?? {
    x: 0,
    y: 0,
    width: view?.innerWidth ?? 0,
    height: view?.innerHeight ?? 0,
  };
  const inner = {
    x: bounds.x + FLOATING_MARGIN,
    y: bounds.y + FLOATING_MARGIN,
    width: bounds.width - 2 * FLOATING_MARGIN,
    height: bounds.height - 2 * FLOATING_MARGIN,
  };
  return clearSpot(inner, size, avoid, placed.x, AVOID_GAP) ?? placed;
}

/** The on-screen rect of `element`, or null when it is not in the document. */
export function rectOf(element: Element | null): Rect | null {
  if (element === null || !element.isConnected) return null;
  const box = element.getBoundingClientRect();
  return { x: box.x, y: box.y, width: box.width, height: box.height };
}

/** `area` narrowed to the horizontal extent of `column` (either may be missing). */
export function withinColumn(area: Rect | null, column: Element | null): Rect | null {
  const box = rectOf(column);
  if (box === null || box.width <= 0) return area;
  if (area === null) return { x: box.x, y: 0, width: box.width, height: window.innerHeight };
  const left = Math.max(area.x, box.x);
  const right = Math.min(area.x + area.width, box.x + box.width);
  if (right <= left) return area;
  return { x: left, y: area.y, width: right - left, height: area.height };
}

/** The viewport down to the top of `element` (the composer): popovers stay above it. */
export function areaAbove(element: Element | null): Rect | null {
  if (element === null || !element.isConnected) return null;
  const top = element.getBoundingClientRect().top;
  const view = element.ownerDocument.defaultView;
  const width = view?.innerWidth ?? 0;
  if (top <= 0) return null;
  return { x: 0, y: 0, width, height: top };
}
