/**
 * React adapter over {@link threadReducer}: loads a thread (detail, then the newest page),
 * follows its event stream, pages in older history and sends turns. Mount it keyed by thread
 * id so a different thread starts from a fresh state.
 */
import { useCallback, useEffect, useReducer, useRef, useState } from "react";
import {
  ApiError,
  answerUserInput,
  getMessages,
  getThread,
  type MessagePageQuery,
  NEWEST_PAGE_PREFETCH_LIMIT,
  sendTurn,
  takeThreadPrefetch,
} from "../api/client.ts";
import { type EventStreamStatus, subscribeThreadEvents } from "../api/threadEvents.ts";
import {
  eventStalesThreadList,
  refreshThreadList,
  upsertThreadInList,
} from "../threads/threadList.ts";
import { createThreadState, type ThreadState, threadReducer } from "./threadStore.ts";

/** Messages per page: enough to fill a tall screen, small enough to open a long thread fast. */
export const PAGE_SIZE = NEWEST_PAGE_PREFETCH_LIMIT;

/** Load state of the initial fetch. */
export type ThreadLoad =
  | { status: "loading" }
  | { status: "ready" }
  | { status: "error"; error: ApiError };

/** Everything the thread view needs. Callbacks are stable for the life of the hook. */
export type UseThreadResult = {
  state: ThreadState;
  load: ThreadLoad;
  connection: EventStreamStatus;
  olderLoading: boolean;
  olderError: ApiError | null;
  /** Refetches after a failed initial load. */
  retryLoad(): void;
  /** Fetches the page just older than what is loaded; no-op while loading or at the start. */
  loadOlder(): Promise<void>;
  /** Fetches a window of messages (e.g. around a cited message) and merges it. */
  loadWindow(query: MessagePageQuery): Promise<void>;
  /** Sends a prompt; rejects with ApiError so the composer can keep the draft. */
  send(prompt: string): Promise<void>;
  /** Answers a pending user-input request; rejects with ApiError. */
  answer(requestId: string, answers: Record<string, string>): Promise<void>;
};

function asApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  return new ApiError(0, "client_error", error instanceof Error ? error.message : String(error));
}

function isAbort(error: unknown): boolean {
  return error instanceof DOMException && error.name === "AbortError";
}

/** Loads and follows one thread. */
export function useThread(threadId: string): UseThreadResult {
  const [state, dispatch] = useReducer(threadReducer, undefined, createThreadState);
  const [load, setLoad] = useState<ThreadLoad>({ status: "loading" });
  const [connection, setConnection] = useState<EventStreamStatus>("connecting");
  const [olderLoading, setOlderLoading] = useState(false);
  const [olderError, setOlderError] = useState<ApiError | null>(null);
  const [loadAttempt, setLoadAttempt] = useState(0);
  const [streamFrom, setStreamFrom] = useState<number | null>(null);

  // Callbacks read the latest state through a ref so they can stay referentially stable.
  const stateRef = useRef(state);
  stateRef.current = state;
  const olderInFlight = useRef(false);

  // Initial load: detail first (its lastEventId is the resume point), then the newest page.
  // `loadAttempt` is read so that Retry (which bumps it) reruns this effect.
  useEffect(() => {
    void loadAttempt;
    const controller = new AbortController();
    setLoad({ status: "loading" });
    (async () => {
      try {
        // index.html may already have requested both while the app's code was loading.
        const prefetched = takeThreadPrefetch(threadId);
        const detail = await (prefetched?.detail ?? getThread(threadId, controller.signal));
        const page = await (prefetched?.page ??
          getMessages(threadId, { limit: PAGE_SIZE }, controller.signal));
        if (controller.signal.aborted) return;
        dispatch({ type: "detail.loaded", detail });
        dispatch({ type: "page.loaded", page, position: "newest" });
        setLoad({ status: "ready" });
        setStreamFrom(detail.lastEventId);
      } catch (error) {
        if (isAbort(error)) return;
        setLoad({ status: "error", error: asApiError(error) });
      }
    })();
    return () => controller.abort();
  }, [threadId, loadAttempt]);

  // Live updates once loaded.
  useEffect(() => {
    if (streamFrom === null) return;
    return subscribeThreadEvents(threadId, {
      lastEventId: streamFrom,
      onEvent: (eventId, event) => {
        dispatch({ type: "event", eventId, event });
        if (event.type === "thread.updated") upsertThreadInList(event.thread);
        else if (eventStalesThreadList(event)) void refreshThreadList();
      },
      onStatus: setConnection,
      onReconnected: () => {
        // Cheap resync of anything the stream could not replay (e.g. a restarted server).
        getMessages(threadId, { limit: PAGE_SIZE })
          .then((page) => dispatch({ type: "page.loaded", page, position: "window" }))
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
        .then((page) => dispatch({ type: "page.loaded", page, position: "window" }))
        .catch(() => {});
    }
    return () => controller.abort();
  }, [threadId, staleKey]);

  const retryLoad = useCallback(() => setLoadAttempt((n) => n + 1), []);

  const loadOlder = useCallback(async () => {
    const current = stateRef.current;
    if (olderInFlight.current || current.reachedStart || current.olderCursor === null) return;
    olderInFlight.current = true;
    setOlderLoading(true);
    setOlderError(null);
    try {
      const page = await getMessages(threadId, { before: current.olderCursor, limit: PAGE_SIZE });
      dispatch({ type: "page.loaded", page, position: "older" });
    } catch (error) {
      setOlderError(asApiError(error));
    } finally {
      olderInFlight.current = false;
      setOlderLoading(false);
    }
  }, [threadId]);

  const loadWindow = useCallback(
    async (query: MessagePageQuery) => {
      const page = await getMessages(threadId, query);
      dispatch({ type: "page.loaded", page, position: "window" });
    },
    [threadId],
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
    olderLoading,
    olderError,
    retryLoad,
    loadOlder,
    loadWindow,
    send,
    answer,
  };
}
