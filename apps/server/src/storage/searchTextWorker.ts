/**
 * The worker thread of `searchTextRenderer.ts`: renders queued messages' search text, so a long
 * reply's Markdown parse (about 0.6 s for 600,000 characters in one paragraph) never runs on the
 * server's event loop. Bundled as `dist/searchTextWorker.mjs` (scripts/build.mjs).
 */
import { readlinkSync } from "node:fs";
import { setPriority } from "node:os";
import { isMainThread, parentPort } from "node:worker_threads";
import { searchTextOf } from "./searchText.ts";

/**
 * The nice value of this thread (Linux; issue 33). Indexing is background work that searches
 * wait for, never the turn path: below the event loop's priority it renders on CPU the server's
 * own threads leave idle, so under load it never takes a core from the thread that serves
 * requests (it fell behind and caught up after a burst before too: its queue is in the database).
 */
const SEARCH_WORKER_NICE = 10;

/** Lowers this thread alone (Linux `setpriority` on its thread id); elsewhere nothing changes. */
function lowerPriority(): void {
  try {
    // "<pid>/task/<tid>"
    const tid = Number(readlinkSync("/proc/thread-self").split("/").pop());
    if (Number.isInteger(tid) && tid > 0) setPriority(tid, SEARCH_WORKER_NICE);
  } catch {
    // Not Linux, or not allowed: the worker runs at the process's priority.
  }
}

// Only as the worker: never the thread that imports this module for its types.
if (!isMainThread) lowerPriority();

export interface SearchTextRequest {
  id: number;
  role: "user" | "assistant";
  markdown: string;
}

export type SearchTextReply = { id: number; text: string } | { id: number; error: string };

parentPort?.on("message", ({ id, role, markdown }: SearchTextRequest) => {
  let reply: SearchTextReply;
  try {
    reply = { id, text: searchTextOf(role, markdown) };
  } catch (error) {
    reply = { id, error: error instanceof Error ? error.message : String(error) };
  }
  parentPort!.postMessage(reply);
});
