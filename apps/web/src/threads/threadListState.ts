/**
 * The sidebar's thread list as pure data: the loaded threads in list order (newest `updatedAt`
 * first, then id, as the server pages them), the cursor of the next page, and the one change
 * type every live update goes through ({@link ThreadListChange}: upsert at its place, or
 * remove). No React, no DOM, no fetch.
 */
import type { Thread } from "@app/protocol";

/** Snapshot of the loaded part of the list. */
export type ThreadListData = {
  threads: readonly Thread[];
  /** Cursor of the next (older) page; null once every page is in. */
  nextCursor: string | null;
  /** True once the first page arrived. */
  loaded: boolean;
};

/**
 * A live change: a thread created, renamed, updated or restored (`upsert`, placed by its
 * `updatedAt`, so a new or branched thread lands at the top), or deleted (`remove`).
 */
export type ThreadListChange =
  | { type: "upsert"; thread: Thread }
  | { type: "remove"; threadId: string };

export const EMPTY_THREAD_LIST: ThreadListData = { threads: [], nextCursor: null, loaded: false };

/** List order: newest first, ties by id (the server's order). */
export function compareThreads(a: Thread, b: Thread): number {
  if (a.updatedAt !== b.updatedAt) return a.updatedAt < b.updatedAt ? 1 : -1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** Applies one live change. An upsert older than every loaded thread waits for its page. */
export function applyThreadListChange(
  list: ThreadListData,
  change: ThreadListChange,
): ThreadListData {
  const others = list.threads.filter(
    (t) => t.id !== (change.type === "upsert" ? change.thread.id : change.threadId),
  );
  if (change.type === "remove") {
    return others.length === list.threads.length ? list : { ...list, threads: others };
  }
  const last = others.at(-1);
  const beyondLoaded =
    list.nextCursor !== null && last !== undefined && compareThreads(change.thread, last) > 0;
  if (beyondLoaded) return { ...list, threads: others };
  return { ...list, threads: [...others, change.thread].sort(compareThreads) };
}

/** Adds the next page (its threads replace loaded copies of the same ids). */
export function appendThreadPage(
  list: ThreadListData,
  page: { threads: readonly Thread[]; nextCursor: string | null },
): ThreadListData {
  const ids = new Set(page.threads.map((t) => t.id));
  return {
    threads: [...list.threads.filter((t) => !ids.has(t.id)), ...page.threads].sort(compareThreads),
    nextCursor: page.nextCursor,
    loaded: true,
  };
}

/**
 * A fresh first page merged into the loaded list: the page is the truth down to its last
 * thread (a thread missing from that stretch was deleted or moved down); loaded threads older
 * than that stay, with the older cursor.
 */
export function mergeFirstPage(
  list: ThreadListData,
  page: { threads: readonly Thread[]; nextCursor: string | null },
): ThreadListData {
  const last = page.threads.at(-1);
  if (!list.loaded || page.nextCursor === null || last === undefined) {
    return { threads: [...page.threads], nextCursor: page.nextCursor, loaded: true };
  }
  const ids = new Set(page.threads.map((t) => t.id));
  const older = list.threads.filter((t) => !ids.has(t.id) && compareThreads(t, last) > 0);
  return {
    threads: [...page.threads, ...older],
    nextCursor: older.length > 0 ? list.nextCursor : page.nextCursor,
    loaded: true,
  };
}
