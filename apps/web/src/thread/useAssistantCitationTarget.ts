/**
 * Brings a citation's source message into the timeline (spec "Source navigation"), driving
 * {@link navigationReducer}: a source that is not loaded costs one `around=` request (no paging
 * through history); then the source row is placed. A source row already on screen, or within
 * about one viewport of it, is scrolled to at once by the highlighter; any other is shown at
 * once by starting a new timeline session at the source (the timeline remounts there, unfolding
 * a folded turn first), so the reader never watches history scroll past. User navigation
 * (wheel, touch, navigation keys) or Escape cancels a navigation that has not revealed yet.
 */
import { type RefObject, useCallback, useEffect, useReducer, useRef } from "react";
import type { AssistantCitationActivation } from "../citations/navigation/assistantCitationNavigation.ts";
import { JUMP_VIEW_POSITION } from "../citations/navigation/jumpPlacement.ts";
import {
  IDLE_NAVIGATION,
  isNavigating,
  isRevealing,
  type NavigationState,
  navigationReducer,
  navigationWarning,
} from "../citations/navigation/navigationMachine.ts";
import { unfoldMessage } from "../timeline/messageFold.ts";
import type { TimelineHandle } from "../timeline/Timeline.tsx";

/** The thread as the hook needs it. */
export type CitationTargetThread = {
  /** True once the thread's first page is shown (the timeline is mounted). */
  ready: boolean;
  /** True when the message is in a loaded range. */
  isLoaded(messageId: string): boolean;
  /** One `around=` request for the message. */
  loadAround(messageId: string): Promise<{ status: "loaded" | "missing" | "failed" }>;
  /** Starts a timeline session at the message (instant, remounts the list). */
  showMessage(placement: { messageId: string; viewPosition: number }): void;
};

/** Options of {@link useAssistantCitationTarget}. */
export type UseAssistantCitationTargetOptions = {
  activation: AssistantCitationActivation | null;
  thread: CitationTargetThread;
  timelineRef: RefObject<TimelineHandle | null>;
};

/** What the thread view passes on to the timeline, the highlighter and the status line. */
export type AssistantCitationTarget = {
  state: NavigationState;
  /** True while a target is being located or positioned (Timeline `positioning`). */
  positioning: boolean;
  /** True once the highlighter should run. */
  revealing: boolean;
  /** The cited row, kept mounted (Timeline `pinnedMessageIds`). */
  pinnedMessageIds: readonly string[] | undefined;
  /** The activation id (Timeline `dataVersion`). */
  dataVersion: string | undefined;
  /** A warning for `role="status"`, or null. */
  warning: string | null;
  /** True when the warning comes with Retry (the history could not be loaded). */
  canRetry: boolean;
  retry(): void;
  /** Reported by the source highlighter once the text is revealed (or found wanting). */
  onSettled(warning: string | null): void;
  dismissWarning(): void;
};

const NAVIGATION_KEYS = new Set([
  "ArrowUp",
  "ArrowDown",
  "PageUp",
  "PageDown",
  "Home",
  "End",
  " ",
  "Escape",
]);

/** The source row, when it is mounted in the timeline. */
function mountedRow(scroller: HTMLElement | null, messageId: string): HTMLElement | null {
  return (
    scroller?.querySelector<HTMLElement>(`[data-message-id="${CSS.escape(messageId)}"]`) ?? null
  );
}

/** True when the row is within about one viewport of the visible part of the scroller. */
function isNearView(row: HTMLElement, scroller: HTMLElement): boolean {
  if (typeof row.getBoundingClientRect !== "function") return true;
  const rect = row.getBoundingClientRect();
  const box = scroller.getBoundingClientRect();
  if (box.height === 0) return true;
  return rect.bottom > box.top - box.height && rect.top < box.bottom + box.height;
}

const EMPTY_PINS: readonly string[] = [];

/** Drives one citation activation from "find the source" to "row placed, go reveal it". */
export function useAssistantCitationTarget({
  activation,
  thread,
  timelineRef,
}: UseAssistantCitationTargetOptions): AssistantCitationTarget {
  const [state, dispatch] = useReducer(navigationReducer, IDLE_NAVIGATION);
  const activationId = activation?.activationId ?? null;
  // A backlink's jump targets the citing message (its chip), not the cited one.
  const messageId = activation?.chipMessageId ?? activation?.citation.messageId ?? null;
  const latest = useRef(thread);
  latest.current = thread;

  // A new activation starts over (also reviving a link clicked again after dismissal); an
  // activation that left the location (Back) ends the navigation.
  const { ready } = thread;
  useEffect(() => {
    if (activationId === null || messageId === null) {
      dispatch({ type: "reset" });
      return;
    }
    if (!ready) return;
    dispatch({
      type: "activate",
      activationId,
      messageId,
      loaded: latest.current.isLoaded(messageId),
    });
  }, [activationId, messageId, ready]);

  // Fetch: one window around the source.
  const fetching = state.phase === "fetching" ? state : null;
  useEffect(() => {
    if (fetching === null) return;
    let cancelled = false;
    void latest.current.loadAround(fetching.messageId).then((result) => {
      if (!cancelled) {
        dispatch({ type: "fetched", activationId: fetching.activationId, outcome: result.status });
      }
    });
    return () => {
      cancelled = true;
    };
  }, [fetching]);

  // Position: near rows are left to the highlighter (an instant scroll); far ones get a new
  // timeline session placed at the source (instant, with its folded turn unfolded).
  const positioning = state.phase === "positioning" ? state : null;
  useEffect(() => {
    if (positioning === null) return;
    const scroller = timelineRef.current?.getScrollElement() ?? null;
    const row = mountedRow(scroller, positioning.messageId);
    const near =
      !positioning.fetched && row !== null && scroller !== null && isNearView(row, scroller);
    // Step "unfold source if folded": a source hidden in a folded turn has no row, so it is
    // never "near"; the new session's `placement` unfolds its turn before the list first renders
    // (`turnsToUnfoldFor` in Timeline.tsx). Other folds (a long message's "Show more") unfold here.
    unfoldMessage(positioning.messageId);
    if (!near) {
      latest.current.showMessage({
        messageId: positioning.messageId,
        viewPosition: JUMP_VIEW_POSITION,
      });
    }
    dispatch({ type: "positioned", activationId: positioning.activationId });
  }, [positioning, timelineRef]);

  // The reader takes over: stop positioning.
  const pending = isNavigating(state);
  const pendingId = pending && state.phase !== "idle" ? state.activationId : null;
  useEffect(() => {
    if (pendingId === null) return;
    const cancel = () => dispatch({ type: "cancel", activationId: pendingId });
    const onKey = (event: KeyboardEvent) => {
      if (!NAVIGATION_KEYS.has(event.key)) return;
      const target = event.target;
      // Keys typed into the composer or another field are not timeline navigation.
      if (event.key !== "Escape" && target instanceof HTMLElement && target.isContentEditable) {
        return;
      }
      if (
        event.key !== "Escape" &&
        (target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement)
      ) {
        return;
      }
      cancel();
    };
    window.addEventListener("wheel", cancel, { passive: true });
    window.addEventListener("touchmove", cancel, { passive: true });
    window.addEventListener("keydown", onKey);
    return () => {
      window.removeEventListener("wheel", cancel);
      window.removeEventListener("touchmove", cancel);
      window.removeEventListener("keydown", onKey);
    };
  }, [pendingId]);

  const currentId = state.phase === "idle" ? null : state.activationId;
  const onSettled = useCallback(
    (warning: string | null) => {
      if (currentId !== null) dispatch({ type: "revealed", activationId: currentId, warning });
    },
    [currentId],
  );
  const retry = useCallback(() => {
    if (currentId !== null) dispatch({ type: "retry", activationId: currentId });
  }, [currentId]);
  const dismissWarning = useCallback(() => dispatch({ type: "reset" }), []);

  const pinned = useRef<{ id: string | null; value: readonly string[] }>({
    id: null,
    value: EMPTY_PINS,
  });
  const targetId = state.phase === "idle" ? null : state.messageId;
  if (pinned.current.id !== targetId) {
    pinned.current = { id: targetId, value: targetId === null ? EMPTY_PINS : [targetId] };
  }
  const showing = state.phase === "revealing" || state.phase === "settled";

  return {
    state,
    positioning: pending,
    revealing: isRevealing(state),
    pinnedMessageIds: showing ? pinned.current.value : undefined,
    dataVersion: currentId ?? undefined,
    warning: navigationWarning(state),
    canRetry: state.phase === "failed",
    retry,
    onSettled,
    dismissWarning,
  };
}
