/**
 * The steps of one citation navigation, as a pure state machine (no React, no DOM, no I/O):
 *
 *   activate ─┬─ source loaded ──────────────────────────► positioning ─► revealing ─► settled
 *             └─ not loaded ─► fetching (one around= request) ┤
 *                                  ├─ loaded ──► positioning
 *                                  ├─ missing ─► settled ("no longer in this thread")
 *                                  └─ failed ──► failed ── retry ──► fetching
 *
 * "No longer in this thread" is only ever the server's answer to the `around=` request; a
 * failed request says the history could not be loaded and offers Retry. The reader scrolling
 * or pressing Escape cancels a navigation that has not revealed its text yet. Every event names
 * its activation, so a late answer for an earlier click changes nothing.
 */

/** Warnings of source navigation (shown in `role="status"`; the saved quote never changes). */
export const NAVIGATION_WARNINGS = {
  missing: "The cited message is no longer in this thread.",
  changed: "The cited text has changed.",
  ambiguous: "The cited text appears more than once.",
  historyFailed: "The messages around the cited text could not be loaded.",
  notShown: "The cited message could not be shown.",
} as const;

/** Where one navigation stands. */
export type NavigationState =
  | { phase: "idle" }
  | { phase: "fetching"; activationId: string; messageId: string }
  | { phase: "failed"; activationId: string; messageId: string; warning: string }
  | { phase: "positioning"; activationId: string; messageId: string; fetched: boolean }
  | { phase: "revealing"; activationId: string; messageId: string }
  | { phase: "settled"; activationId: string; messageId: string; warning: string | null }
  | { phase: "cancelled"; activationId: string; messageId: string };

/** What can happen to a navigation. */
export type NavigationEvent =
  /** A chip was followed (or a link opened); `loaded`: the source message is in the store. */
  | { type: "activate"; activationId: string; messageId: string; loaded: boolean }
  /** The `around=` request answered. */
  | { type: "fetched"; activationId: string; outcome: "loaded" | "missing" | "failed" }
  /** The reader pressed Retry after a failed request. */
  | { type: "retry"; activationId: string }
  /** The source row is mounted where it should be. */
  | { type: "positioned"; activationId: string }
  /** The highlighter resolved the text (warning null) or could not (a warning). */
  | { type: "revealed"; activationId: string; warning: string | null }
  /** The reader took over (scroll, navigation key, Escape) before the text was revealed. */
  | { type: "cancel"; activationId: string }
  /** The warning was dismissed, or the activation left the location (Back). */
  | { type: "reset" };

/** The state before any navigation. */
export const IDLE_NAVIGATION: NavigationState = { phase: "idle" };

/** Pure transition function; returns the same object when the event does not apply. */
export function navigationReducer(state: NavigationState, event: NavigationEvent): NavigationState {
  if (event.type === "activate") {
    const { activationId, messageId } = event;
    if (state.phase !== "idle" && state.activationId === activationId) return state;
    return event.loaded
      ? { phase: "positioning", activationId, messageId, fetched: false }
      : { phase: "fetching", activationId, messageId };
  }
  if (event.type === "reset") return state.phase === "idle" ? state : IDLE_NAVIGATION;
  if (state.phase === "idle" || state.activationId !== event.activationId) return state;
  const { activationId, messageId } = state;
  switch (event.type) {
    case "fetched":
      if (state.phase !== "fetching") return state;
      if (event.outcome === "loaded") {
        return { phase: "positioning", activationId, messageId, fetched: true };
      }
      if (event.outcome === "missing") {
        return { phase: "settled", activationId, messageId, warning: NAVIGATION_WARNINGS.missing };
      }
      return {
        phase: "failed",
        activationId,
        messageId,
        warning: NAVIGATION_WARNINGS.historyFailed,
      };
    case "retry":
      return state.phase === "failed" ? { phase: "fetching", activationId, messageId } : state;
    case "positioned":
      return state.phase === "positioning"
        ? { phase: "revealing", activationId, messageId }
        : state;
    case "revealed":
      return state.phase === "revealing" || state.phase === "positioning"
        ? { phase: "settled", activationId, messageId, warning: event.warning }
        : state;
    case "cancel":
      return state.phase === "fetching" ||
        state.phase === "positioning" ||
        state.phase === "revealing"
        ? { phase: "cancelled", activationId, messageId }
        : state;
  }
}

/** The warning to show for a state, or null. */
export function navigationWarning(state: NavigationState): string | null {
  if (state.phase === "failed") return state.warning;
  if (state.phase === "settled") return state.warning;
  return null;
}

/** True while the navigation still moves the timeline (its own end-scrolling stays off). */
export function isNavigating(state: NavigationState): boolean {
  return state.phase === "fetching" || state.phase === "positioning" || state.phase === "revealing";
}

/** True once the source highlighter should run (the row is being or has been revealed). */
export function isRevealing(state: NavigationState): boolean {
  return state.phase === "revealing" || (state.phase === "settled" && state.warning === null);
}
