/**
 * Keeps the draft's length status (draftLength.ts) up to date without slowing typing: an edit
 * only schedules a measurement, which runs in idle time after the edit has painted, at most
 * every {@link MEASURE_INTERVAL_MS}. Measuring a 120,000-character draft with 50 quotes (reading
 * the prompt, expanding its citations) takes a few milliseconds; a keystroke never waits for it.
 * The status is a small store, so the count re-renders alone and the composer only when Send's
 * disabled state flips.
 */
import { useEffect, useMemo, useSyncExternalStore } from "react";
import { requestIdle } from "../ui/idle.ts";
import { createSignal } from "../ui/signal.ts";
import { type DraftLengthStatus, draftLengthStatus, QUIET } from "./draftLength.ts";

/** Name of the `performance.measure` entry each measurement records. */
export const DRAFT_LENGTH_MEASURE = "composer:draft-length";

/** Least time between two measurements while the user types. */
export const MEASURE_INTERVAL_MS = 100;

/** The draft length store of one composer. */
export type DraftLengthTracker = {
  /** Call after every edit; the status follows shortly after. */
  schedule(): void;
  get(): DraftLengthStatus;
  subscribe(listener: () => void): () => void;
  dispose(): void;
};

/** Creates a tracker that measures `readPrompt()` when scheduled. */
export function createDraftLengthTracker(readPrompt: () => string): DraftLengthTracker {
  let status: DraftLengthStatus = QUIET;
  let lastRun = Number.NEGATIVE_INFINITY;
  let cancel: (() => void) | null = null;
  let disposed = false;
  const changed = createSignal();

  const measure = () => {
    cancel = null;
    if (disposed) return;
    lastRun = performance.now();
    const next = draftLengthStatus(readPrompt());
    // A user-timing entry, so the perf script can report what a measurement costs.
    performance.measure?.(DRAFT_LENGTH_MEASURE, { start: lastRun });
    const same =
      next.kind === status.kind &&
      (next.kind === "quiet" || (status.kind !== "quiet" && next.length === status.length));
    if (same) return;
    status = next;
    changed.notify();
  };

  return {
    schedule() {
      if (cancel !== null || disposed) return;
      // Wait for the idle time after the edit's frame, and space measurements out.
      const wait = Math.max(0, lastRun + MEASURE_INTERVAL_MS - performance.now());
      const timer = setTimeout(() => {
        cancel = requestIdle(measure, MEASURE_INTERVAL_MS);
      }, wait);
      cancel = () => clearTimeout(timer);
    },
    get: () => status,
    subscribe: changed.subscribe,
    dispose() {
      disposed = true;
      cancel?.();
      changed.clear();
    },
  };
}

/** One tracker for the composer's lifetime, and whether the draft is over the limit. */
export function useDraftLength(readPrompt: () => string): {
  tracker: DraftLengthTracker;
  overLimit: boolean;
} {
  const tracker = useMemo(() => createDraftLengthTracker(readPrompt), [readPrompt]);
  useEffect(() => () => tracker.dispose(), [tracker]);
  const overLimit = useSyncExternalStore(
    tracker.subscribe,
    () => tracker.get().kind === "over",
    () => false,
  );
  return { tracker, overLimit };
}

/** The current status, re-rendering on change (for the count itself). */
export function useDraftLengthStatus(tracker: DraftLengthTracker): DraftLengthStatus {
  return useSyncExternalStore(tracker.subscribe, tracker.get, tracker.get);
}
