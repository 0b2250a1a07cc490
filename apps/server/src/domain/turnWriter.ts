/**
 * The assistant messages of one running turn. Their text lives in memory while the provider
 * streams: every chunk reaches SSE clients at once ({@link ThreadEventLog.broadcast}), and the
 * database gets one `message.delta` row per message at most every `flushIntervalMs` or
 * `flushChars` characters, in one transaction. A write therefore costs O(chunk), however long
 * the message grows; the whole text is written once, when the message finishes.
 *
 * Storage faults never escape to the adapter's stream: the text stays in memory and the turn is
 * stopped (`onStop`), to be recorded as failed, with that text, once storage accepts it.
 */
import { randomUUID } from "node:crypto";
import type { ProviderMessageWriter } from "../providers/types.ts";
import type { ChatRepository } from "../storage/repository.ts";
import { isStorageFault, StorageUnavailableError } from "../storage/storageErrors.ts";
import type { ThreadEventLog } from "./events.ts";
import { TurnStop } from "./turnStop.ts";

export const DEFAULT_FLUSH_INTERVAL_MS = 100;
export const DEFAULT_FLUSH_CHARS = 64 * 1024;

export interface TurnWriterOptions {
  threadId: string;
  turnId: string;
  repo: ChatRepository;
  events: ThreadEventLog;
  now: () => string;
  /** Characters (UTF-16 units) all messages of the turn may hold together. */
  maxReplyChars: number;
  flushIntervalMs?: number;
  flushChars?: number;
  /** The provider wrote something (restarts the idle deadline). */
  onActivity(): void;
  /** The turn must stop: the reply is too long or storage failed. */
  onStop(stop: TurnStop): void;
}

type BufferedMessage = {
  id: string;
  text: string;
  /** Length of the text already stored as delta rows. */
  stored: number;
  /** The adapter called complete(). */
  completed: boolean;
  /** Its whole text and final status are stored. */
  finished: boolean;
};

export class TurnWriter {
  readonly #o: TurnWriterOptions;
  readonly #messages: BufferedMessage[] = [];
  readonly #flushIntervalMs: number;
  readonly #flushChars: number;
  #replyChars = 0;
  #pendingChars = 0;
  #open = true;
  #timer: NodeJS.Timeout | undefined;
  #completing: NodeJS.Immediate | undefined;

  constructor(options: TurnWriterOptions) {
    this.#o = options;
    this.#flushIntervalMs = options.flushIntervalMs ?? DEFAULT_FLUSH_INTERVAL_MS;
    this.#flushChars = options.flushChars ?? DEFAULT_FLUSH_CHARS;
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
    let id: string;
    try {
      id = this.#o.events.atomically(() => {
        const created = this.#o.repo.insertAssistantMessage({
          id: randomUUID(),
          threadId,
          turnId,
          kind,
          text: "",
          status: "streaming",
          now: this.#o.now(),
        });
        this.#o.events.publish(threadId, { type: "message.created", message: created });
        return created.id;
      });
    } catch (error) {
      if (isStorageFault(error)) this.#o.onStop(storageStop(error));
      throw error;
    }
    const message: BufferedMessage = { id, text: "", stored: 0, completed: false, finished: false };
    this.#messages.push(message);
    return {
      append: (chunk: string) => this.#append(message, chunk),
      complete: () => this.#complete(message),
    };
  }

  /** Stores every message's unsaved text now (one transaction). Never throws a storage fault. */
  flush(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#pendingChars === 0) return;
    try {
      this.#commit(() => {});
    } catch (error) {
      if (!isStorageFault(error)) throw error;
      this.#o.onStop(storageStop(error));
    }
  }

  /** Accepts no more writes (the turn is over; late writes of an adapter are dropped). */
  close(): void {
    this.#open = false;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    clearImmediate(this.#completing);
    this.#completing = undefined;
  }

  /**
   * Inside the caller's transaction: writes each unfinished message whole, with `status`
   * (a message the adapter completed is always `complete`), and publishes it. Call
   * {@link markFinished} after the commit.
   */
  finishAll(status: "complete" | "error"): void {
    for (const message of this.#messages) {
      if (!message.finished) this.#finish(message, message.completed ? "complete" : status);
    }
  }

  markFinished(): void {
    for (const message of this.#messages) {
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
    const text = chunk.length <= room ? chunk : cutAt(chunk, room);
    if (text !== "") {
      const offset = message.text.length;
      message.text += text;
      this.#replyChars += text.length;
      this.#pendingChars += text.length;
      this.#o.events.broadcast(this.#o.threadId, {
        type: "message.delta",
        messageId: message.id,
        offset,
        delta: text,
      });
      if (this.#pendingChars >= this.#flushChars) this.flush();
      else this.#timer ??= setTimeout(() => this.flush(), this.#flushIntervalMs);
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
    clearTimeout(this.#timer);
    this.#timer = undefined;
    const done = this.#messages.filter((message) => message.completed && !message.finished);
    try {
      this.#commit(() => {
        for (const message of done) this.#finish(message, "complete");
      });
      for (const message of done) message.finished = true;
    } catch (error) {
      if (!isStorageFault(error)) throw error;
      // Kept in memory; the turn's final record stores it as complete.
      this.#o.onStop(storageStop(error));
    }
  }

  /** One transaction: the unsaved text of every message as delta rows, then `more`. */
  #commit(more: () => void): void {
    const marks: [BufferedMessage, number][] = [];
    this.#o.events.atomically(() => {
      for (const message of this.#messages) {
        if (message.finished || message.stored === message.text.length) continue;
        this.#o.events.publish(this.#o.threadId, {
          type: "message.delta",
          messageId: message.id,
          offset: message.stored,
          delta: message.text.slice(message.stored),
        });
        marks.push([message, message.text.length]);
      }
      more();
    });
    // Only after the commit: a rolled-back flush keeps its text pending.
    for (const [message, length] of marks) message.stored = length;
    this.#pendingChars = 0;
  }

  #finish(message: BufferedMessage, status: "complete" | "error"): void {
    const finished = this.#o.repo.finishMessage(message.id, message.text, status);
    this.#o.events.publish(this.#o.threadId, { type: "message.completed", message: finished });
    this.#o.repo.deleteDeltaEvents(message.id);
  }
}

/** The first `n` UTF-16 units of `text`, never ending on the first half of a surrogate pair. */
function cutAt(text: string, n: number): string {
  if (n <= 0) return "";
  const code = text.charCodeAt(n - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? n - 1 : n);
}

function storageStop(error: unknown): TurnStop {
  const detail = error instanceof StorageUnavailableError ? ` ${error.message}` : "";
  return new TurnStop(
    "storage_unavailable",
    `The server could not save the reply, so the turn was stopped.${detail}`,
  );
}
