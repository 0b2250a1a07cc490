/**
 * The one subscribable primitive for client state (issue 34): a module or object that holds a
 * value keeps a `Signal` and calls `notify()` after each change; React reads it with
 * `useSyncExternalStore(signal.subscribe, getSnapshot)`. Server state (pages, the thread list)
 * is held the same way: see apps/web/README.md, "Client state", for why not TanStack Query.
 */
export interface Signal {
  /** Calls `listener` after every change; returns the unsubscribe function. */
  subscribe(listener: () => void): () => void;
  /** Tells every listener (in the order they subscribed). */
  notify(): void;
  /** Drops every listener (an owner being disposed). */
  clear(): void;
}

export function createSignal(): Signal {
  const listeners = new Set<() => void>();
  return {
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    notify() {
      for (const listener of [...listeners]) listener();
    },
    clear() {
      listeners.clear();
    },
  };
}
