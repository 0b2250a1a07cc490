/**
 * "New thread" opens the home composer as a draft (DESIGN.md section 6): the thread exists on
 * the server only from its first send. The sidebar asks here; the home page, once its composer
 * is ready, takes the request and focuses it. A module value rather than router state, so a
 * click while already home (no navigation) still reaches the page.
 */
let pending = false;
const listeners = new Set<() => void>();

/** Asks the home page to focus its composer (now if it is shown, else when it mounts). */
export function requestNewThread(): void {
  pending = true;
  for (const listener of listeners) listener();
}

/** Takes a pending request: true once per {@link requestNewThread}. */
export function takeNewThreadRequest(): boolean {
  const was = pending;
  pending = false;
  return was;
}

/** Calls `listener` on every request; returns the unsubscribe function. */
export function onNewThreadRequest(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
