/**
 * The sidebar's thread list: one module-level store shared by every view, so a thread created
 * or renamed in one place shows up everywhere without refetching.
 */
import { isTurnFinished, type ServerEvent, type Thread } from "@app/protocol";
import { useSyncExternalStore } from "react";
import { type ApiError, listThreads } from "../api/client.ts";

/** Snapshot of the thread list. */
export type ThreadListState = {
  threads: readonly Thread[];
  status: "idle" | "loading" | "ready" | "error";
  error: ApiError | null;
};

let snapshot: ThreadListState = { threads: [], status: "idle", error: null };
const listeners = new Set<() => void>();

function set(next: ThreadListState): void {
  snapshot = next;
  for (const listener of listeners) listener();
}

function byRecency(a: Thread, b: Thread): number {
  return b.updatedAt.localeCompare(a.updatedAt);
}

/** Fetches the list (keeping the current one visible while it loads). */
export async function refreshThreadList(): Promise<void> {
  set({ ...snapshot, status: snapshot.status === "ready" ? "ready" : "loading", error: null });
  try {
    const threads = await listThreads();
    set({ threads: [...threads].sort(byRecency), status: "ready", error: null });
  } catch (error) {
    set({ ...snapshot, status: "error", error: error as ApiError });
  }
}

/** Inserts or replaces one thread (after creating it, or on `thread.updated`). */
export function upsertThreadInList(thread: Thread): void {
  const others = snapshot.threads.filter((t) => t.id !== thread.id);
  set({ ...snapshot, threads: [thread, ...others].sort(byRecency) });
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

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Subscribes a component to the thread list. */
export function useThreadList(): ThreadListState {
  return useSyncExternalStore(subscribe, () => snapshot);
}
