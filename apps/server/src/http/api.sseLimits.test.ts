/**
 * Limits of the event streams (issue 12): a cap on open streams answered with 429, and a slow
 * reader that is dropped instead of buffered without bound (it resumes with Last-Event-ID).
 */
import { connect, type Socket } from "node:net";
import type { Thread } from "@app/protocol";
import { afterEach, describe, expect, it } from "vitest";
import {
  collectSse,
  RecordingAdapter,
  removeDir,
  type SseEvent,
  startTestServer,
  type TestServer,
  waitFor,
} from "../testing/harness.ts";

let server: TestServer | null = null;
afterEach(async () => {
  await server?.close();
  if (server) await removeDir(server.dataDir);
  server = null;
});

describe("event stream limits", () => {
  it("answers streams over SSE_MAX_CONNECTIONS with 429 and accepts again once one closes", async () => {
    server = await startTestServer({ adapter: new RecordingAdapter(), sseMaxConnections: 2 });
    const thread = (await (await server.post("/api/threads", {})).json()) as Thread;
    const url = `${server.url}/api/threads/${thread.id}/events`;
    const open = [new AbortController(), new AbortController()];
    for (const controller of open) {
      const res = await fetch(url, { signal: controller.signal });
      expect(res.status).toBe(200);
    }
    const refused = await fetch(url);
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe(
      "too_many_event_streams",
    );
    open[0]!.abort();
    await waitFor(() => (server!.openEventStreams() === 1 ? true : undefined));
    const again = new AbortController();
    expect((await fetch(url, { signal: again.signal })).status).toBe(200);
    again.abort();
    open[1]!.abort();
  });

  it("drops a client that stops reading, keeps one that reads, and the dropped one resumes", async () => {
    // The same bound and the same events for both clients; only reading differs. The reply
    // (2M characters) stays under the bound (2.2M), or its message.completed event alone would
    // drop every client. "€" is 3 bytes in UTF-8 and 1 character in the bound, so the ~4 MB the
    // kernel buffers for a stalled socket hold only ~1.3M characters of it (the test tolerates
    // up to ~6 MB). Before: a 12 MB reply of "y" and no reading client, 39 s.
    const CHUNKS = 100;
    const CHUNK = 20_000;
    const big = "€".repeat(CHUNK);
    const adapter = new RecordingAdapter(async (ctx) => {
      const writer = ctx.startMessage("answer");
      for (let i = 0; i < CHUNKS; i++) {
        writer.append(big);
        await new Promise((resolve) => setImmediate(resolve));
      }
      writer.complete();
    });
    server = await startTestServer({
      adapter,
      sseMaxQueuedChars: 2_200_000,
      maxReplyChars: 50_000_000,
    });
    const thread = (await (await server.post("/api/threads", {})).json()) as Thread;
    const url = new URL(`${server.url}/api/threads/${thread.id}/events`);
    const stalled = await openStalledStream(url, "0");
    await waitFor(() => (server!.openEventStreams() === 1 ? true : undefined));
    const completedText = (events: SseEvent[]) => {
      const completed = events.find((e) => e.event === "message.completed");
      return (
        completed && (JSON.parse(completed.data) as { message: { text: string } }).message.text
      );
    };
    // A client that reads on: it gets the whole replies live, on the same stream. Two replies:
    // text reaches streams in stored flushes (issue 29), which on a slow store can be large, and
    // a write in flight is not counted as queued, so one reply alone may fit the kernel's
    // buffers plus the bound; the second one cannot.
    const reader = collectSse(url.href, {
      lastEventId: "0",
      until: (received) => received.filter((e) => e.event === "message.completed").length === 2,
    });
    await waitFor(() => (server!.openEventStreams() === 2 ? true : undefined));
    await server.post(`/api/threads/${thread.id}/turns`, { input: "flood" });
    await server.post(`/api/threads/${thread.id}/turns`, { input: "flood again" });
    expect(completedText(await reader)?.length).toBe(CHUNKS * CHUNK);
    // The stalled one was dropped (the reader closed its own stream once it had the reply).
    await waitFor(() => (server!.openEventStreams() === 0 ? true : undefined), 15_000);
    await server.provider.whenIdle();
    stalled.destroy();

    // Resuming from the start gives the whole reply.
    const events = await collectSse(url.href, {
      lastEventId: "0",
      until: (received) => completedText(received) !== undefined,
    });
    expect(completedText(events)?.length).toBe(CHUNKS * CHUNK);
  }, 60_000);
});

/** Opens an event stream on a raw socket, waits for its response head, then stops reading. */
async function openStalledStream(url: URL, lastEventId: string): Promise<Socket> {
  const socket = connect(Number(url.port), url.hostname);
  socket.write(
    `GET ${url.pathname} HTTP/1.1\r\nHost: ${url.host}\r\nAccept: text/event-stream\r\n` +
      `Last-Event-ID: ${lastEventId}\r\n\r\n`,
  );
  let head = "";
  await new Promise<void>((resolve, reject) => {
    socket.on("error", reject);
    const onData = (part: Buffer) => {
      head += part.toString("latin1");
      if (!head.includes("\r\n\r\n")) return;
      socket.off("data", onData);
      socket.pause();
      resolve();
    };
    socket.on("data", onData);
  });
  expect(head).toMatch(/^HTTP\/1\.1 200 /);
  return socket;
}
