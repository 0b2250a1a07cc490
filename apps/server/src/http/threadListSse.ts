/**
 * `GET /api/threads/events`: the thread list's live changes as server-sent events (issue 31).
 * Each frame is `event: threads` with `data:` a `ThreadListEvent` (`{"changes": [...]}`). There is
 * no resume: a client that reconnects reads the first page again (`GET /api/threads`), which
 * holds whatever it missed. Counts against the same cap on open streams as thread streams.
 */
import type { ThreadListChange, ThreadListEvent } from "@app/protocol";
import type { Context } from "hono";
import { streamSSE } from "hono/streaming";
import type { ThreadListFeed } from "../domain/threadListFeed.ts";
import { refuseOverStreamLimit, type SseConnections } from "./sse.ts";

/** Changes held for one client before it is dropped (it reconnects and reads the list again). */
const MAX_QUEUED_CHANGES = 10_000;

export function streamThreadListEvents(
  c: Context,
  options: {
    feed: ThreadListFeed;
    connections: SseConnections;
    heartbeatMs: number;
    maxConnections?: number;
  },
): Response {
  const refused = refuseOverStreamLimit(c, options.connections, options.maxConnections);
  if (refused) return refused;
  return streamSSE(c, async (stream) => {
    let queue: ThreadListChange[] = [];
    let closed = false;
    let wake: (() => void) | null = null;
    const notify = () => {
      const w = wake;
      wake = null;
      w?.();
    };
    const close = () => {
      if (closed) return;
      closed = true;
      stream.abort();
      notify();
    };
    const unsubscribe = options.feed.subscribe((changes) => {
      queue.push(...changes);
      if (queue.length > MAX_QUEUED_CHANGES) close();
      notify();
    });
    const unregister = options.connections.add({ close, end: async () => close() });
    stream.onAbort(close);
    const heartbeat = setInterval(() => {
      if (!closed) void stream.write(": keep-alive\n\n").catch(close);
    }, options.heartbeatMs);
    try {
      await stream.write(": connected\n\n");
      while (!closed) {
        if (queue.length > 0) {
          const event: ThreadListEvent = { changes: queue };
          queue = [];
          await stream.write(`event: threads\ndata: ${JSON.stringify(event)}\n\n`);
        }
        if (!closed && queue.length === 0) await new Promise<void>((resolve) => (wake = resolve));
      }
    } catch {
      // The client went away.
    } finally {
      clearInterval(heartbeat);
      unsubscribe();
      unregister();
    }
  });
}
