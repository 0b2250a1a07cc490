/**
 * Brings a citation's source message into the timeline (spec "Source navigation"): loads earlier
 * history until the message is there (bounded at 20 pages or a repeated cursor, with a warning
 * past that), then asks the timeline to unfold its turn, mount the row and keep it pinned; the
 * activation id doubles as the list's data version. While positioning, the timeline's own
 * end-scrolling is off. User navigation (wheel, touch, navigation keys) or Escape cancels.
 */
import type { Message } from "@app/protocol";
import { type RefObject, useCallback, useEffect, useRef, useState } from "react";
import { unfoldMessage } from "../timeline/messageFold.ts";
import type { TimelineHandle } from "../timeline/Timeline.tsx";
import { CITATION_WARNINGS } from "./AssistantCitationSource.tsx";
import type { AssistantCitationActivation } from "./assistantCitationNavigation.ts";

/** Most history pages loaded to find one cited message. */
export const CITATION_HISTORY_PAGE_LIMIT = 20;

/** Warning when the cited message is beyond the page limit (or the cursor repeats). */
export const CITATION_HISTORY_LIMIT_WARNING =
  "The cited message is further back than the history loaded to find it.";
/** Warning when loading earlier history fails. */
export const CITATION_HISTORY_ERROR_WARNING =
  "Earlier messages could not be loaded to find the cited text.";

/** Where a navigation stands. */
export type CitationTargetPhase =
  | "idle"
  | "loading"
  | "positioning"
  | "revealing"
  | "settled"
  | "cancelled";

/** The thread as the hook needs it. */
export type CitationTargetThread = {
  /** True once the thread's first page is shown (the timeline is mounted). */
  ready: boolean;
  messagesById: ReadonlyMap<string, Message>;
  reachedStart: boolean;
  olderCursor: string | null;
  olderLoading: boolean;
  olderErrored: boolean;
  loadOlder(): Promise<void>;
};

/** Options of {@link useAssistantCitationTarget}. */
export type UseAssistantCitationTargetOptions = {
  activation: AssistantCitationActivation | null;
  threadId: string;
  thread: CitationTargetThread;
  timelineRef: RefObject<TimelineHandle | null>;
};

/** What the thread view passes on to the timeline and the source highlighter. */
export type AssistantCitationTarget = {
  phase: CitationTargetPhase;
  /** True while a target is being located or positioned (Timeline `positioning`). */
  positioning: boolean;
  /** The cited row, kept mounted (Timeline `pinnedMessageIds`). */
  pinnedMessageIds: readonly string[] | undefined;
  /** The activation id (Timeline `dataVersion`). */
  dataVersion: string | undefined;
  /** A warning for `role="status"`, or null. */
  warning: string | null;
  /** Reported by the source highlighter once the text is revealed (or found wanting). */
  onSettled(warning: string | null): void;
  dismissWarning(): void;
};

type TargetState = {
  activationId: string | null;
  phase: CitationTargetPhase;
  warning: string | null;
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

const EMPTY_PINS: readonly string[] = [];

/** Drives one citation activation from "load the history" to "row mounted, go reveal it". */
export function useAssistantCitationTarget({
  activation,
  threadId,
  thread,
  timelineRef,
}: UseAssistantCitationTargetOptions): AssistantCitationTarget {
  const activationId = activation?.activationId ?? null;
  const [state, setState] = useState<TargetState>(() => ({
    activationId,
    phase: activation ? "loading" : "idle",
    warning: null,
  }));
  // A new activation starts over (also reviving a link clicked again after dismissal).
  let current = state;
  if (state.activationId !== activationId) {
    current = { activationId, phase: activation ? "loading" : "idle", warning: null };
    setState(current);
  }
  const { phase } = current;
  const paging = useRef({ activationId, pages: 0, cursors: new Set<string>() });
  if (paging.current.activationId !== activationId) {
    paging.current = { activationId, pages: 0, cursors: new Set() };
  }

  const finish = useCallback(
    (id: string | null, next: CitationTargetPhase, warning: string | null) => {
      setState((s) => (s.activationId === id ? { ...s, phase: next, warning } : s));
    },
    [],
  );

  // Locate: page back until the message is loaded.
  const { ready, messagesById, reachedStart, olderCursor, olderLoading, olderErrored, loadOlder } =
    thread;
  useEffect(() => {
    if (phase !== "loading" || !ready || !activation) return;
    const { citation } = activation;
    if (citation.threadId !== threadId) {
      finish(activationId, "settled", CITATION_WARNINGS.missing);
    } else if (messagesById.has(citation.messageId)) {
      finish(activationId, "positioning", null);
    } else if (olderLoading) {
      // Wait for the page in flight.
    } else if (reachedStart || olderCursor === null) {
      finish(activationId, "settled", CITATION_WARNINGS.missing);
    } else if (olderErrored) {
      finish(activationId, "settled", CITATION_HISTORY_ERROR_WARNING);
    } else if (
      paging.current.pages >= CITATION_HISTORY_PAGE_LIMIT ||
      paging.current.cursors.has(olderCursor)
    ) {
      finish(activationId, "settled", CITATION_HISTORY_LIMIT_WARNING);
    } else {
      paging.current.pages += 1;
      paging.current.cursors.add(olderCursor);
      void loadOlder();
    }
  }, [
    phase,
    ready,
    activation,
    activationId,
    threadId,
    messagesById,
    reachedStart,
    olderCursor,
    olderLoading,
    olderErrored,
    loadOlder,
    finish,
  ]);

  // Position: unfold and mount the row, then hand over to the source highlighter.
  useEffect(() => {
    if (phase !== "positioning" || !activation) return;
    const timeline = timelineRef.current;
    if (!timeline) return;
    // The source message is loaded: a folded long message opens, so the cited words show.
    unfoldMessage(activation.citation.messageId);
    let cancelled = false;
    const reduced =
      typeof matchMedia === "function" && matchMedia("(prefers-reduced-motion: reduce)").matches;
    void timeline
      .scrollToMessage(activation.citation.messageId, { animated: !reduced, viewPosition: 0.3 })
      .then((ok) => {
        if (cancelled) return;
        if (ok) finish(activationId, "revealing", null);
        else finish(activationId, "settled", CITATION_WARNINGS.missing);
      });
    return () => {
      cancelled = true;
    };
  }, [phase, activation, activationId, timelineRef, finish]);

  // The reader takes over: stop positioning.
  const pending = phase === "loading" || phase === "positioning" || phase === "revealing";
  useEffect(() => {
    if (!pending) return;
    const cancel = () => finish(activationId, "cancelled", null);
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
  }, [pending, activationId, finish]);

  const onSettled = useCallback(
    (warning: string | null) => finish(activationId, "settled", warning),
    [activationId, finish],
  );
  const dismissWarning = useCallback(() => {
    setState((s) => (s.activationId === activationId ? { ...s, warning: null } : s));
  }, [activationId]);

  const pinned = useRef<{ id: string | null; value: readonly string[] }>({
    id: null,
    value: EMPTY_PINS,
  });
  const messageId = activation?.citation.messageId ?? null;
  if (pinned.current.id !== messageId) {
    pinned.current = { id: messageId, value: messageId === null ? EMPTY_PINS : [messageId] };
  }
  const showing = phase === "positioning" || phase === "revealing" || phase === "settled";

  return {
    phase,
    positioning: pending,
    pinnedMessageIds: activation && showing ? pinned.current.value : undefined,
    dataVersion: activationId ?? undefined,
    warning: current.warning,
    onSettled,
    dismissWarning,
  };
}
