/**
 * Streaming chunks between processes on one PostgreSQL database, before they are stored.
 *
 * A turn's writer stores its text as one delta row per ~100 ms flush, and a process learns of
 * stored rows through `NOTIFY chat_events`; clients on another process would see the reply in
 * 100 ms batches. So chunks also travel unstored: they gather for {@link LIVE_BATCH_MS} and go
 * out as `NOTIFY chat_live` payloads, all of a batch in one statement, one statement in flight at
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
  #pending: ReceivedDelta[] = [];
  /** Index in #pending of each message's entry, so contiguous chunks merge into it. */
  #entryOf = new Map<string, number>();
  #timer: NodeJS.Timeout | undefined;
  #sending = false;
  #closed = false;

  /** `send` runs the NOTIFY statement for `payloads`, in order. */
  constructor(send: (payloads: string[]) => Promise<void>) {
    this.#send = send;
  }

  add(threadId: string, event: LiveDelta): void {
    if (this.#closed) return;
    const at = this.#entryOf.get(event.messageId);
    const entry = at === undefined ? undefined : this.#pending[at];
    if (entry && entry.event.offset + entry.event.delta.length === event.offset) {
      entry.event = { ...entry.event, delta: entry.event.delta + event.delta };
    } else {
      this.#entryOf.set(event.messageId, this.#pending.length);
      this.#pending.push({ threadId, event });
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
    const payloads = batch.flatMap(({ threadId, event }) =>
      encodeLiveDelta(this.sender, threadId, event),
    );
    this.#sending = true;
    this.#send(payloads)
      // Best effort: receivers get the text from the next stored delta row instead.
      .catch(() => {})
      .finally(() => {
        this.#sending = false;
        if (this.#timer === undefined) this.#flush();
      });
  }
}

/** The payloads for one chunk: split where one would be too long for NOTIFY. */
export function encodeLiveDelta(sender: string, threadId: string, event: LiveDelta): string[] {
  const payload = JSON.stringify({ s: sender, t: threadId, e: event } satisfies Payload);
  if (event.delta.length < 2 || Buffer.byteLength(payload) <= MAX_LIVE_PAYLOAD_BYTES) {
    return [payload];
  }
  let half = event.delta.length >> 1;
  // Never between the two halves of a surrogate pair.
  const code = event.delta.charCodeAt(half - 1);
  if (code >= 0xd800 && code <= 0xdbff) half--;
  if (half <= 0) return [payload];
  return [
    ...encodeLiveDelta(sender, threadId, { ...event, delta: event.delta.slice(0, half) }),
    ...encodeLiveDelta(sender, threadId, {
      ...event,
      offset: event.offset + half,
      delta: event.delta.slice(half),
    }),
  ];
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
