/**
 * The assistant messages of one running turn. Their text lives in memory while the provider
 * streams, and the database gets one `message.delta` row per message at most every
 * `flushIntervalMs` or `flushChars` characters, in one transaction. A write therefore costs
 * O(chunk), however long the message grows; the whole text is written once, when the message
 * finishes.
 *
 * What a reader saw stays (issue 29): text reaches readers only once it is stored. Each flush's
 * rows are events (listeners get them after the commit), and after the commit the same text is
 * also broadcast ({@link ThreadEventLog.broadcast}), so other processes of a shared store get it
 * even when the message finishes, and its rows are compacted, before they read them. A crash
 * therefore never takes back text a client was shown; readers see a reply in flushes (~100 ms).
 *
 * Writes run one after another in the background (the adapter's `append` and `complete` never
 * wait for storage); {@link TurnWriter.settled} resolves once every queued write is done, which
 * the turn's final record waits for.
 *
 * Storage faults never escape to the adapter's stream: the text stays in memory and the turn is
 * stopped (`onStop`), to be recorded as failed, with that text, once storage accepts it.
 */

import { truncateText } from "@app/citations";
import type { ProviderMessageWriter } from "../providers/types.ts";
import { isStorageFault, StorageUnavailableError } from "../storage/storageErrors.ts";
import { type Clock, type ClockTimer, realClock } from "./clock.ts";
import type { EventTx, ThreadEventLog } from "./events.ts";
import { newId } from "./ids.ts";
import { publishCreated } from "./messageCreated.ts";
import { TurnLeaseLost } from "./turnLease.ts";
import { TurnStop } from "./turnStop.ts";

export const DEFAULT_FLUSH_INTERVAL_MS = 100;
export const DEFAULT_FLUSH_CHARS = 64 * 1024;

export interface TurnWriterOptions {
  threadId: string;
  turnId: string;
  events: ThreadEventLog;
  now: () => string;
  /** Characters (UTF-16 units) all messages of the turn may hold together. */
  maxReplyChars: number;
  flushIntervalMs?: number;
  flushChars?: number;
  /** Runs the periodic flush (default {@link realClock}; tests advance a manual one). */
  clock?: Clock;
  /** The provider wrote something (restarts the idle deadline). */
  onActivity(): void;
  /** The turn must stop: the reply is too long or storage failed. */
  onStop(stop: TurnStop): void;
  /** Run first in every write's transaction: throws {@link TurnLeaseLost} once the turn is not ours. */
  guard(w: EventTx): Promise<void>;
  /** A write found the lease lost: nothing more is written, the turn is abandoned. */
  onLeaseLost(): void;
}

type BufferedMessage = {
  id: string;
  kind: "progress" | "answer";
  text: string;
  /** Length of the text already stored as delta rows. */
  stored: number;
  /** The adapter called complete(). */
  completed: boolean;
  /** Its whole text and final status are stored. */
  finished: boolean;
  /** Its row exists (the queued insert committed). */
  created: boolean;
};

export class TurnWriter {
  readonly #o: TurnWriterOptions;
  readonly #messages: BufferedMessage[] = [];
  readonly #flushIntervalMs: number;
  readonly #flushChars: number;
  readonly #clock: Clock;
  #replyChars = 0;
  #pendingChars = 0;
  #open = true;
  #timer: ClockTimer | undefined;
  #completing: NodeJS.Immediate | undefined;
  /** Queued writes, one at a time, in order. */
  #writes: Promise<void> = Promise.resolve();
  #flushQueued = false;
  /** A write failed: later ones are skipped, the final record stores everything. */
  #failed = false;

  constructor(options: TurnWriterOptions) {
    this.#o = options;
    this.#flushIntervalMs = options.flushIntervalMs ?? DEFAULT_FLUSH_INTERVAL_MS;
    this.#flushChars = options.flushChars ?? DEFAULT_FLUSH_CHARS;
    this.#clock = options.clock ?? realClock;
  }

  /** Starts a message (stored at once, so clients see it). */
  startMessage(kind: "progress" | "answer"): ProviderMessageWriter {
    if (kind !== "progress" && kind !== "answer") {
      throw new TypeError(
        `startMessage: kind must be "progress" or "answer", got ${String(kind)}.`,
      );
    }
    if (!this.#open) throw new Error("startMessage: the turn has finished.");
    this.#o.onActivity();
    const { threadId, turnId } = this.#o;
    const message: BufferedMessage = {
      id: newId(),
      kind,
      text: "",
      stored: 0,
      completed: false,
      finished: false,
      created: false,
    };
    this.#messages.push(message);
    // Stored before any later write of this turn (the queue keeps order), so clients see it.
    this.#enqueue(async () => {
      await this.#o.events.atomically(async (w) => {
        await this.#o.guard(w);
        const created = await w.tx.insertAssistantMessage({
          id: message.id,
          threadId,
          turnId,
          kind,
          text: "",
          status: "streaming",
          now: this.#o.now(),
        });
        await publishCreated(w, threadId, created);
      });
      message.created = true;
    });
    return {
      append: (chunk: string) => this.#append(message, chunk),
      complete: () => this.#complete(message),
    };
  }

  /** Queues a write of every message's unsaved text (one transaction). */
  flush(): void {
    this.#clock.clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#pendingChars === 0 || this.#flushQueued) return;
    this.#flushQueued = true;
    this.#enqueue(async () => {
      this.#flushQueued = false;
      await this.#commit(async () => {});
    });
  }

  /** Resolves once every queued write has run (a failed one has stopped the turn). */
  settled(): Promise<void> {
    return this.#writes;
  }

  /**
   * Before the turn's final record: stores and sends the text not stored yet, so readers on
   * every process get a reply's last characters as deltas, not only inside
   * `message.completed`. Resolves once done (a failure has stopped the turn and is ignored:
   * the final record stores everything).
   */
  async flushBeforeFinish(): Promise<void> {
    this.#clock.clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#enqueue(() => this.#flushTail());
    await this.#writes;
  }

  /**
   * One transaction with every message's unsaved text, then its broadcast sent on. Only for a
   * shared store: with SQLite every reader is in this process and gets the completion's own
   * delta rows from the commit, so the extra transaction would buy nothing.
   */
  async #flushTail(): Promise<void> {
    if (this.#pendingChars === 0 || !this.#o.events.shared) return;
    await this.#commit(async () => {});
    await this.#o.events.broadcastSent();
  }

  /**
   * The turn was ended by another process, which stored its messages as they stood: queued
   * writes are dropped, so nothing lands after that record.
   */
  abandon(): void {
    this.#failed = true;
    this.close();
  }

  /** Accepts no more writes (the turn is over; late writes of an adapter are dropped). */
  close(): void {
    this.#open = false;
    this.#clock.clearTimeout(this.#timer);
    this.#timer = undefined;
    clearImmediate(this.#completing);
    this.#completing = undefined;
  }

  /**
   * Inside the caller's transaction (after {@link settled}): writes each unfinished message
   * whole, with `status` (a message the adapter completed is always `complete`), and publishes
   * it. Call {@link markFinished} after the commit.
   */
  async finishAll(w: EventTx, status: "complete" | "error"): Promise<void> {
    for (const message of this.#messages) {
      if (!message.created) {
        // Its insert failed on a storage fault: store it now, whole.
        const created = await w.tx.insertAssistantMessage({
          id: message.id,
          threadId: this.#o.threadId,
          turnId: this.#o.turnId,
          kind: message.kind,
          text: "",
          status: "streaming",
          now: this.#o.now(),
        });
        await publishCreated(w, this.#o.threadId, created);
      }
      if (!message.finished) {
        await this.#finish(w, message, message.completed ? "complete" : status);
      }
    }
  }

  markFinished(): void {
    for (const message of this.#messages) {
      message.created = true;
      message.finished = true;
      message.stored = message.text.length;
    }
    this.#pendingChars = 0;
  }

  #append(message: BufferedMessage, chunk: string): void {
    if (typeof chunk !== "string") throw new TypeError("append: chunk must be a string.");
    if (message.completed) throw new Error("append: the message is already complete.");
    if (!this.#open || chunk === "") return;
    this.#o.onActivity();
    const room = this.#o.maxReplyChars - this.#replyChars;
    const text = truncateText(chunk, room);
    if (text !== "") {
      message.text += text;
      this.#replyChars += text.length;
      this.#pendingChars += text.length;
      if (this.#pendingChars >= this.#flushChars) this.flush();
      else this.#timer ??= this.#clock.setTimeout(() => this.flush(), this.#flushIntervalMs);
    }
    if (text.length < chunk.length) {
      const limit = this.#o.maxReplyChars.toLocaleString("en-US");
      this.#o.onStop(
        new TurnStop(
          "reply_too_long",
          `The reply was stopped at the limit of ${limit} characters (MAX_REPLY_CHARS); the text up to it is kept.`,
        ),
      );
    }
  }

  /**
   * Stored after the current burst of work: when the adapter returns right after completing its
   * answer (the usual case), the turn's final record stores the message in the same transaction.
   */
  #complete(message: BufferedMessage): void {
    if (message.completed) return;
    message.completed = true;
    if (!this.#open) return;
    this.#o.onActivity();
    this.#completing ??= setImmediate(() => this.#storeCompleted());
  }

  #storeCompleted(): void {
    this.#completing = undefined;
    if (!this.#open) return;
    this.#clock.clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#enqueue(async () => {
      const done = this.#messages.filter((message) => message.completed && !message.finished);
      if (done.length === 0) return;
      // The last chunks first, stored and sent on their own: readers on every process get
      // them as deltas before the completion (whose commit compacts the delta rows).
      await this.#flushTail();
      await this.#commit(async (w) => {
        for (const message of done) await this.#finish(w, message, "complete");
      });
      for (const message of done) message.finished = true;
    });
  }

  #broadcast(message: BufferedMessage, offset: number, delta: string): void {
    this.#o.events.broadcast(this.#o.threadId, {
      type: "message.delta",
      messageId: message.id,
      offset,
      delta,
    });
  }

  /** Runs `write` after the queued ones; a failure stops the turn (its text stays in memory). */
  #enqueue(write: () => Promise<void>): void {
    this.#writes = this.#writes.then(async () => {
      if (this.#failed) return;
      try {
        await write();
      } catch (error) {
        this.#failed = true;
        if (error instanceof TurnLeaseLost) {
          this.#o.onLeaseLost();
          return;
        }
        if (!isStorageFault(error)) console.error("A reply write failed:", error);
        this.#o.onStop(storageStop(error));
      }
    });
  }

  /** One transaction: the unsaved text of every message as delta rows, then `more`. */
  async #commit(more: (w: EventTx) => Promise<void>): Promise<void> {
    const marks: [BufferedMessage, number, string][] = [];
    await this.#o.events.atomically(async (w) => {
      await this.#o.guard(w);
      for (const message of this.#messages) {
        if (!message.created || message.finished || message.stored === message.text.length) {
          continue;
        }
        // The length is taken with the slice, before the await: on PostgreSQL the publish
        // yields, and chunks appended meanwhile belong to the next flush, not to this row.
        const length = message.text.length;
        const delta = message.text.slice(message.stored, length);
        marks.push([message, length, delta]);
        await w.publish(this.#o.threadId, {
          type: "message.delta",
          messageId: message.id,
          offset: message.stored,
          delta,
        });
      }
      await more(w);
    });
    // Only after the commit: a rolled-back flush keeps its text pending. Text appended while
    // the transaction ran stays pending for the next flush.
    for (const [message, length, delta] of marks) {
      this.#broadcast(message, message.stored, delta);
      this.#pendingChars -= length - message.stored;
      message.stored = length;
    }
  }

  async #finish(w: EventTx, message: BufferedMessage, status: "complete" | "error"): Promise<void> {
    const finished = await w.tx.finishMessage(message.id, message.text, status);
    await w.publish(this.#o.threadId, { type: "message.completed", message: finished });
    await w.tx.deleteDeltaEvents(message.id);
  }
}

function storageStop(error: unknown): TurnStop {
  const detail = error instanceof StorageUnavailableError ? ` ${error.message}` : "";
  return new TurnStop(
    "storage_unavailable",
    `The server could not save the reply, so the turn was stopped.${detail}`,
  );
}
