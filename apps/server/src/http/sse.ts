/**
 * `GET /api/threads/:threadId/events`: the thread's event log as server-sent events. The backlog
 * after `Last-Event-ID` (header, or `?lastEventId=` for clients that cannot set it) is replayed
 * first, then live events follow; each has `id:`, `event:` (its type) and `data:` (its JSON).
 * A comment line every 15 s keeps proxies from closing an idle stream.
 */
import type { Context } from "hono";
import { streamSSE } from "hono/streaming";
import type { ThreadEventLog } from "../domain/events.ts";
import type { StoredEvent } from "../storage/repository.ts";

const REPLAY_PAGE = 500;

/** Open streams, so shutdown can end them instead of waiting for clients. */
export class SseConnections {
  readonly #closers = new Set<() => void>();
  add(close: () => void): () => void {
    this.#closers.add(close);
    return () => this.#closers.delete(close);
  }
  closeAll(): void {
    for (const close of [...this.#closers]) close();
  }
  get size(): number {
    return this.#closers.size;
  }
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
  },
): Response {
  return streamSSE(c, async (stream) => {
    const queue: StoredEvent[] = [];
    let wake: (() => void) | null = null;
    let closed = false;
    const notify = () => {
      const w = wake;
      wake = null;
      w?.();
    };
    const subscription = options.events.subscribe(options.threadId, options.afterId, (event) => {
      queue.push(event);
      notify();
    });
    const close = () => {
      closed = true;
      notify();
    };
    const unregister = options.connections.add(close);
    stream.onAbort(close);
    const heartbeat = setInterval(() => {
      if (!closed) void stream.write(": keep-alive\n\n").catch(close);
    }, options.heartbeatMs);
    try {
      // Flushes the headers at once so clients see the stream open before the first event.
      await stream.write(": connected\n\n");
      let lastSent = options.afterId ?? 0;
      // Stored backlog first, in pages, so a far-behind client never needs it all in memory.
      const until = subscription.replayUntil;
      while (until !== null && lastSent < until && !closed) {
        const page = options.events.readStored(options.threadId, lastSent, until, REPLAY_PAGE);
        if (page.length === 0) break;
        for (const item of page) {
          if (closed) break;
          await stream.writeSSE({
            id: String(item.id),
            event: item.event.type,
            data: JSON.stringify(item.event),
          });
          lastSent = item.id;
        }
      }
      let read = 0;
      while (!closed) {
        while (read < queue.length && !closed) {
          const item = queue[read++]!;
          if (item.id <= lastSent) continue;
          await stream.writeSSE({
            id: String(item.id),
            event: item.event.type,
            data: JSON.stringify(item.event),
          });
          lastSent = item.id;
        }
        if (read === queue.length) {
          queue.length = 0;
          read = 0;
        }
        if (!closed) await new Promise<void>((resolve) => (wake = resolve));
      }
    } catch {
      // A write failed because the client went away; nothing to report.
    } finally {
      clearInterval(heartbeat);
      subscription.unsubscribe();
      unregister();
    }
  });
}
