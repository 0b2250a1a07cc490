/**
 * The timeline's edge callbacks: the edges of the range in view load as the reader scrolls;
 * while a citation is being positioned they stay quiet, so the placed row does not move.
 */
import { useCallback, useRef } from "react";
import type { HistoryRange } from "./threadWindows.ts";
import type { UseThreadResult } from "./useThread.ts";

/** `onLoadOlder` and `onLoadNewer` for the range in view; stable across renders. */
export function useEdgeLoading(
  range: HistoryRange | undefined,
  positioning: boolean,
  loadEdge: UseThreadResult["loadEdge"],
): { onLoadOlder: () => void; onLoadNewer: () => void } {
  const positioningRef = useRef(positioning);
  positioningRef.current = positioning;
  const rangeRef = useRef(range);
  rangeRef.current = range;
  const onLoadOlder = useCallback(() => {
    const current = rangeRef.current;
    if (!positioningRef.current && current) void loadEdge(current, "older");
  }, [loadEdge]);
  const onLoadNewer = useCallback(() => {
    const current = rangeRef.current;
    if (!positioningRef.current && current) void loadEdge(current, "newer");
  }, [loadEdge]);
  return { onLoadOlder, onLoadNewer };
}
