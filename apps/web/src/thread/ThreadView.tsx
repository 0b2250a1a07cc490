import type { AssistantCitation } from "@app/citations";
import { Link, useLocation } from "@tanstack/react-router";
import { lazy, memo, Suspense, useCallback, useEffect, useMemo, useRef, useState } from "react";
import {
  AssistantCitationSource,
  AssistantCitationWarning,
} from "../citations/AssistantCitationSource.tsx";
import {
  AssistantCitationNavigationContext,
  readAssistantCitationActivation,
  useAssistantCitationNavigator,
} from "../citations/assistantCitationNavigation.ts";
import {
  type AssistantTextSelectionCapture,
  resolveAssistantCitationRange,
} from "../citations/assistantTextSelection.ts";
import { useAssistantCitationTarget } from "../citations/useAssistantCitationTarget.ts";
import { useAssistantSelectionToolbar } from "../citations/useAssistantSelectionToolbar.tsx";
import type { ComposerHandle } from "../composer/Composer.tsx";
import { StopTurnButton } from "../composer/StopTurnButton.tsx";
import { Timeline, type TimelineHandle } from "../timeline/Timeline.tsx";
import { useIdleOnce } from "./useIdleOnce.ts";
import { useThread } from "./useThread.ts";

// The composer (Lexical) loads as its own chunk so the timeline is not waiting on its code, and
// never re-renders for timeline updates: its props are stable callbacks and ids.
const StableComposer = memo(
  lazy(() => import("../composer/Composer.tsx").then((module) => ({ default: module.Composer }))),
);

/**
 * Holds the composer's place until it mounts, with the same box sizes (an empty input and a row
 * with one button), so the timeline above does not change height when the composer arrives.
 */
function ComposerPlaceholder() {
  return (
    <div className="composer-placeholder-box" aria-hidden="true">
      <div className="composer-placeholder-box__input" />
      <div className="composer-placeholder-box__actions">
        <span className="composer-placeholder-box__button">Send</span>
      </div>
    </div>
  );
}

/** Props of {@link ThreadView}. */
export type ThreadViewProps = { environmentId: string; threadId: string };

/** One thread: header, timeline, connection notices and the composer. */
export function ThreadView({ environmentId, threadId }: ThreadViewProps) {
  const thread = useThread(threadId);
  const { state, load, connection } = thread;
  const timelineRef = useRef<TimelineHandle>(null);
  const { send } = thread;
  const surfaceRef = useRef<HTMLDivElement>(null);
  const composerRef = useRef<ComposerHandle>(null);

  // The composer (its chunk and Lexical setup) waits until the timeline has laid out its first
  // rows and the browser is idle, so opening a long thread shows messages first. A thread with
  // no messages, or one that failed to load, gets it at once; a safety timer covers a list that
  // never reports its layout.
  const [timelineLaidOut, setTimelineLaidOut] = useState(false);
  const onTimelineLoad = useCallback(() => setTimelineLaidOut(true), []);
  const loaded = load.status !== "loading";
  useEffect(() => {
    if (!loaded) return;
    const timer = setTimeout(onTimelineLoad, 1500);
    return () => clearTimeout(timer);
  }, [loaded, onTimelineLoad]);
  const composerReady = useIdleOnce(
    loaded && (timelineLaidOut || load.status === "error" || state.order.length === 0),
  );

  // Cite in composer: the link goes in at the last composer cursor and the comment editor opens
  // once beside the cited text (the range is transient, never part of the citation).
  const onCite = useCallback(
    (citation: AssistantCitation, capture: AssistantTextSelectionCapture) => {
      composerRef.current?.insertCitation(citation, {
        sourceRange: capture.range,
        repairSourceRange: () => repairCitationRange(citation),
      });
    },
    [],
  );
  const navigateToCitation = useAssistantCitationNavigator();
  const selectionToolbar = useAssistantSelectionToolbar({
    surfaceRef,
    environmentId,
    threadId,
    onCite,
  });

  const onSend = useCallback(
    async (prompt: string) => {
      await send(prompt);
      // The reader just wrote: show their message and the reply, even if they had scrolled up.
      timelineRef.current?.scrollToEnd({ animated: false });
    },
    [send],
  );

  // Citation navigation: `#assistant-citation=` plus the activation id of this navigation.
  const activationKey = useLocation({ select: citationActivationKey });
  const activation = useMemo(() => {
    if (activationKey === null) return null;
    const [hash = "", activationId = ""] = activationKey.split("\u0000");
    const parsed = readAssistantCitationActivation({
      hash,
      state: { citationActivation: activationId },
    });
    return parsed;
  }, [activationKey]);
  const target = useAssistantCitationTarget({
    activation,
    threadId,
    timelineRef,
    thread: {
      ready: load.status === "ready",
      messagesById: state.messagesById,
      reachedStart: state.reachedStart,
      olderCursor: state.olderCursor,
      olderLoading: thread.olderLoading,
      olderErrored: thread.olderError !== null,
      loadOlder: thread.loadOlder,
    },
  });
  // While a citation is being positioned, the list's own "load older at the top" stays quiet:
  // the target pages history itself, bounded.
  const positioningRef = useRef(target.positioning);
  positioningRef.current = target.positioning;
  const { loadOlder } = thread;
  const onLoadOlder = useCallback(() => {
    if (!positioningRef.current) void loadOlder();
  }, [loadOlder]);
  const getScrollElement = useCallback(() => timelineRef.current?.getScrollElement() ?? null, []);

  const title = state.thread?.title ?? (load.status === "loading" ? "Loading…" : "Thread");
  useEffect(() => {
    document.title = `${title} · Chat`;
    return () => {
      document.title = "Chat";
    };
  }, [title]);

  const wrongEnvironment = state.thread !== null && state.thread.environmentId !== environmentId;

  return (
    <section className="thread-view" aria-label={title} data-thread-id={threadId}>
      <header className="thread-header">
        <Link to="/" className="thread-header__back">
          <span aria-hidden="true">←</span> Threads
        </Link>
        <h1 className="thread-header__title">{title}</h1>
        {state.thread?.branchName ? (
          <span className="thread-header__branch" title="Branch name">
            {state.thread.branchName}
          </span>
        ) : null}
      </header>

      {connection === "reconnecting" ? (
        <div className="notice notice--warning thread-view__notice" role="status">
          Reconnecting…
        </div>
      ) : null}
      {wrongEnvironment ? (
        <div className="notice notice--warning thread-view__notice" role="status">
          This link names environment {environmentId}, but the thread belongs to{" "}
          {state.thread?.environmentId}.
        </div>
      ) : null}

      {target.warning !== null ? (
        <AssistantCitationWarning
          key={`${target.dataVersion}:${target.warning}`}
          message={target.warning}
          onDismiss={target.dismissWarning}
        />
      ) : null}
      {activation !== null && (target.phase === "revealing" || target.phase === "settled") ? (
        <AssistantCitationSource
          key={activation.activationId}
          citation={activation.citation}
          activationId={activation.activationId}
          getScrollElement={getScrollElement}
          onSettled={target.onSettled}
        />
      ) : null}
      <AssistantCitationNavigationContext.Provider value={navigateToCitation}>
        <div className="thread-view__body" ref={surfaceRef}>
          {load.status === "error" ? (
            <div className="thread-view__center">
              <div className="notice notice--error" role="alert">
                {load.error.status === 404
                  ? "This thread does not exist."
                  : "Could not load this thread."}{" "}
                {load.error.message}
                <button type="button" className="button" onClick={thread.retryLoad}>
                  Retry
                </button>
              </div>
            </div>
          ) : load.status === "loading" ? (
            <div className="thread-view__center" role="status">
              Loading thread…
            </div>
          ) : (
            <Timeline
              ref={timelineRef}
              order={state.order}
              messagesById={state.messagesById}
              turnsById={state.turnsById}
              activeTurnId={state.activeTurnId}
              reachedStart={state.reachedStart}
              olderLoading={thread.olderLoading}
              olderError={thread.olderError}
              onLoadOlder={onLoadOlder}
              onLoad={onTimelineLoad}
              positioning={target.positioning}
              {...(target.pinnedMessageIds ? { pinnedMessageIds: target.pinnedMessageIds } : {})}
              {...(target.dataVersion !== undefined ? { dataVersion: target.dataVersion } : {})}
            />
          )}
        </div>
      </AssistantCitationNavigationContext.Provider>

      <div className="thread-view__composer">
        <StopTurnButton threadId={threadId} turnId={state.activeTurnId} />
        {/* Mounted after the first messages (see composerReady), so it never delays them. */}
        {!composerReady ? (
          <ComposerPlaceholder />
        ) : (
          <Suspense fallback={<ComposerPlaceholder />}>
            <StableComposer
              ref={composerRef}
              threadId={threadId}
              pendingUserInput={state.pendingUserInput}
              onSend={onSend}
              onAnswer={thread.answer}
            />
          </Suspense>
        )}
      </div>
      {selectionToolbar}
    </section>
  );
}

/** The citation hash and activation id of a location, as one comparable string (or null). */
function citationActivationKey(location: { hash: string; state: unknown }): string | null {
  const activation = readAssistantCitationActivation(location);
  return activation === null ? null : `${location.hash}\u0000${activation.activationId}`;
}

/** Finds a citation's text again in its (re-rendered) message body, or null. */
function repairCitationRange(citation: AssistantCitation): Range | null {
  const body = document.querySelector(
    `[data-assistant-citation-source="${CSS.escape(citation.messageId)}"]`,
  );
  if (!body) return null;
  const resolved = resolveAssistantCitationRange(body, citation);
  return resolved.status === "found" ? resolved.range : null;
}
