/**
 * Where the citation comment editor sits: beside the cited source text while its transient DOM
 * range is live (painting the "editing" highlight on it), repaired when its row re-renders, and
 * beside the chip otherwise. Floating UI does the placement; this module decides the anchor and
 * when to place again. The range is never stored in the citation.
 */
import { computePosition, flip, offset, type Rect, shift } from "@floating-ui/dom";
import { type RefObject, useLayoutEffect, useRef, useState } from "react";
import { areaAbove, FLOATING_MARGIN } from "../ui/floatingPlacement.ts";
import { isLiveSourceRange, sourceMessageOf } from "../ui/liveSourceRange.ts";
import { measureSourceRange, paintCitationEditingHighlight } from "./citationEditingHighlight.ts";

/** The cited text in the response: a live DOM range, and optionally a way to find it again. */
export type CitationSourceLink = {
  range: Range;
  /**
   * Called when the range went stale (its row re-rendered): returns a fresh range for the same
   * text, or null. Errors count as null.
   */
  repair?(): Range | null;
};

/** An anchor rectangle in viewport coordinates. */
type AnchorRect = { left: number; top: number; right: number; bottom: number };

/** Space between the anchor and the popover, in CSS pixels. */
const COMMENT_EDITOR_GAP = 6;

/** The composer's box: the editor stays above it. */
const COMPOSER_SELECTOR = ".composer";

/** With nothing to anchor on: a point centred near the bottom of the area. */
function fallbackRect(area: Rect | null): DOMRect {
  const width = area?.width ?? window.innerWidth;
  const bottom = area !== null ? area.y + area.height : window.innerHeight;
  return DOMRect.fromRect({ x: width / 2, y: bottom - FLOATING_MARGIN, width: 0, height: 0 });
}

/** Where the popover is, what it is beside, and the live source range to highlight (if any). */
export type CommentEditorPlacement = {
  x: number;
  y: number;
  anchor: "source" | "chip" | "none";
  range: Range | null;
};

function sameLayout(a: CommentEditorPlacement | null, b: CommentEditorPlacement): boolean {
  return a !== null && a.x === b.x && a.y === b.y && a.anchor === b.anchor && a.range === b.range;
}

/** A fresh live range from `repair`, or null (a throwing repair counts as none). */
function repaired(source: CitationSourceLink | null, messageId: string | null): Range | null {
  try {
    const range = source?.repair?.() ?? null;
    return range !== null && isLiveSourceRange(range, messageId) ? range.cloneRange() : null;
  } catch {
    return null;
  }
}

/** Where to anchor: the live source text when it can be measured, else the chip. */
function anchorFor(
  sourceRange: Range | null,
  messageId: string | null,
  chip: HTMLElement | null,
): { rect: AnchorRect | null; anchor: CommentEditorPlacement["anchor"]; sourceLive: boolean } {
  const sourceLive = sourceRange !== null && isLiveSourceRange(sourceRange, messageId);
  const sourceRect = sourceLive ? measureSourceRange(sourceRange) : null;
  if (sourceRect !== null) return { rect: sourceRect, anchor: "source", sourceLive };
  if (chip?.isConnected) return { rect: chip.getBoundingClientRect(), anchor: "chip", sourceLive };
  return { rect: null, anchor: "none", sourceLive };
}

/**
 * The editor's placement (null until first placed: keep it hidden until then). `source` is read
 * once, on mount; `getChipElement` and a later `source.repair` are read when placing.
 */
export function useCitationCommentPlacement(
  rootRef: RefObject<HTMLElement | null>,
  source: CitationSourceLink | null,
  getChipElement: () => HTMLElement | null,
): CommentEditorPlacement | null {
  const latest = useRef({ source, getChipElement });
  latest.current = { source, getChipElement };
  // The current source range: the request's, or a repaired one once that went stale.
  const rangeRef = useRef<Range | null>(source?.range ?? null);
  // Whose text the range covers, so a row reused for another message does not count as live.
  const sourceIdRef = useRef<string | null>(source?.range ? sourceMessageOf(source.range) : null);
  const [layout, setLayout] = useState<CommentEditorPlacement | null>(null);

  // Position before paint, and again when anything scrolls, the window resizes or the page
  // changes while there is source text (its row may scroll away or re-render: the range is
  // repaired if possible, else the editor moves beside the chip). Floating UI places it below
  // its anchor, flips it above when there is no room, and shifts it to stay inside the viewport
  // and above the composer, which it must never cover.
  useLayoutEffect(() => {
    let frame = 0;
    let disposed = false;
    const place = () => {
      frame = 0;
      const element = rootRef.current;
      if (element === null) return;
      let range = rangeRef.current;
      if (range !== null && !isLiveSourceRange(range, sourceIdRef.current)) {
        range = repaired(latest.current.source, sourceIdRef.current) ?? range;
        rangeRef.current = range;
      }
      const chip = latest.current.getChipElement();
      const { rect, anchor, sourceLive } = anchorFor(range, sourceIdRef.current, chip);
      const area = areaAbove(
        chip?.closest(COMPOSER_SELECTOR) ?? document.querySelector(COMPOSER_SELECTOR),
      );
      const reference = {
        getBoundingClientRect: () =>
          rect === null
            ? fallbackRect(area)
            : DOMRect.fromRect({
                x: rect.left,
                y: rect.top,
                width: rect.right - rect.left,
                height: rect.bottom - rect.top,
              }),
      };
      // A first guess right away (below the anchor), so the editor is shown and focusable in
      // this same update; Floating UI's exact placement follows before the next paint.
      const guess = reference.getBoundingClientRect();
      const first: CommentEditorPlacement = {
        x: Math.round(guess.left),
        y: Math.round(guess.bottom + COMMENT_EDITOR_GAP),
        anchor,
        range: sourceLive ? range : null,
      };
      setLayout((current) => (current === null ? first : current));
      void computePosition(reference, element, {
        strategy: "fixed",
        placement: anchor === "chip" ? "top-start" : "bottom-start",
        middleware: [
          offset(COMMENT_EDITOR_GAP),
          flip({ boundary: area ?? "clippingAncestors", padding: FLOATING_MARGIN }),
          shift({
            boundary: area ?? "clippingAncestors",
            padding: FLOATING_MARGIN,
            crossAxis: true,
          }),
        ],
      }).then(({ x, y }) => {
        if (disposed) return;
        const next: CommentEditorPlacement = {
          x: Math.round(x),
          y: Math.round(y),
          anchor,
          range: sourceLive ? range : null,
        };
        setLayout((current) => (sameLayout(current, next) ? current : next));
      });
    };
    const schedule = () => {
      if (frame === 0) frame = requestAnimationFrame(place);
    };
    place();
    window.addEventListener("resize", schedule);
    window.addEventListener("scroll", schedule, { capture: true, passive: true });
    // Only while there is source text to follow; at most one re-placement per frame.
    const observer = rangeRef.current !== null ? new MutationObserver(schedule) : null;
    observer?.observe(document.body, { childList: true, subtree: true, characterData: true });
    return () => {
      disposed = true;
      observer?.disconnect();
      if (frame !== 0) cancelAnimationFrame(frame);
      window.removeEventListener("resize", schedule);
      window.removeEventListener("scroll", schedule, { capture: true });
    };
    // Once per mount: the ref object never changes, and the latest props are read through `latest`.
  }, [rootRef]);

  // The editing highlight lives exactly as long as the editor is open on live source text. A
  // layout effect: it changes in the same commit as the placement, so no frame shows the editor
  // beside the chip with a stale highlight still painted (a passive effect ran a tick later).
  const highlighted = layout?.range ?? null;
  useLayoutEffect(() => {
    if (highlighted === null) return;
    return paintCitationEditingHighlight(highlighted);
  }, [highlighted]);

  return layout;
}
