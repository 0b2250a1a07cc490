import { Link } from "@tanstack/react-router";
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from "react";
import {
  AssistantCitationSource,
  AssistantCitationWarning,
} from "../citations/navigation/AssistantCitationSource.tsx";
import { AssistantCitationNavigationContext } from "../citations/navigation/assistantCitationNavigation.ts";
import { CitationHereContext } from "../citations/navigation/citationScope.ts";
import { DeletedSourceNotice } from "../citations/navigation/DeletedSourceNotice.tsx";
import { JumpControls } from "../citations/navigation/JumpControls.tsx";
import type { RevealRangeRequest } from "../citations/navigation/keepRevealedInView.ts";
import { NAVIGATION_WARNINGS } from "../citations/navigation/navigationMachine.ts";
import { useChipNavigation } from "../citations/navigation/useChipNavigation.ts";
import { useCitationActivation } from "../citations/navigation/useCitationActivation.ts";
import { useCitationReturn } from "../citations/navigation/useCitationReturn.ts";
import { useWarnedRowMark } from "../citations/navigation/useWarnedRowMark.ts";
import {
  type CiteRange,
  useAssistantSelectionToolbar,
} from "../citations/selection/useAssistantSelectionToolbar.tsx";
import { registerActiveComposer } from "../composer/activeComposer.ts";
import type { ComposerHandle } from "../composer/Composer.tsx";
import { StopTurnButton } from "../composer/StopTurnButton.tsx";
import { ThreadFindBar } from "../find/ThreadFindBar.tsx";
import { useThreadFind } from "../find/useThreadFind.ts";
import { ConversationActionsContext } from "../timeline/conversationActions.ts";
import { focusMessageWhenMounted } from "../timeline/focusMessage.ts";
import { Timeline, type TimelineHandle } from "../timeline/Timeline.tsx";
import { isComposerFocusRequested, takeComposerFocusRequest } from "./composerFocusRequest.ts";
import { DisabledComposer, ThreadComposer, useComposerReady } from "./ThreadComposer.tsx";
import { ThreadHeader } from "./ThreadHeader.tsx";
import { useAssistantCitationTarget } from "./useAssistantCitationTarget.ts";
import { useCiteIntoComposer } from "./useCiteIntoComposer.ts";
import { useConversationChanges } from "./useConversationChanges.tsx";
import { useEdgeLoading } from "./useEdgeLoading.ts";
import { useScrollRestoration } from "./useScrollRestoration.ts";
import { useThread } from "./useThread.ts";
import { rangeOfMessage, useTimelineView } from "./useTimelineView.ts";

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
  // Opened by the home composer's first send or a branch: the control that had focus went away
  // with its page, so the composer takes focus as it mounts (unless the reader has put it
  // somewhere meanwhile), and what is typed next lands in it rather than on <body>.
  const setComposer = useCallback(
    (handle: ComposerHandle | null) => {
      composerRef.current = handle;
      const active = document.activeElement;
      const lost = active === null || active === document.body;
      if (handle !== null && takeComposerFocusRequest(threadId) && lost) handle.focus();
    },
    [threadId],
  );

  // The composer (its chunk and Lexical setup) waits until the timeline has laid out its first
  // rows and the browser is idle, so opening a long thread shows messages first.
  const { composerReady, onTimelineLoad } = useComposerReady(load.status, state.order.length);
  // Asked to take focus (above): it mounts at once, so keys typed as the thread opens reach it.
  const [focusRequested] = useState(() => isComposerFocusRequested(threadId));

  const onCite = useCiteIntoComposer(composerRef);
  useEffect(() => registerActiveComposer(() => composerRef.current), []);
  const here = useMemo(() => ({ environmentId, threadId }), [environmentId, threadId]);
  const { navigateToCitation, chipNotice, dismissChipNotice } = useChipNavigation(here);
  const citeRangeRef = useRef<CiteRange>(null);
  const selectionToolbar = useAssistantSelectionToolbar({
    surfaceRef,
    environmentId,
    threadId,
    onCite,
    citeRangeRef,
  });

  const view = useTimelineView(state);
  const detachedRef = useRef(view.detached);
  detachedRef.current = view.detached;
  const { showNewest, showMessage } = view;
  const find = useThreadFind({ threadId, thread, view, timelineRef, citeRangeRef });

  const onSend = useCallback(
    async (prompt: string) => {
      await send(prompt);
      // The reader just wrote: show their message and the reply, even if they had scrolled up
      // or were reading a detached window of older history.
      if (detachedRef.current) showNewest();
      else timelineRef.current?.scrollToEnd({ animated: false });
    },
    [send, showNewest],
  );

  const onResent = useCallback(() => {
    if (detachedRef.current) showNewest();
    else timelineRef.current?.scrollToEnd({ animated: false });
  }, [showNewest]);
  const changes = useConversationChanges({
    environmentId,
    threadId,
    reloadPath: thread.reloadPath,
    onResent,
  });

  // Citation navigation: `#assistant-citation=` plus the activation id of this navigation.
  const { activation, clockFor, leaveCitation } = useCitationActivation(here);

  // A citation jump leaves the end: a reply streaming meanwhile must not pull the view back.
  // Held in the commit that arms leaving the citation (layout phase, before any scroll event),
  // so no scroll between them is taken for the reader's on the strength of the chip's click.
  useLayoutEffect(() => {
    if (activation !== null) timelineRef.current?.holdFollowing();
  }, [activation]);

  const { loadAround, loadEdge } = thread;
  const stateRef = useRef(state);
  stateRef.current = state;
  const isLoaded = useCallback(
    (messageId: string) => rangeOfMessage(stateRef.current, messageId) !== undefined,
    [],
  );
  const target = useAssistantCitationTarget({
    activation,
    timelineRef,
    thread: {
      ready: load.status === "ready",
      isLoaded,
      loadAround,
      showMessage,
    },
  });

  // Other modules never scroll the timeline themselves: they ask it (timeline/README.md).
  const getScrollElement = useCallback(() => timelineRef.current?.getScrollElement() ?? null, []);
  const revealRange = useCallback(
    (range: Range, options: RevealRangeRequest) => timelineRef.current?.revealRange(range, options),
    [],
  );
  const placeMessage = useCallback(
    (messageId: string, viewPosition: number) =>
      timelineRef.current?.placeMessage(messageId, viewPosition) ?? false,
    [],
  );
  const announcement =
    target.state.phase === "settled" && target.state.warning === null
      ? "Showing the cited text."
      : target.state.phase === "fetching"
        ? "Loading the cited message…"
        : null;

  // Back (the browser's, or "Back to where you were") returns to the clicked chip.
  const { canGoBack, goBack } = useCitationReturn({
    threadId,
    ready: load.status === "ready",
    isLoaded,
    loadAround,
    showMessage,
    placeMessage,
  });

  // Browser Back / Forward: each history entry reopens the thread where it was read.
  useScrollRestoration({
    threadId,
    ready: load.status === "ready",
    surfaceRef,
    timelineRef,
    isLoaded,
    loadAround,
    showMessage,
  });

  const { onLoadOlder, onLoadNewer } = useEdgeLoading(view.range, target.positioning, loadEdge);

  // Jump to latest: leave the citation location (a reload then lands here too), show the
  // newest messages (a new session for a detached window, else a scroll) and follow again;
  // focus goes to the newest message, never to <body> as the button disappears.
  const [awayFromEnd, setAwayFromEnd] = useState(false);
  const newestId = state.ranges[state.ranges.length - 1]?.ids.at(-1) ?? null;
  const newestIdRef = useRef(newestId);
  newestIdRef.current = newestId;
  const jumpToLatest = useCallback(() => {
    leaveCitation();
    if (detachedRef.current) showNewest();
    else timelineRef.current?.scrollToEnd({ animated: false });
    const newest = newestIdRef.current;
    if (newest !== null) focusMessageWhenMounted(newest);
  }, [leaveCitation, showNewest]);

  // A dismissed warning ends the visit: the URL leaves the citation, and focus goes to the
  // composer (the warning and its Dismiss button are gone).
  const { dismissWarning: dismissTargetWarning } = target;
  const activationRef = useRef(activation);
  activationRef.current = activation;
  const dismissWarning = useCallback(() => {
    const cited = activationRef.current?.citation.messageId ?? null;
    dismissTargetWarning();
    leaveCitation();
    // The composer mounts after the first rows; until then the cited message takes focus.
    if (composerRef.current) composerRef.current.focus();
    else if (cited !== null) focusMessageWhenMounted(cited);
  }, [dismissTargetWarning, leaveCitation]);

  // After Stop the button goes away: focus goes to the composer, never to <body>.
  const focusComposer = useCallback(() => composerRef.current?.focus(), []);

  // A jump whose words could not be shown (changed, ambiguous) marks its message's row.
  useWarnedRowMark(target.state, surfaceRef);

  // A thread that does not exist gets a plain view: no Retry, and a composer that cannot send.
  const notFound = load.status === "error" && load.error.status === 404;
  const title =
    state.thread?.title ??
    (load.status === "loading" ? "Loading…" : notFound ? "Thread not found" : "Thread");
  return (
    <section className="thread-view" aria-label={title} data-thread-id={threadId}>
      <ThreadHeader
        title={title}
        thread={state.thread}
        environmentId={environmentId}
        reconnecting={connection === "reconnecting"}
      />

      {chipNotice !== null ? (
        <AssistantCitationWarning
          key={`chip:${chipNotice.id}`}
          message={chipNotice.text}
          onDismiss={dismissChipNotice}
        />
      ) : null}
      {target.warning !== null ? (
        <AssistantCitationWarning
          key={`${target.dataVersion}:${target.warning}`}
          message={target.warning}
          onDismiss={dismissWarning}
          sourceFocused={
            target.warning === NAVIGATION_WARNINGS.changed ||
            target.warning === NAVIGATION_WARNINGS.ambiguous
          }
          {...(target.canRetry ? { onRetry: target.retry } : {})}
        />
      ) : null}
      {/*
        Polite announcement of a jump's result. The live region is always there (so screen
        readers announce what appears in it), and it is not a role="status": that role is where
        warnings go (DESIGN.md section 6), and a found source shows no status at all.
      */}
      <div className="visually-hidden" aria-live="polite" data-citation-announcement>
        {announcement === null ? null : <p>{announcement}</p>}
      </div>
      {activation !== null && target.revealing ? (
        <AssistantCitationSource
          key={activation.activationId}
          citation={activation.citation}
          clock={clockFor(activation.activationId)}
          {...(activation.chipMessageId !== undefined
            ? { chipMessageId: activation.chipMessageId }
            : {})}
          getScrollElement={getScrollElement}
          revealRange={revealRange}
          onSettled={target.onSettled}
        />
      ) : null}
      {changes.notice !== null ? (
        <div className="notice" aria-live="polite" data-conversation-notice>
          {changes.notice}{" "}
          <button type="button" className="button" onClick={changes.dismissNotice}>
            Dismiss
          </button>
        </div>
      ) : null}
      <CitationHereContext.Provider value={here}>
        <AssistantCitationNavigationContext.Provider value={navigateToCitation}>
          <ConversationActionsContext.Provider value={changes.actions}>
            <div className="thread-view__body" ref={surfaceRef}>
              {load.status === "error" && load.error.code === "thread_deleted" ? (
                <DeletedSourceNotice activation={activation} />
              ) : notFound && activation !== null ? (
                // A chip's source thread is gone for good (purged, or never there): the same
                // notice as a deleted one, keeping the quote, rather than a bare "not found".
                <DeletedSourceNotice activation={activation} />
              ) : notFound ? (
                <div className="thread-view__center">
                  <div className="page-message">
                    <p>This thread does not exist.</p>
                    <p>
                      <Link to="/">Back to your threads</Link>
                    </p>
                  </div>
                </div>
              ) : load.status === "error" ? (
                <div className="thread-view__center">
                  <div className="notice notice--error" role="alert">
                    Could not load this thread. {load.error.message}
                    <button type="button" className="button" onClick={thread.retryLoad}>
                      Retry
                    </button>
                  </div>
                </div>
              ) : load.status === "loading" ? (
                <div className="thread-view__center" aria-live="polite">
                  Loading thread…
                </div>
              ) : (
                <Timeline
                  key={view.session.id}
                  ref={timelineRef}
                  order={view.range?.ids ?? EMPTY_ORDER}
                  messagesById={state.messagesById}
                  turnsById={state.turnsById}
                  activeTurnId={state.activeTurnId}
                  reachedStart={!(view.range?.hasOlder ?? false)}
                  olderLoading={thread.edges.older.loading}
                  olderError={thread.edges.older.error}
                  onLoadOlder={onLoadOlder}
                  reachedEnd={!(view.range?.hasNewer ?? false)}
                  newerLoading={thread.edges.newer.loading}
                  newerError={thread.edges.newer.error}
                  onLoadNewer={onLoadNewer}
                  placement={view.session.placement}
                  onLoad={onTimelineLoad}
                  positioning={target.positioning}
                  {...(target.pinnedMessageIds
                    ? { pinnedMessageIds: target.pinnedMessageIds }
                    : {})}
                  {...(target.dataVersion !== undefined ? { dataVersion: target.dataVersion } : {})}
                  onAwayFromEndChange={setAwayFromEnd}
                  onReaderReachedEnd={leaveCitation}
                />
              )}
              {load.status === "ready" ? (
                <JumpControls
                  canGoBack={canGoBack}
                  showJumpToLatest={view.detached || awayFromEnd}
                  onBack={goBack}
                  onJumpToLatest={jumpToLatest}
                />
              ) : null}
            </div>
          </ConversationActionsContext.Provider>
        </AssistantCitationNavigationContext.Provider>
      </CitationHereContext.Provider>

      <ThreadFindBar find={find} />
      <div className="thread-view__composer">
        <StopTurnButton
          threadId={threadId}
          turnId={state.activeTurnId}
          onStopRequested={focusComposer}
        />
        {notFound ? (
          <DisabledComposer reason="This thread does not exist." />
        ) : (
          <ThreadComposer
            ready={composerReady || focusRequested}
            composerRef={setComposer}
            threadId={threadId}
            pendingUserInput={state.pendingUserInput}
            onSend={onSend}
            onAnswer={thread.answer}
          />
        )}
      </div>
      {selectionToolbar}
    </section>
  );
}

const EMPTY_ORDER: readonly string[] = [];
