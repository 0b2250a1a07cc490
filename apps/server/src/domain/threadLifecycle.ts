/**
 * A thread's life after creation (issue 31): rename, delete with an undo window, restore, and
 * the purge once the window is over. Renaming makes the title the user's (`custom`), so the
 * titler never replaces it, and publishes `thread.updated` to the thread's event stream (every
 * tab and process watching it). Deleting stops the thread's running and queued turns first,
 * hides it at once (lists, search, reads answer `thread_deleted`), and schedules the purge: one
 * transaction that removes the thread with everything it holds and publishes the new backlinks
 * (`message.cited`) of the messages it cited. A sweep purges what any process (or a restart)
 * left deleted past its window.
 */
import type { Thread, ThreadDeletion } from "@app/protocol";
import type { ChatStore } from "../storage/chatStore.ts";
import { type Clock, type ClockTimer, realClock } from "./clock.ts";
import { DomainError, threadDeleted, threadNotFound } from "./errors.ts";
import type { ThreadEventLog } from "./events.ts";

/** How long a deleted thread can be restored (DESIGN.md section 9). */
export const UNDO_WINDOW_MS = 10_000;
/** Longest title, in UTF-16 units (as at creation). */
export const MAX_TITLE_LENGTH = 200;
/** Threads purged per sweep transaction round. */
const PURGE_BATCH = 20;

/** Stops a thread's unfinished turns (the provider service's `cancelTurn`). */
export interface TurnStopper {
  cancelTurn(threadId: string, turnId: string): Promise<unknown>;
}

export interface ThreadLifecycleOptions {
  store: ChatStore;
  events: ThreadEventLog;
  turns: TurnStopper;
  undoWindowMs?: number;
  /** The deletion stamps, the purge timer and the sweep (default: Node's; tests advance a `ManualClock`). */
  clock?: Clock;
  /** Told of a purge that failed (it is tried again at the next sweep). */
  onPurgeError?: (threadId: string, error: unknown) => void;
}

export class ThreadLifecycle {
  readonly #store: ChatStore;
  readonly #events: ThreadEventLog;
  readonly #turns: TurnStopper;
  readonly #undoWindowMs: number;
  readonly #clock: Clock;
  readonly #onPurgeError: (threadId: string, error: unknown) => void;
  readonly #timers = new Set<ClockTimer>();
  #sweeper: ClockTimer | null = null;
  #sweeping: Promise<void> | null = null;
  #closed = false;

  constructor(options: ThreadLifecycleOptions) {
    this.#store = options.store;
    this.#events = options.events;
    this.#turns = options.turns;
    this.#undoWindowMs = options.undoWindowMs ?? UNDO_WINDOW_MS;
    this.#clock = options.clock ?? realClock;
    this.#onPurgeError = options.onPurgeError ?? (() => {});
  }

  /** Sweeps now and then every window: deletions another process or a restart left behind. */
  start(): void {
    if (this.#sweeper !== null || this.#closed) return;
    this.#sweeper = this.#clock.setInterval(
      () => this.#sweep(),
      Math.max(this.#undoWindowMs, 1000),
    );
    this.#sweeper.unref();
    this.#sweep();
  }

  /** Renames a listed or new thread. Throws `invalid_request`, `thread_not_found`/`_deleted`. */
  async rename(threadId: string, rawTitle: string): Promise<Thread> {
    const title = rawTitle.replace(/\s+/g, " ").trim();
    if (title === "") throw new DomainError("invalid_request", "The title is empty.");
    if (title.length > MAX_TITLE_LENGTH) {
      throw new DomainError(
        "invalid_request",
        `The title is ${title.length} characters long; the most is ${MAX_TITLE_LENGTH}.`,
      );
    }
    return this.#events.atomically(async (w) => {
      const record = await w.tx.getThread(threadId);
      if (!record) throw threadNotFound(threadId);
      if (record.deletedAt !== null) throw threadDeleted(threadId, false);
      const thread = (await w.tx.renameThread({ id: threadId, title }))!;
      await w.publish(threadId, { type: "thread.updated", thread });
      return thread;
    });
  }

  /**
   * Deletes a thread with an undo window: its turns are stopped first, then it is hidden.
   * Deleting a deleted thread again returns it unchanged.
   */
  async delete(threadId: string): Promise<ThreadDeletion> {
    const record = await this.#store.getThread(threadId);
    if (!record) throw await this.#missing(threadId);
    if (record.deletedAt !== null) return this.#deletion(record.thread, record.deletedAt);
    await this.#stopTurns(threadId);
    const deletedAt = new Date(this.#clock.now()).toISOString();
    const deleted = await this.#store.transaction((tx) =>
      tx.setThreadDeleted({ id: threadId, deletedAt }),
    );
    if (!deleted) throw threadNotFound(threadId);
    // Every process's thread list drops it (no event on its stream says so).
    await this.#events.announce(threadId);
    this.#schedulePurge();
    return this.#deletion(deleted.thread, deletedAt);
  }

  /** Brings a deleted thread back whole within its window; a thread not deleted is returned. */
  async restore(threadId: string): Promise<ThreadDeletion> {
    const restored = await this.#store.transaction(async (tx) => {
      const record = await tx.getThread(threadId);
      if (!record) throw await this.#missing(threadId);
      if (record.deletedAt === null) return { thread: record.thread, restorableUntil: null };
      const back = (await tx.setThreadDeleted({ id: threadId, deletedAt: null }))!;
      return { thread: back.thread, restorableUntil: null };
    });
    await this.#events.announce(threadId);
    return restored;
  }

  /** Purges every thread deleted longer ago than the window (one transaction each). */
  purgeExpired(): Promise<void> {
    this.#sweeping ??= this.#purgeExpired().finally(() => {
      this.#sweeping = null;
    });
    return this.#sweeping;
  }

  /** Stops the timers (a purge under way finishes). */
  async close(): Promise<void> {
    this.#closed = true;
    if (this.#sweeper !== null) this.#clock.clearInterval(this.#sweeper);
    for (const timer of this.#timers) this.#clock.clearTimeout(timer);
    this.#timers.clear();
    await this.#sweeping;
  }

  /** Purges one deleted thread now, whatever its window (tests, the sweep). */
  async purge(threadId: string): Promise<boolean> {
    return this.#events.atomically(async (w) => {
      const purged = await w.tx.purgeThread(threadId);
      if (!purged) return false;
      for (const cited of purged.citedMessages) {
        const source = await w.tx.getThread(cited.threadId);
        if (!source) continue;
        await w.publish(cited.threadId, {
          type: "message.cited",
          messageId: cited.messageId,
          citedBy: cited.citedBy,
        });
      }
      return true;
    });
  }

  /** A sweep from a timer: a storage fault is reported, never thrown (it is tried again). */
  #sweep(): void {
    this.purgeExpired().catch((error: unknown) => this.#onPurgeError("(sweep)", error));
  }

  async #purgeExpired(): Promise<void> {
    const cutoff = new Date(this.#clock.now() - this.#undoWindowMs).toISOString();
    for (;;) {
      const ids = await this.#store.threadsDeletedBefore(cutoff, PURGE_BATCH);
      let purgedAny = false;
      for (const id of ids) {
        try {
          if (await this.purge(id)) purgedAny = true;
        } catch (error) {
          this.#onPurgeError(id, error);
        }
      }
      if (ids.length < PURGE_BATCH || !purgedAny) return;
    }
  }

  #schedulePurge(): void {
    if (this.#closed) return;
    const timer = this.#clock.setTimeout(() => {
      this.#timers.delete(timer);
      this.#sweep();
    }, this.#undoWindowMs + 50);
    timer.unref();
    this.#timers.add(timer);
  }

  async #stopTurns(threadId: string): Promise<void> {
    // The active turn is the oldest unfinished one: stop them one by one (bounded).
    for (let i = 0; i < 1000; i++) {
      const turn = await this.#store.activeTurn(threadId);
      if (!turn) return;
      try {
        await this.#turns.cancelTurn(threadId, turn.id);
      } catch (error) {
        // It ended meanwhile: the next round finds the next one (or none).
        if (!(error instanceof DomainError && error.code === "turn_not_running")) throw error;
      }
    }
  }

  #deletion(thread: Thread, deletedAt: string): ThreadDeletion {
    const until = new Date(Date.parse(deletedAt) + this.#undoWindowMs).toISOString();
    return { thread, restorableUntil: until };
  }

  async #missing(threadId: string): Promise<DomainError> {
    return (await this.#store.threadWasPurged(threadId))
      ? threadDeleted(threadId, true)
      : threadNotFound(threadId);
  }
}
