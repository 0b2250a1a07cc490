/**
 * React adapter over {@link threadReducer}: loads a thread (detail and newest page at once),
 * follows its event stream, extends a range of history at either edge, fetches one window
 * around a cited message, and sends turns. Mount it keyed by thread
 * id so a different thread starts from a fresh state.
 */
import type { MessagePage, ServerEvent } from "@app/protocol";
import { useCallback, useEffect, useReducer, useRef, useState } from "react";
import { ApiError, answerUserInput, getMessages, getThread, sendTurn } from "../api/client.ts";
import { showMessage } from "../api/conversationClient.ts";
import { type EventStreamStatus, subscribeThreadEvents } from "../api/threadEvents.ts";
import { NEWEST_PAGE_PREFETCH_LIMIT, takeThreadPrefetch } from "../api/threadPrefetch.ts";
import {
  eventStalesThreadList,
  refreshThreadList,
  upsertThreadInList,
} from "../threads/threadList.ts";
import { requestIdle } from "../ui/idle.ts";
import { createThreadState, type ThreadState } from "./threadState.ts";
import { threadReducer } from "./threadStore.ts";
import type { HistoryRange } from "./threadWindows.ts";

/** Messages per page: enough to fill a tall screen, small enough to open a long thread fast. */
export const PAGE_SIZE = NEWEST_PAGE_PREFETCH_LIMIT;

/** Longest wait for idle time before the newest page is fetched again after the first load. */
const RESYNC_IDLE_TIMEOUT_MS = 1000;

const IDLE_EDGE: EdgeLoad = { loading: false, error: null };
const IDLE_EDGES: Record<RangeEdge, EdgeLoad> = { older: IDLE_EDGE, newer: IDLE_EDGE };

/** Load state of the initial fetch. */
export type ThreadLoad =
  | { status: "loading" }
  | { status: "ready" }
  | { status: "error"; error: ApiError };

/** Which edge of a range a page extends. */
export type RangeEdge = "older" | "newer";

/** Loading state of one edge of the range in view. */
export type EdgeLoad = { loading: boolean; error: ApiError | null };

/** What an `around=` request found. */
export type AroundOutcome =
  | { status: "loaded" }
  /** The server answered that the message is not in this thread. */
  | { status: "missing" }
  /** The request failed (network, server error): the history could not be loaded. */
  | { status: "failed"; error: ApiError };

/** Everything the thread view needs. Callbacks are stable for the life of the hook. */
export type UseThreadResult = {
  state: ThreadState;
  load: ThreadLoad;
  connection: EventStreamStatus;
  /** Edge pages in flight or failed, per edge (for the range in view). */
  edges: Readonly<Record<RangeEdge, EdgeLoad>>;
  /** Refetches after a failed initial load. */
  retryLoad(): void;
  /**
   * Fetches the page just past one edge of `range` (`before=`/`after=` its cursor, or a window
   * around its edge message when the cursor is unknown); no-op while that edge is loading or
   * when the range already reaches the start (end) of the thread.
   */
  loadEdge(range: HistoryRange, edge: RangeEdge): Promise<void>;
  /** Fetches one window around a message (a cited source) and merges it. */
  loadAround(messageId: string): Promise<AroundOutcome>;
  /** Sends a prompt; rejects with ApiError so the composer can keep the draft. */
  send(prompt: string): Promise<void>;
  /** Answers a pending user-input request; rejects with ApiError. */
  answer(requestId: string, answers: Record<string, string>): Promise<void>;
  /**
   * Reads the history of the path shown again (issue 30): around `messageId` when it lies
   * outside the newest loaded range, else the newest page.
   */
  reloadPath(messageId: string): Promise<void>;
};

function asApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  return new ApiError(0, "client_error", error instanceof Error ? error.message : String(error));
}

function isAbort(error: unknown): boolean {
  return error instanceof DOMException && error.name === "AbortError";
}

/** A read of the path shown in flight: the events received since it started. */
type PathReload = { events: ServerEvent[] };

/** Loads and follows one thread. */
export function useThread(threadId: string): UseThreadResult {
  const [state, dispatch] = useReducer(threadReducer, undefined, createThreadState);
  const [load, setLoad] = useState<ThreadLoad>({ status: "loading" });
  const [connection, setConnection] = useState<EventStreamStatus>("connecting");
  const [edges, setEdges] = useState<Record<RangeEdge, EdgeLoad>>(IDLE_EDGES);
  const [loadAttempt, setLoadAttempt] = useState(0);
  const [streamFrom, setStreamFrom] = useState<number | null>(null);

  // Callbacks read the latest state through a ref so they can stay referentially stable.
  const stateRef = useRef(state);
  stateRef.current = state;
  const edgeInFlight = useRef<Record<RangeEdge, boolean>>({ older: false, newer: false });
  /** Messages this view showed itself (`POST .../show`): their `thread.path` is already read. */
  const ownPathChanges = useRef(new Set<string>());
  /** The newest path reload in flight, with the events received since it started. */
  const pathReload = useRef<PathReload | null>(null);

  // Initial load: the detail (its lastEventId is the resume point) and the newest page at once.
  // `loadAttempt` is read so that Retry (which bumps it) reruns this effect.
  useEffect(() => {
    void loadAttempt;
    const controller = new AbortController();
    let cancelResync = () => {};
    setLoad({ status: "loading" });
    (async () => {
      try {
        // index.html may already have requested both while the app's code was loading.
        const prefetched = takeThreadPrefetch(threadId);
        const [detail, page] = await Promise.all([
          prefetched?.detail ?? getThread(threadId, controller.signal),
          prefetched?.page ?? getMessages(threadId, { limit: PAGE_SIZE }, controller.signal),
        ]);
        if (controller.signal.aborted) return;
        dispatch({ type: "detail.loaded", detail });
        // The stream starts after this detail: a title set before it (the first send from the
        // home page) never arrives as an event, so the sidebar takes it from here.
        if (detail.thread.messageCount > 0) upsertThreadInList(detail.thread);
        dispatch({ type: "page.loaded", page, position: "newest" });
        setLoad({ status: "ready" });
        setStreamFrom(detail.lastEventId);
        // The page may predate the detail's lastEventId, and the stream resumes after it: a
        // message created in between would be missing. A newest page requested now is never
        // older than the detail; fetched after the first paint, and merging it unchanged is a no-op.
        // A page the server embedded was read after its detail: nothing to catch up.
        if (prefetched?.current) return;
        cancelResync = requestIdle(() => {
          getMessages(threadId, { limit: PAGE_SIZE }, controller.signal)
            .then((newest) => dispatch({ type: "page.loaded", page: newest, position: "newest" }))
            .catch(() => {});
        }, RESYNC_IDLE_TIMEOUT_MS);
      } catch (error) {
        if (isAbort(error)) return;
        setLoad({ status: "error", error: asApiError(error) });
      }
    })();
    return () => {
      cancelResync();
      controller.abort();
    };
  }, [threadId, loadAttempt]);

  // Live updates once loaded.
  useEffect(() => {
    if (streamFrom === null) return;
    return subscribeThreadEvents(threadId, {
      lastEventId: streamFrom,
      onEvent: (eventId, event) => {
        pathReload.current?.events.push(event);
        dispatch({ type: "event", eventId, event });
        if (event.type === "thread.path") {
          // A change this view made and already read (a chip showing a version) is not read twice.
          if (!ownPathChanges.current.delete(event.messageId)) {
            void reloadPathRef.current(event.messageId);
          }
        } else if (event.type === "thread.updated") upsertThreadInList(event.thread);
        if (eventStalesThreadList(event)) void refreshThreadList();
      },
      onStatus: setConnection,
      onReconnected: () => {
        // Cheap resync of anything the stream could not replay (e.g. a restarted server).
        getMessages(threadId, { limit: PAGE_SIZE })
          .then((page) => dispatch({ type: "page.loaded", page, position: "newest" }))
          .catch(() => {});
      },
    });
  }, [threadId, streamFrom]);

  // Repair messages whose deltas arrived with a gap.
  const staleKey = [...state.staleMessageIds].join(",");
  useEffect(() => {
    if (staleKey === "") return;
    const controller = new AbortController();
    for (const id of staleKey.split(",")) {
      getMessages(threadId, { around: id, limit: 1 }, controller.signal)
        .then((page) => dispatch({ type: "messages.repaired", page }))
        .catch(() => {});
    }
    return () => controller.abort();
  }, [threadId, staleKey]);

  const retryLoad = useCallback(() => setLoadAttempt((n) => n + 1), []);

  /**
   * Reads a page of the path shown and replaces the loaded history with it (`path.reloaded`).
   * Only the newest read is applied. The events received while it is in flight go with its page:
   * the page may have been read before them, and they are never sent again.
   */
  const replacePath = useCallback(
    async (fetchPage: () => Promise<MessagePage>, position: "newest" | "around") => {
      const reload: PathReload = { events: [] };
      pathReload.current = reload;
      try {
        const page = await fetchPage();
        // A later change's reload started since: its page is the one to show.
        if (pathReload.current !== reload) return;
        dispatch({ type: "path.reloaded", page, position, replay: reload.events });
      } finally {
        if (pathReload.current === reload) pathReload.current = null;
      }
    },
    [],
  );

  const reloadPath = useCallback(
    async (messageId: string) => {
      const ranges = stateRef.current.ranges;
      const newest = ranges[ranges.length - 1];
      const known = stateRef.current.messagesById.get(messageId);
      const inOlderRange =
        known !== undefined && newest !== undefined && !newest.ids.includes(messageId);
      try {
        await (inOlderRange
          ? replacePath(
              () => getMessages(threadId, { around: messageId, limit: PAGE_SIZE }),
              "around",
            )
          : replacePath(() => getMessages(threadId, { limit: PAGE_SIZE }), "newest"));
      } catch {
        // A later event or the reconnect resync reads it again.
      }
    },
    [threadId, replacePath],
  );
  const reloadPathRef = useRef(reloadPath);
  reloadPathRef.current = reloadPath;

  const loadEdge = useCallback(
    async (range: HistoryRange, edge: RangeEdge) => {
      const more = edge === "older" ? range.hasOlder : range.hasNewer;
      if (edgeInFlight.current[edge] || !more || range.ids.length === 0) return;
      edgeInFlight.current[edge] = true;
      setEdges((current) => ({ ...current, [edge]: { loading: true, error: null } }));
      try {
        const cursor = edge === "older" ? range.olderCursor : range.newerCursor;
        if (cursor === null) {
          // A range started by live messages knows no cursor yet: a window around its edge does.
          const edgeId = edge === "older" ? range.ids[0]! : range.ids[range.ids.length - 1]!;
          const page = await getMessages(threadId, { around: edgeId, limit: PAGE_SIZE });
          dispatch({ type: "page.loaded", page, position: "around" });
        } else {
          const query = edge === "older" ? { before: cursor } : { after: cursor };
          const page = await getMessages(threadId, { ...query, limit: PAGE_SIZE });
          dispatch({ type: "page.loaded", page, position: edge, cursor });
        }
        setEdges((current) => ({ ...current, [edge]: IDLE_EDGE }));
      } catch (error) {
        setEdges((current) => ({
          ...current,
          [edge]: { loading: false, error: asApiError(error) },
        }));
      } finally {
        edgeInFlight.current[edge] = false;
      }
    },
    [threadId],
  );

  const loadAround = useCallback(
    async (messageId: string): Promise<AroundOutcome> => {
      try {
        const page = await getMessages(threadId, { around: messageId, limit: PAGE_SIZE });
        dispatch({ type: "page.loaded", page, position: "around" });
        return { status: "loaded" };
      } catch (error) {
        let apiError = asApiError(error);
        // A version that is not shown (issue 30): show it, then read the new path around it.
        if (apiError.code === "message_not_shown") {
          try {
            ownPathChanges.current.add(messageId);
            await showMessage(threadId, messageId);
            await replacePath(
              () => getMessages(threadId, { around: messageId, limit: PAGE_SIZE }),
              "around",
            );
            return { status: "loaded" };
          } catch (retryError) {
            apiError = asApiError(retryError);
          }
        }
        // Only the server's own answer that the message is not here means it is gone.
        if (apiError.status === 404 && apiError.code === "message_not_found") {
          return { status: "missing" };
        }
        return { status: "failed", error: apiError };
      }
    },
    [threadId, replacePath],
  );

  const send = useCallback(
    async (prompt: string) => {
      try {
        const response = await sendTurn(threadId, prompt);
        dispatch({ type: "turn.sent", response });
      } catch (error) {
        throw asApiError(error);
      }
    },
    [threadId],
  );

  const answer = useCallback(
    async (requestId: string, answers: Record<string, string>) => {
      try {
        await answerUserInput(threadId, requestId, answers);
        dispatch({ type: "userInput.answered", requestId });
      } catch (error) {
        throw asApiError(error);
      }
    },
    [threadId],
  );

  return {
    state,
    load,
    connection,
    edges,
    retryLoad,
    loadEdge,
    loadAround,
    send,
    answer,
    reloadPath,
  };
}
