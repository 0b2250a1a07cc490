/**
 * A thread opened by a control that goes away with the page it was on (the home composer's first
 * send, **Branch in new thread**) would leave focus on `<body>`, and what the user types next
 * would be lost. Such a control asks here before it navigates; the new thread's view then mounts
 * its composer at once (not after the first rows, as `ThreadComposer.tsx` otherwise waits) and
 * takes the request as it mounts, focusing it.
 * A module value, as `threads/newThreadRequest.ts`: the view asked for is not mounted yet.
 */

let requestedThreadId: string | null = null;

/** Asks the view of `threadId`, about to open, to focus its composer once it mounts. */
export function requestComposerFocus(threadId: string): void {
  requestedThreadId = threadId;
}

/** Whether a request for `threadId` is pending (read only; see {@link takeComposerFocusRequest}). */
export function isComposerFocusRequested(threadId: string): boolean {
  return requestedThreadId === threadId;
}

/** Takes a pending request for `threadId`: true once per {@link requestComposerFocus}. */
export function takeComposerFocusRequest(threadId: string): boolean {
  if (requestedThreadId !== threadId) return false;
  requestedThreadId = null;
  return true;
}
