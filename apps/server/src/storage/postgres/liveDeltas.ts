/**
 * Streaming chunks between processes on one PostgreSQL database, once stored.
 *
 * A turn's writer stores its text as one delta row per ~100 ms flush, and a process learns of
 * stored rows through `NOTIFY chat_events`; but a finishing message's rows are compacted, maybe
 * before another process reads them. So the text of each committed flush also travels on its
 * own (issue 29: only stored text, so a crash never takes back what a reader saw): chunks gather
 * for {@link LIVE_BATCH_MS} and go out as `NOTIFY chat_live` payloads, all of a batch in one statement, one statement in flight at
 * a time (so payloads arrive in order). That is one notification per message per batch, never
 * one per token. Receivers treat these chunks exactly like their own broadcast ones (`id: null`);
 * the stored row that follows covers anything a receiver missed.
 */
import { randomUUID } from "node:crypto";
import type { LiveDelta } from "../chatStore.ts";

export const LIVE_CHANNEL = "chat_live";
/** How long chunks gather before one notification carries them (about one frame). */
export const LIVE_BATCH_MS = 16;
/** PostgreSQL refuses NOTIFY payloads of 8000 bytes or more. */
export const MAX_LIVE_PAYLOAD_BYTES = 7_900;

/** What a payload holds: the sending process, the thread, the chunk. */
type Payload = { s: string; t: string; e: LiveDelta };

export interface ReceivedDelta {
  threadId: string;
  event: LiveDelta;
}

/** Gathers one process's chunks and sends them as batched notifications. */
export class LiveDeltaBatcher {
  /** Tells this process's own notifications apart (its LISTEN connection gets them too). */
  readonly sender = randomUUID();
  readonly #send: (payloads: string[]) => Promise<void>;
  /** Chunks gathered for the next notification, merged per message while contiguous. */
  #pending: { threadId: string; messageId: string; offset: number; delta: string }[] = [];
  /** Index in #pending of each message's entry, so contiguous chunks merge into it. */
  #entryOf = new Map<string, number>();
  #timer: NodeJS.Timeout | undefined;
  #sending = false;
  #closed = false;
  /** The statement in flight, settled (never rejects). */
  #inFlight: Promise<void> = Promise.resolve();

  /** `send` runs the NOTIFY statement for `payloads`, in order. */
  constructor(send: (payloads: string[]) => Promise<void>) {
    this.#send = send;
  }

  add(threadId: string, event: LiveDelta): void {
    if (this.#closed) return;
    const at = this.#entryOf.get(event.messageId);
    const entry = at === undefined ? undefined : this.#pending[at];
    if (entry && entry.offset + entry.delta.length === event.offset) {
      entry.delta += event.delta;
    } else {
      this.#entryOf.set(event.messageId, this.#pending.length);
      const { messageId, offset, delta } = event;
      this.#pending.push({ threadId, messageId, offset, delta });
    }
    this.#timer ??= setTimeout(() => this.#flush(), LIVE_BATCH_MS);
  }

  close(): void {
    this.#closed = true;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#pending = [];
    this.#entryOf.clear();
  }

  #flush(): void {
    this.#timer = undefined;
    // The statement in flight sends what gathered meanwhile as soon as it returns.
    if (this.#sending || this.#closed || this.#pending.length === 0) return;
    const batch = this.#pending;
    this.#pending = [];
    this.#entryOf.clear();
    const payloads = batch.flatMap(({ threadId, messageId, offset, delta }) =>
      encodeLiveDelta(this.sender, threadId, { type: "message.delta", messageId, offset, delta }),
    );
    this.#sending = true;
    this.#inFlight = this.#send(payloads)
      // Best effort: receivers get the text from the next stored delta row instead.
      .catch(() => {})
      .finally(() => {
        this.#sending = false;
        if (this.#timer === undefined) this.#flush();
      });
  }

  /**
   * Sends what has gathered now and resolves once every chunk added so far was handed to
   * PostgreSQL: a transaction committed after it notifies other processes after these chunks.
   */
  async drain(): Promise<void> {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    while (!this.#closed && (this.#sending || this.#pending.length > 0)) {
      if (!this.#sending) this.#flush();
      await this.#inFlight;
    }
  }
}

/**
 * The payloads for one chunk: cut into pieces where one would be too long for NOTIFY. The piece
 * size comes from the whole chunk's encoded size (one pass for the common case); a piece that
 * is still too long (its characters escape to more bytes than average) is cut again.
 */
export function encodeLiveDelta(sender: string, threadId: string, event: LiveDelta): string[] {
  const payload = JSON.stringify({ s: sender, t: threadId, e: event } satisfies Payload);
  const bytes = Buffer.byteLength(payload);
  const { delta } = event;
  if (delta.length < 2 || bytes <= MAX_LIVE_PAYLOAD_BYTES) return [payload];
  const pieces = Math.max(2, Math.ceil(bytes / (MAX_LIVE_PAYLOAD_BYTES * 0.9)));
  const size = Math.ceil(delta.length / pieces);
  const out: string[] = [];
  for (let start = 0; start < delta.length; ) {
    let end = Math.min(delta.length, start + size);
    // Never between the two halves of a surrogate pair.
    const code = delta.charCodeAt(end - 1);
    if (end < delta.length && code >= 0xd800 && code <= 0xdbff) end--;
    if (end <= start) end = start + 2;
    const piece = { ...event, offset: event.offset + start, delta: delta.slice(start, end) };
    out.push(...encodeLiveDelta(sender, threadId, piece));
    start = end;
  }
  return out;
}

/** The chunk in a payload, or null for this process's own payloads and malformed ones. */
export function decodeLiveDelta(payload: string, ownSender: string): ReceivedDelta | null {
  let parsed: Partial<Payload>;
  try {
    parsed = JSON.parse(payload) as Partial<Payload>;
  } catch {
    return null;
  }
  const e = parsed.e;
  if (
    parsed.s === ownSender ||
    typeof parsed.t !== "string" ||
    e?.type !== "message.delta" ||
    typeof e.messageId !== "string" ||
    typeof e.offset !== "number" ||
    typeof e.delta !== "string"
  ) {
    return null;
  }
  return { threadId: parsed.t, event: e };
}
