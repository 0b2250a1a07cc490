/**
 * `GET /api/threads/:threadId/events`: the thread's event log as server-sent events. The backlog
 * after `Last-Event-ID` (header, or `?lastEventId=` for clients that cannot set it) is replayed
 * first, then live events follow; each stored one has `id:`, `event:` (its type) and `data:` (its
 * JSON). A comment line every 15 s keeps proxies from closing an idle stream.
 *
 * Streaming text arrives twice from the event log: first as broadcast deltas without an id (at
 * once), then as the stored delta row that covers them (with an id, at the next flush).
 * {@link DeltaCoverage} sends each character to a client once: a stored row whose text the
 * client already has becomes a bare `id:` line, which moves the browser's Last-Event-ID forward
 * without dispatching an event (HTML spec, "dispatch the event", step 1).
 *
 * Limits: at most `maxConnections` open streams (more get 429), and a client that reads too
 * slowly to keep its queue under `maxQueuedChars` is disconnected; it resumes with Last-Event-ID.
 */
import type { ServerEvent } from "@app/protocol";
import type { Context } from "hono";
import { streamSSE } from "hono/streaming";
import type { LiveEvent, ThreadEventLog } from "../domain/events.ts";
import { errorResponse } from "./errors.ts";

const REPLAY_PAGE = 500;
/** Default cap on open event streams (SSE_MAX_CONNECTIONS). */
export const DEFAULT_SSE_MAX_CONNECTIONS = 1000;
/** Default bound on text queued for one client before it is dropped. */
export const DEFAULT_SSE_MAX_QUEUED_CHARS = 4 * 1024 * 1024;

/** An open stream, as shutdown sees it. */
interface SseConnection {
  /** Ends the stream now. */
  close(): void;
  /**
   * Ends the stream once it has sent every event its thread holds now (shutdown: clients learn
   * the outcome of the turns just recorded), or after `graceMs`.
   */
  end(graceMs: number): Promise<void>;
}

/** Open streams, so shutdown can end them instead of waiting for clients. */
export class SseConnections {
  readonly #open = new Set<SseConnection>();
  add(connection: SseConnection): () => void {
    this.#open.add(connection);
    return () => this.#open.delete(connection);
  }
  closeAll(): void {
    for (const connection of [...this.#open]) connection.close();
  }
  /** {@link SseConnection.end} on every open stream; resolves once all are closed. */
  async endAll(graceMs: number): Promise<void> {
    await Promise.all([...this.#open].map((connection) => connection.end(graceMs)));
  }
  get size(): number {
    return this.#open.size;
  }
}

/**
 * `429 too_many_event_streams` (with `Retry-After`) when `maxConnections` streams are open
 * already, for thread streams and the thread list's stream alike; null when one more may open.
 */
export function refuseOverStreamLimit(
  c: Context,
  connections: SseConnections,
  maxConnections = DEFAULT_SSE_MAX_CONNECTIONS,
): Response | null {
  if (connections.size < maxConnections) return null;
  c.header("Retry-After", "5");
  return errorResponse(
    c,
    "too_many_event_streams",
    `The server already has ${maxConnections} open event streams. Try again shortly.`,
  );
}

/** One SSE frame: `id` only (no data) moves the client's Last-Event-ID without an event. */
type Frame = { id: number | null; type: string | null; data: string | null };

/**
 * Per client and per streaming message: how much of the text this client has been sent. Turns
 * each event into the frame that gives the client the characters it lacks, once.
 */
export class DeltaCoverage {
  readonly #sent = new Map<string, number>();

  /** The frame to send for `live`, or null when there is nothing to send. */
  frameFor(live: LiveEvent): Frame | null {
    const { id, event } = live;
    if (event.type !== "message.delta") {
      if (event.type === "message.created")
        this.#sent.set(event.message.id, event.message.text.length);
      if (event.type === "message.completed") this.#sent.delete(event.message.id);
      return { id, type: event.type, data: live.data };
    }
    const end = event.offset + event.delta.length;
    const sent = this.#sent.get(event.messageId);
    if (id === null) {
      // A broadcast chunk: only when it continues what this client has (a client that joined
      // mid-message waits for the next stored row, which starts where its page ended).
      if (sent === undefined || event.offset > sent || end <= sent) return null;
      this.#sent.set(event.messageId, end);
      return { id: null, type: event.type, data: sliced(event, sent, live.data) };
    }
    if (sent !== undefined && end <= sent) return { id, type: null, data: null };
    this.#sent.set(event.messageId, end);
    const from = sent === undefined || sent < event.offset ? event.offset : sent;
    return { id, type: event.type, data: sliced(event, from, live.data) };
  }
}

function sliced(
  event: ServerEvent & { type: "message.delta" },
  from: number,
  whole: string,
): string {
  if (from === event.offset) return whole;
  return JSON.stringify({ ...event, offset: from, delta: event.delta.slice(from - event.offset) });
}

function serialize(frame: Frame): string {
  let text = frame.id === null ? "" : `id: ${frame.id}\n`;
  if (frame.type !== null) text += `event: ${frame.type}\n`;
  if (frame.data !== null) text += `data: ${frame.data}\n`;
  return `${text}\n`;
}

/** Streams one thread's events from `afterId` (null: live only). */
export function streamThreadEvents(
  c: Context,
  options: {
    events: ThreadEventLog;
    connections: SseConnections;
    threadId: string;
    afterId: number | null;
    heartbeatMs: number;
    maxConnections?: number;
    maxQueuedChars?: number;
  },
): Response {
  const maxQueuedChars = options.maxQueuedChars ?? DEFAULT_SSE_MAX_QUEUED_CHARS;
  const refused = refuseOverStreamLimit(c, options.connections, options.maxConnections);
  if (refused) return refused;
  // Counted from admission, not once subscribed: the response's head (200) reaches the client
  // before the stream's first await returns, and a request arriving meanwhile must see this
  // stream in the count (it got a 200 over the limit in CI). Its close/end are set below.
  const handle: SseConnection = { close: () => {}, end: async () => {} };
  const unregister = options.connections.add({
    close: () => handle.close(),
    end: (graceMs) => handle.end(graceMs),
  });
  return streamSSE(c, async (stream) => {
    const queue: LiveEvent[] = [];
    let queuedChars = 0;
    let wake: (() => void) | null = null;
    let closed = false;
    const notify = () => {
      const w = wake;
      wake = null;
      w?.();
    };
    let stopWriting = () => {};
    const close = () => {
      if (closed) return;
      closed = true;
      // A write blocked on a client that stopped reading would never return: abort it.
      stopWriting();
      notify();
    };
    let subscription: Awaited<ReturnType<ThreadEventLog["subscribe"]>>;
    try {
      subscription = await options.events.subscribe(options.threadId, options.afterId, (event) => {
        if (closed) return;
        queue.push(event);
        queuedChars += event.data.length;
        // A reader this far behind would make the server hold its backlog without bound:
        // drop it; it reconnects and resumes from the stored log.
        if (queuedChars > maxQueuedChars) close();
        notify();
      });
    } catch (error) {
      unregister();
      throw error;
    }
    // Shutdown: the last event id to send before closing.
    let endAt: number | null = null;
    let finished = () => {};
    const done = new Promise<void>((resolve) => (finished = resolve));
    const end = async (graceMs: number) => {
      if (closed) return;
      const timer = setTimeout(close, graceMs);
      try {
        endAt = await options.events.lastEventId(options.threadId);
      } catch {
        close();
      }
      notify();
      await done;
      clearTimeout(timer);
    };
    handle.close = close;
    handle.end = end;
    stream.onAbort(close);
    stopWriting = () => stream.abort();
    const heartbeat = setInterval(() => {
      if (!closed) void stream.write(": keep-alive\n\n").catch(close);
    }, options.heartbeatMs);
    const coverage = new DeltaCoverage();
    const send = async (live: LiveEvent) => {
      const frame = coverage.frameFor(live);
      if (frame !== null) await stream.write(serialize(frame));
    };
    try {
      // Flushes the headers at once so clients see the stream open before the first event.
      await stream.write(": connected\n\n");
      let lastSent = options.afterId ?? 0;
      // Stored backlog first, in pages, so a far-behind client never needs it all in memory.
      const until = subscription.replayUntil;
      while (until !== null && lastSent < until && !closed) {
        const page = await options.events.readStored(
          options.threadId,
          lastSent,
          until,
          REPLAY_PAGE,
        );
        if (page.length === 0) break;
        for (const item of page) {
          if (closed) break;
          await send(item);
          lastSent = item.id;
        }
      }
      let read = 0;
      while (!closed) {
        while (read < queue.length && !closed) {
          const item = queue[read++]!;
          queuedChars -= item.data.length;
          if (item.id !== null && item.id <= lastSent) continue;
          await send(item);
          if (item.id !== null) lastSent = item.id;
        }
        if (read === queue.length) {
          queue.length = 0;
          read = 0;
        }
        if (endAt !== null && lastSent >= endAt) close();
        if (!closed) await new Promise<void>((resolve) => (wake = resolve));
      }
    } catch {
      // A write failed because the client went away; nothing to report.
    } finally {
      clearInterval(heartbeat);
      subscription.unsubscribe();
      unregister();
      finished();
    }
  });
}
