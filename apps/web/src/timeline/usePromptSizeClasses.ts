/**
 * Exact size classes for prompt rows (Legend List `getItemType`): the prompt layout is read once
 * a prompt is mounted, and again whenever the timeline resizes.
 */
import { type RefObject, useCallback, useEffect, useLayoutEffect, useRef } from "react";
import type { PromptMetrics } from "./plainTextLines.ts";
import { readPromptMetrics } from "./promptMetrics.ts";
import { rowSizeClass, type TimelineRow } from "./timelineRows.ts";

/** The `getItemType` of the timeline's list. */
export function usePromptSizeClasses(
  rootRef: RefObject<HTMLElement | null>,
): (row: TimelineRow) => string {
  const promptMetrics = useRef<PromptMetrics | null>(null);
  const getItemType = useCallback(
    (row: TimelineRow) => rowSizeClass(row, promptMetrics.current),
    [],
  );
  useLayoutEffect(() => {
    const root = rootRef.current;
    if (root !== null && promptMetrics.current === null) {
      promptMetrics.current = readPromptMetrics(root);
    }
  });
  useEffect(() => {
    const root = rootRef.current;
    if (root === null || typeof ResizeObserver === "undefined") return;
    const observer = new ResizeObserver(() => {
      promptMetrics.current = readPromptMetrics(root) ?? promptMetrics.current;
    });
    observer.observe(root);
    return () => observer.disconnect();
  }, [rootRef]);
  return getItemType;
}
