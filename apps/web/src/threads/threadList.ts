/**
 * The sidebar's thread list: one module-level store shared by every view, loaded a page at a
 * time as the sidebar scrolls (`loadMoreThreads`). Every live change (a thread created or
 * branched, renamed, updated, deleted or restored) goes through {@link changeThreadList}: it
 * applies the change here and hands it to this app's other tabs (a `BroadcastChannel`), which
 * apply it the same way. Changes made elsewhere (another browser, another server process)
 * arrive on the thread list's stream (`../api/threadListEvents.ts`,
 * {@link applyStreamedThreadListChanges}); a refetch of the first page when the tab regains
 * focus or the stream reconnects covers any gap.
 */
import { isTurnFinished, type ServerEvent, type Thread } from "@app/protocol";
import { useSyncExternalStore } from "react";
import { type ApiError, listThreads } from "../api/client.ts";
import { createSignal } from "../ui/signal.ts";
import {
  appendThreadPage,
  applyThreadListChange,
  EMPTY_THREAD_LIST,
  mergeFirstPage,
  type ThreadListChange,
  type ThreadListData,
} from "./threadListState.ts";

export type { ThreadListChange } from "./threadListState.ts";

/** Threads asked for per page. */
export const THREAD_PAGE_SIZE = 50;

/** Snapshot of the thread list. */
export type ThreadListState = ThreadListData & {
  status: "idle" | "loading" | "ready" | "error";
  error: ApiError | null;
  /** A next page is being fetched. */
  loadingMore: boolean;
};

let snapshot: ThreadListState = {
  ...EMPTY_THREAD_LIST,
  status: "idle",
  error: null,
  loadingMore: false,
};
const changed = createSignal();

function set(next: ThreadListState): void {
  snapshot = next;
  changed.notify();
}

const channel: BroadcastChannel | null =
  typeof BroadcastChannel === "function" ? new BroadcastChannel("chat-thread-list") : null;
channel?.addEventListener("message", (event: MessageEvent<ThreadListChange>) => {
  set({ ...snapshot, ...applyThreadListChange(snapshot, event.data) });
});

/**
 * The one way a live change reaches the list: applied here and in every other tab of this app.
 * Issue 30's branch uses it as `changeThreadList({ type: "upsert", thread })`.
 */
export function changeThreadList(change: ThreadListChange): void {
  set({ ...snapshot, ...applyThreadListChange(snapshot, change) });
  channel?.postMessage(change);
}

/**
 * Changes the server streamed (`GET /api/threads/events`): every tab has its own stream, so
 * they are applied here only, not handed to the other tabs.
 */
export function applyStreamedThreadListChanges(changes: readonly ThreadListChange[]): void {
  let next: ThreadListData = snapshot;
  for (const change of changes) next = { ...next, ...applyThreadListChange(next, change) };
  set({ ...snapshot, ...next });
}

/** Inserts or replaces one thread at its place (a new or branched thread: the top). */
export function upsertThreadInList(thread: Thread): void {
  changeThreadList({ type: "upsert", thread });
}

/** Takes a thread out of the list (deleted). */
export function removeThreadFromList(threadId: string): void {
  changeThreadList({ type: "remove", threadId });
}

/** Fetches the first page again (keeping the loaded list visible and older pages kept). */
export async function refreshThreadList(): Promise<void> {
  set({ ...snapshot, status: snapshot.status === "ready" ? "ready" : "loading", error: null });
  try {
    const page = await listThreads({ limit: THREAD_PAGE_SIZE });
    set({ ...snapshot, ...mergeFirstPage(snapshot, page), status: "ready", error: null });
  } catch (error) {
    set({ ...snapshot, status: "error", error: error as ApiError });
  }
}

let moreInFlight: Promise<void> | null = null;

/** Fetches the next (older) page, once at a time; nothing when every page is in. */
export function loadMoreThreads(): Promise<void> {
  if (moreInFlight !== null || snapshot.nextCursor === null)
    return moreInFlight ?? Promise.resolve();
  const cursor = snapshot.nextCursor;
  set({ ...snapshot, loadingMore: true });
  moreInFlight = listThreads({ cursor, limit: THREAD_PAGE_SIZE })
    .then((page) => {
      if (snapshot.nextCursor !== cursor) return;
      set({ ...snapshot, ...appendThreadPage(snapshot, page), loadingMore: false });
    })
    .catch((error: unknown) => {
      set({ ...snapshot, loadingMore: false, status: "error", error: error as ApiError });
    })
    .finally(() => {
      moreInFlight = null;
      if (snapshot.loadingMore) set({ ...snapshot, loadingMore: false });
    });
  return moreInFlight;
}

/**
 * Whether a live thread event makes the sidebar's summary stale. The server announces
 * `thread.updated` when a thread is named or renamed (applied directly), so a turn that ends,
 * however it ends (its messages are all written), is the moment to refetch the message count
 * and recency.
 */
export function eventStalesThreadList(event: ServerEvent): boolean {
  return event.type === "turn.updated" && isTurnFinished(event.turn);
}

/** Subscribes a component to the thread list. */
export function useThreadList(): ThreadListState {
  return useSyncExternalStore(changed.subscribe, () => snapshot);
}
