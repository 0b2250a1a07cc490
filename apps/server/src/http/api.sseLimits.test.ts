/**
 * Limits of the event streams (issue 12): a cap on open streams answered with 429, and a slow
 * reader that is dropped instead of buffered without bound (it resumes with Last-Event-ID).
 */
import type { Thread } from "@app/protocol";
import { afterEach, describe, expect, it } from "vitest";
import {
  collectSse,
  RecordingAdapter,
  removeDir,
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

  it("drops a client that stops reading, which then resumes from the stored log", async () => {
    const big = "y".repeat(100_000);
    const adapter = new RecordingAdapter(async (ctx) => {
      const writer = ctx.startMessage("answer");
      for (let i = 0; i < 120; i++) {
        writer.append(big);
        await new Promise((resolve) => setImmediate(resolve));
      }
      writer.complete();
    });
    server = await startTestServer({
      adapter,
      sseMaxQueuedChars: 1_000_000,
      maxReplyChars: 50_000_000,
    });
    const thread = (await (await server.post("/api/threads", {})).json()) as Thread;
    const url = `${server.url}/api/threads/${thread.id}/events`;
    // Opens the stream and never reads it: 12 MB of chunks pile up behind the socket.
    const stalled = await fetch(url, { headers: { "last-event-id": "0" } });
    expect(stalled.status).toBe(200);
    await waitFor(() => (server!.openEventStreams() === 1 ? true : undefined));
    await server.post(`/api/threads/${thread.id}/turns`, { input: "flood" });
    await waitFor(() => (server!.openEventStreams() === 0 ? true : undefined), 15_000);
    await server.provider.whenIdle();
    await stalled.body?.cancel();

    // Resuming from the start gives the whole reply.
    const events = await collectSse(url, {
      lastEventId: "0",
      until: (received) => received.some((e) => e.event === "message.completed"),
    });
    const completed = events.find((e) => e.event === "message.completed")!;
    expect((JSON.parse(completed.data) as { message: { text: string } }).message.text.length).toBe(
      12_000_000,
    );
  }, 60_000);
});
