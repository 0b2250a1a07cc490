/**
 * Opening a thread's find bar at a given match from outside the thread view (search all
 * threads): the request waits here until the thread's `useThreadFind` takes it (at once when
 * that thread is open, else when it mounts). Plain module state; no React, no DOM.
 */

import { createSignal } from "../ui/signal.ts";
import type { FindMatch } from "./findState.ts";
import type { FindOptions } from "./textMatches.ts";

/** Where to open: the query as searched and the match to make current. */
export type FindRequest = {
  threadId: string;
  query: string;
  options: FindOptions;
  match: FindMatch;
};

let pending: FindRequest | null = null;
const requested = createSignal();

/** Leaves a request for `request.threadId`'s find bar (replacing any earlier one). */
export function requestFindAt(request: FindRequest): void {
  pending = request;
  requested.notify();
}

/** Takes the request for this thread, if one waits. */
export function takeFindRequest(threadId: string): FindRequest | null {
  if (pending === null || pending.threadId !== threadId) return null;
  const request = pending;
  pending = null;
  return request;
}

/** Called whenever a request is left. */
export function onFindRequest(listener: () => void): () => void {
  return requested.subscribe(listener);
}
