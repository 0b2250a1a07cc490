/**
 * The per-thread event log behind `GET /api/threads/:threadId/events`.
 *
 * Resume design: every event, deltas included, is written to the store with the next id of the
 * thread's sequence (threads.last_event_id) in the same transaction as the state change it
 * describes, so a client that reconnects with `Last-Event-ID: n` is replayed exactly the events
 * after n from the database and then continues live, each once. When a message completes, its
 * delta rows are deleted (compaction): the `message.completed` event that follows them carries the
 * full text, so a client resuming from before or in the middle of the deltas still ends with the
 * whole message, and the log stays small. Listeners are notified only after the transaction
 * commits, by the store ({@link ChatStore.onCommittedEvents}): at once with SQLite, through
 * `LISTEN/NOTIFY` with PostgreSQL, whichever process committed. A subscriber's listener is
 * registered before the last stored id is read, so every event after its resume point is either
 * replayed or delivered live (the SSE layer drops the ids it already sent).
 *
 * Streaming text is stored first too (issue 29: what a reader saw stays after a crash): the
 * writer stores a delta row every ~100 ms, and after each commit {@link ThreadEventLog.broadcast}
 * hands the same text to listeners without an id. A shared store also passes it to the other
 * processes ({@link ChatStore.shareLiveDelta}, batched every few milliseconds), whose listeners
 * get it the same way even when the rows are compacted before they read them. The SSE layer
 * sends each character once per client and moves the client's `Last-Event-ID` forward over
 * stored rows whose text it already has.
 */
import type { ServerEvent } from "@app/protocol";
import type { ChatQueries, ChatStore, LiveDelta, StoredEvent } from "../storage/chatStore.ts";

/** An event as listeners get it: stored ones have an id, broadcast deltas have `id: null`. */
export interface LiveEvent {
  id: number | null;
  event: ServerEvent;
  /** `JSON.stringify(event)`, computed once for every listener. */
  data: string;
}

/** Receives events of one thread in order. */
export type EventListener = (event: LiveEvent) => void;

/**
 * A subscription. Events with ids in (afterId, replayUntil] are stored and read with
 * {@link ThreadEventLog.readStored} in pages; every later one reaches the listener.
 */
export interface EventSubscription {
  /** Last id already stored when the subscription began (null: live only). */
  replayUntil: number | null;
  unsubscribe(): void;
}

/** A transaction's queries plus {@link EventTx.publish}. */
export interface EventTx {
  tx: ChatQueries;
  /** Persists `event` in this transaction and returns its id. */
  publish(threadId: string, event: ServerEvent): Promise<number>;
}

export class ThreadEventLog {
  readonly #store: ChatStore;
  readonly #listeners = new Map<string, Set<EventListener>>();

  readonly #threadListeners = new Set<(threadId: string) => void>();

  constructor(store: ChatStore) {
    this.#store = store;
    store.onCommittedEvents((threadId, events) => {
      this.#deliver(threadId, events);
      this.#threadChanged(threadId);
    });
    store.onLiveDeltas?.((threadId, event) => this.#deliverLive(threadId, event));
    store.onThreadNotified?.((threadId) => this.#threadChanged(threadId));
  }

  /**
   * Calls `listener` with the id of each thread that changed: an event committed (any thread;
   * by any process with a shared store) or an {@link announce}. The same thread may come more
   * than once; the thread list feed reads it again.
   */
  onThreadChanged(listener: (threadId: string) => void): () => void {
    this.#threadListeners.add(listener);
    return () => this.#threadListeners.delete(listener);
  }

  /**
   * A change to a thread that has no event on its stream (deleted, restored, purged, created
   * by a branch), for every process's thread list: call it after the commit.
   */
  async announce(threadId: string): Promise<void> {
    if (this.#store.announceThread) await this.#store.announceThread(threadId);
    else this.#threadChanged(threadId);
  }

  #threadChanged(threadId: string): void {
    for (const listener of this.#threadListeners) listener(threadId);
  }

  /**
   * Runs `fn` in one transaction; events published inside reach listeners only after the
   * commit (and never if it rolls back).
   */
  atomically<T>(fn: (w: EventTx) => Promise<T>): Promise<T> {
    return this.#store.transaction((tx) =>
      fn({
        tx,
        // Serialized once, for the stored row and for every listener.
        publish: (threadId, event) => tx.appendEvent(threadId, event, JSON.stringify(event)),
      }),
    );
  }

  /**
   * Hands a stored `message.delta` to this process's listeners at once (no id), and to other
   * processes' through a shared store (the writer calls it after the commit that stored the
   * text with {@link EventTx.publish}).
   */
  broadcast(threadId: string, event: LiveDelta): void {
    this.#store.shareLiveDelta?.(threadId, event);
    this.#deliverLive(threadId, event);
  }

  /** True when other processes share the store (their readers get chunks through it). */
  get shared(): boolean {
    return this.#store.shared;
  }

  /**
   * Resolves once every chunk broadcast so far has gone to the other processes (at once when
   * the store is not shared): a transaction committed afterwards reaches them after those
   * chunks, e.g. a message's last chunk before its `message.completed`.
   */
  broadcastSent(): Promise<void> {
    return this.#store.flushLiveDeltas?.() ?? Promise.resolve();
  }

  /**
   * Subscribes to a thread's live events. With `afterId`, the stored events after it up to
   * `replayUntil` are the caller's to read ({@link readStored}); the listener is registered
   * before `replayUntil` is read, so each event is delivered at least once and the caller
   * skips ids it has sent.
   */
  async subscribe(
    threadId: string,
    afterId: number | null,
    listener: EventListener,
  ): Promise<EventSubscription> {
    let set = this.#listeners.get(threadId);
    if (!set) {
      set = new Set();
      this.#listeners.set(threadId, set);
    }
    set.add(listener);
    const unsubscribe = () => {
      const current = this.#listeners.get(threadId);
      if (!current?.delete(listener)) return;
      if (current.size === 0) this.#listeners.delete(threadId);
      this.#store.unwatch(threadId);
    };
    try {
      await this.#store.watch(threadId);
      // Live only (a turn runner watching its own thread): no replay, nothing to read.
      if (afterId === null) return { replayUntil: null, unsubscribe };
      const lastId = (await this.#store.getThread(threadId))?.lastEventId ?? 0;
      return { replayUntil: lastId, unsubscribe };
    } catch (error) {
      unsubscribe();
      throw error;
    }
  }

  /** Up to `limit` stored events with afterId < id <= untilId, in id order. */
  async readStored(
    threadId: string,
    afterId: number,
    untilId: number,
    limit: number,
  ): Promise<StoredEvent[]> {
    return (await this.#store.eventsAfter(threadId, afterId, limit)).filter((e) => e.id <= untilId);
  }

  /** The id of the thread's last stored event (0 when it has none). */
  async lastEventId(threadId: string): Promise<number> {
    return (await this.#store.getThread(threadId))?.lastEventId ?? 0;
  }

  /** Number of live listeners on a thread (for tests and diagnostics). */
  listenerCount(threadId: string): number {
    return this.#listeners.get(threadId)?.size ?? 0;
  }

  #deliverLive(threadId: string, event: LiveDelta): void {
    const set = this.#listeners.get(threadId);
    if (!set) return;
    this.#notify(set, { id: null, event, data: JSON.stringify(event) });
  }

  #deliver(threadId: string, events: StoredEvent[]): void {
    const set = this.#listeners.get(threadId);
    if (!set) return;
    for (const stored of events) this.#notify(set, stored);
  }

  #notify(set: Set<EventListener>, live: LiveEvent): void {
    for (const listener of [...set]) {
      try {
        listener(live);
      } catch {
        // A failing listener (closed socket) must not break the writer or other listeners.
      }
    }
  }
}
