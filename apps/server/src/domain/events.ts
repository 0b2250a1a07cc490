/**
 * The per-thread event log behind `GET /api/threads/:threadId/events`.
 *
 * Resume design: every event, deltas included, is written to SQLite with the next id of the
 * thread's sequence (threads.last_event_id) in the same transaction as the state change it
 * describes, so a client that reconnects with `Last-Event-ID: n` is replayed exactly the events
 * after n from the database and then continues live, each once. When a message completes, its
 * delta rows are deleted (compaction): the `message.completed` event that follows them carries the
 * full text, so a client resuming from before or in the middle of the deltas still ends with the
 * whole message, and the log stays small. Listeners are notified only after the transaction
 * commits; replay-then-subscribe happens in one synchronous step, so nothing can slip between them.
 *
 * Streaming text is the one exception to "stored first": {@link ThreadEventLog.broadcast} hands a
 * chunk to listeners at once, without an id, so readers see every delta immediately while the
 * database is written only every ~100 ms (one delta row per flush). The SSE layer sends each
 * character once per client and moves the client's `Last-Event-ID` forward when the stored
 * row covering those characters commits.
 */
import type { ServerEvent } from "@app/protocol";
import type { ChatRepository, StoredEvent } from "../storage/repository.ts";

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

export class ThreadEventLog {
  readonly #repo: ChatRepository;
  readonly #listeners = new Map<string, Set<EventListener>>();
  #pending: { threadId: string; live: LiveEvent }[] = [];
  #depth = 0;

  constructor(repo: ChatRepository) {
    this.#repo = repo;
  }

  /**
   * Runs `fn` in one database transaction; events published inside reach listeners only after
   * the commit (and never if it rolls back).
   */
  atomically<T>(fn: () => T): T {
    const mark = this.#pending.length;
    this.#depth++;
    let result: T;
    try {
      result = this.#repo.transaction(fn);
    } catch (error) {
      this.#depth--;
      // Drop what the rolled-back (inner) transaction published.
      this.#pending.length = mark;
      throw error;
    }
    this.#depth--;
    if (this.#depth === 0) this.#flush();
    return result;
  }

  /** Persists `event` (inside {@link atomically}) and returns its id. */
  publish(threadId: string, event: ServerEvent): number {
    if (this.#depth === 0) throw new Error("ThreadEventLog.publish must run inside atomically().");
    // Serialized once, for the stored row and for every listener.
    const data = JSON.stringify(event);
    const id = this.#repo.appendEvent(threadId, event, data);
    this.#pending.push({ threadId, live: { id, event, data } });
    return id;
  }

  /**
   * Hands a not yet stored `message.delta` to the thread's listeners at once (no id). The
   * caller stores the same text later with {@link publish}, which then carries the id.
   */
  broadcast(threadId: string, event: ServerEvent & { type: "message.delta" }): void {
    const set = this.#listeners.get(threadId);
    if (!set) return;
    this.#notify(set, { id: null, event, data: JSON.stringify(event) });
  }

  /**
   * Subscribes to a thread's live events. With `afterId`, the stored events after it up to
   * `replayUntil` are the caller's to read ({@link readStored}); registering the listener and
   * fixing `replayUntil` happen in one synchronous step, so each event is delivered exactly once.
   */
  subscribe(threadId: string, afterId: number | null, listener: EventListener): EventSubscription {
    const lastId = this.#repo.getThread(threadId)?.lastEventId ?? 0;
    const replayUntil = afterId === null ? null : lastId;
    let set = this.#listeners.get(threadId);
    if (!set) {
      set = new Set();
      this.#listeners.set(threadId, set);
    }
    set.add(listener);
    return {
      replayUntil,
      unsubscribe: () => {
        const current = this.#listeners.get(threadId);
        current?.delete(listener);
        if (current?.size === 0) this.#listeners.delete(threadId);
      },
    };
  }

  /** Up to `limit` stored events with afterId < id <= untilId, in id order. */
  readStored(threadId: string, afterId: number, untilId: number, limit: number): StoredEvent[] {
    return this.#repo.eventsAfter(threadId, afterId, limit).filter((e) => e.id <= untilId);
  }

  /** Number of live listeners on a thread (for tests and diagnostics). */
  listenerCount(threadId: string): number {
    return this.#listeners.get(threadId)?.size ?? 0;
  }

  #flush(): void {
    const pending = this.#pending;
    this.#pending = [];
    for (const { threadId, live } of pending) {
      const set = this.#listeners.get(threadId);
      if (set) this.#notify(set, live);
    }
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
