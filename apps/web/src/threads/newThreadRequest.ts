/**
 * "New thread" opens the home composer as a draft (DESIGN.md section 6): the thread exists on
 * the server only from its first send. The sidebar asks here; the home page, once its composer
 * is ready, takes the request and focuses it. A module value rather than router state, so a
 * click while already home (no navigation) still reaches the page.
 */
import { createSignal } from "../ui/signal.ts";

let pending = false;
const requested = createSignal();

/** Asks the home page to focus its composer (now if it is shown, else when it mounts). */
export function requestNewThread(): void {
  pending = true;
  setComposing(true);
  requested.notify();
}

/** Takes a pending request: true once per {@link requestNewThread}. */
export function takeNewThreadRequest(): boolean {
  const was = pending;
  pending = false;
  return was;
}

/** Calls `listener` on every request; returns the unsubscribe function. */
export function onNewThreadRequest(listener: () => void): () => void {
  return requested.subscribe(listener);
}

/*
 * Narrow screens show one pane at a time: the home page lists threads until **New thread** asks
 * for the composer ("composing"), and its **Threads** button goes back to the list. Wide screens
 * show both and ignore the flag.
 */
let composing = false;
const composingChanged = createSignal();

function setComposing(value: boolean): void {
  if (composing === value) return;
  composing = value;
  composingChanged.notify();
}

/** True while the home page shows its composer instead of the list on a narrow screen. */
export function isComposing(): boolean {
  return composing;
}

/** Back to the thread list (narrow screens); also when the home page goes away. */
export function leaveComposer(): void {
  setComposing(false);
}

/** Calls `listener` whenever {@link isComposing} changes; returns the unsubscribe function. */
export function onComposingChange(listener: () => void): () => void {
  return composingChanged.subscribe(listener);
}
