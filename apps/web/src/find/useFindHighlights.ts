/**
 * Keeps the find highlights painted while the bar is open: they follow the rows the timeline
 * mounts, reuses and re-renders (`findPainter.ts`).
 */
import { type RefObject, useEffect, useMemo } from "react";
import type { TimelineHandle } from "../timeline/Timeline.tsx";
import { type FindPainterOptions, startFindPainter } from "./findPainter.ts";
import type { FindMatch } from "./findState.ts";

/** What {@link useFindHighlights} paints, and where. */
export type UseFindHighlightsOptions = {
  open: boolean;
  matches: readonly FindMatch[];
  current: FindMatch | null;
  find: FindPainterOptions["find"];
  descriptionId: string;
  /** The bar: its thread view's body is the painter's root. */
  barRef: RefObject<HTMLElement | null>;
  timelineRef: RefObject<TimelineHandle | null>;
};

/** Paints every match on the mounted rows (the current one apart) while `open`. */
export function useFindHighlights({
  open,
  matches,
  current,
  find,
  descriptionId,
  barRef,
  timelineRef,
}: UseFindHighlightsOptions): void {
  const byMessage = useMemo(() => {
    const map = new Map<string, FindMatch[]>();
    for (const each of matches) {
      const list = map.get(each.messageId);
      if (list) list.push(each);
      else map.set(each.messageId, [each]);
    }
    return map;
  }, [matches]);
  useEffect(() => {
    if (!open) return;
    const view = barRef.current?.closest(".thread-view");
    const root = view?.querySelector(".thread-view__body") ?? view ?? document.body;
    return startFindPainter({
      root,
      getScroller: () => timelineRef.current?.getScrollElement() ?? null,
      current,
      byMessage,
      find,
      descriptionId,
    });
  }, [open, current, byMessage, find, descriptionId, barRef, timelineRef]);
}
