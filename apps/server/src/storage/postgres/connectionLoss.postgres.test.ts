/**
 * PostgreSQL connections cut under a running server (a database restart, a failover, an idle
 * timeout in a proxy): the LISTEN connection reconnects and catches up, the pool replaces dead
 * connections, and nothing is lost or delivered twice. The cuts are real: the backends are
 * ended with pg_terminate_backend on the throwaway cluster.
 */
import type { Thread, ThreadDetail } from "@app/protocol";
import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import {
  collectSse,
  openTestStore,
  RecordingAdapter,
  removeDir,
  type SseEvent,
  startTestServer,
  type TestServer,
  testDatabaseUrl,
  waitFor,
} from "../../testing/harness.ts";

let server: TestServer | null = null;
afterEach(async () => {
  await server?.close();
  if (server) await removeDir(server.dataDir);
  server = null;
});

/** Ends the server's backends: the LISTEN one, or every one. Returns how many were ended. */
async function terminate(dataDir: string, which: "listen" | "all"): Promise<number> {
  const admin = new pg.Client({ connectionString: (await testDatabaseUrl(dataDir))! });
  await admin.connect();
  try {
    const { rows } = await admin.query<{ ended: boolean }>(
      `SELECT pg_terminate_backend(pid) AS ended FROM pg_stat_activity
        WHERE datname = current_database() AND pid <> pg_backend_pid()
          AND ($1 = 'all' OR query = 'LISTEN chat_events')`,
      [which],
    );
    return rows.filter((row) => row.ended).length;
  } finally {
    await admin.end();
  }
}

/**
 * The stream's stored events come in id order, each once, and hold every event the thread's
 * log still has (none missed). Ids have holes where compaction deleted a finished message's
 * delta rows (a stream may have got those rows before), so the log is read back rather than
 * assumed contiguous. Live text deltas carry no id.
 */
async function expectWholeLog(events: SseEvent[], dataDir: string, threadId: string) {
  const ids = events.filter((event) => event.id !== null).map((event) => Number(event.id));
  expect(ids.length).toBeGreaterThan(0);
  const store = await openTestStore(dataDir);
  try {
    const stored = (await store.eventsAfter(threadId, 0, 10_000)).map((event) => event.id);
    ids.forEach((id, i) => {
      if (i > 0) expect(id).toBeGreaterThan(ids[i - 1]!);
    });
    const seen = new Set(ids);
    expect(stored.filter((id) => id <= ids.at(-1)! && !seen.has(id))).toEqual([]);
  } finally {
    await store.close();
  }
}

async function newThread(s: TestServer): Promise<Thread> {
  return (await (await s.post("/api/threads", {})).json()) as Thread;
}

describe("PostgreSQL connection loss", () => {
  it("a cut LISTEN connection reconnects, and a stream on it gets another server's events once", async () => {
    // Two servers on one database: the stream is on `watcher`, the turns run on `runner`, so
    // the watcher learns of them only through LISTEN/NOTIFY.
    server = await startTestServer({ adapter: new RecordingAdapter() });
    const runner = await startTestServer({
      adapter: new RecordingAdapter(),
      dataDir: server.dataDir,
    });
    try {
      const watcher = server;
      const thread = await newThread(watcher);
      let opened!: () => void;
      const open = new Promise<void>((resolve) => {
        opened = resolve;
      });
      const stream = collectSse(`${watcher.url}/api/threads/${thread.id}/events`, {
        lastEventId: "0",
        onOpen: () => opened(),
        until: (received) =>
          received.filter((event) => event.event === "message.completed").length === 2,
      });
      await open;
      const send = (input: string) => runner.post(`/api/threads/${thread.id}/turns`, { input });
      expect((await send("before the cut")).status).toBe(201);
      await runner.provider.whenIdle();

      // Both servers' LISTEN connections are cut.
      expect(await terminate(watcher.dataDir, "listen")).toBe(2);
      // Sent at once: its events are committed while nobody listens, and come with the
      // watcher's catch-up once it has reconnected.
      expect((await send("after the cut")).status).toBe(201);
      const events = await stream;
      await expectWholeLog(events, watcher.dataDir, thread.id);
      const texts = events
        .filter((event) => event.event === "message.completed")
        .map((event) => (JSON.parse(event.data) as { message: { text: string } }).message.text);
      expect(texts).toEqual(["Reply to turn 1", "Reply to turn 2"]);
    } finally {
      await runner.close();
    }
  }, 30_000);

  it("every connection cut: requests answer 503 at worst, then work again, and nothing is half-written", async () => {
    server = await startTestServer({ adapter: new RecordingAdapter() });
    const thread = await newThread(server);
    expect((await server.post(`/api/threads/${thread.id}/turns`, { input: "one" })).status).toBe(
      201,
    );
    await server.provider.whenIdle();

    expect(await terminate(server.dataDir, "all")).toBeGreaterThanOrEqual(2);
    // Reads and writes right after the cut: each either works or says the storage is
    // unavailable; none crashes the server or answers a bare 500.
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await server.request(`/api/threads/${thread.id}`);
      statuses.push(res.status);
      if (res.status === 503) {
        expect(((await res.json()) as { error: { code: string } }).error.code).toBe(
          "storage_unavailable",
        );
      } else await res.arrayBuffer();
    }
    expect(statuses.every((status) => status === 200 || status === 503)).toBe(true);
    const sent = await waitFor(async () => {
      const res = await server!.post(`/api/threads/${thread.id}/turns`, { input: "two" });
      if (res.status === 503) return undefined;
      return res.status;
    });
    expect(sent).toBe(201);
    await server.provider.whenIdle();

    // The thread holds both turns whole, and a new stream replays its log once, in order.
    const events = await collectSse(`${server.url}/api/threads/${thread.id}/events`, {
      lastEventId: "0",
      until: (received) =>
        received.filter((event) => event.event === "message.completed").length === 2,
    });
    await expectWholeLog(events, server.dataDir, thread.id);
    const detail = (await (
      await server.request(`/api/threads/${thread.id}`)
    ).json()) as ThreadDetail;
    expect(detail.thread.messageCount).toBe(4);
    expect(detail.activeTurn).toBeNull();
  }, 30_000);
});
