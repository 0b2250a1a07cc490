/**
 * A storage fault in the middle of a purge (issue 31, SQLite): the purge is one transaction, so
 * a write failing after its first deletes leaves the thread whole; once storage heals, the next
 * sweep purges it entirely.
 */
import type { Thread } from "@app/protocol";
import { afterAll, describe, expect, it } from "vitest";
import { silentLogger } from "./logger.ts";
import { openDatabase } from "./storage/db.ts";
import {
  RecordingAdapter,
  removeDir,
  startTestServer,
  type TestServer,
  waitFor,
} from "./testing/harness.ts";
import { StorageFaults } from "./testing/storageFaults.ts";

let server: TestServer | undefined;

afterAll(async () => {
  await server?.close();
  if (server) await removeDir(server.dataDir);
});

describe("purge under a storage fault", () => {
  it("leaves the thread whole when a write fails mid-purge, and purges it once healed", async () => {
    const faults = new StorageFaults();
    const warnings: string[] = [];
    server = await startTestServer({
      adapter: new RecordingAdapter(),
      logger: { ...silentLogger, warn: (line: string) => warnings.push(line) },
      openDatabase: faults.open,
      undoWindowMs: 0,
    });
    const thread = (await (await server.post("/api/threads", {})).json()) as Thread;
    await server.post(`/api/threads/${thread.id}/turns`, { input: "keep me whole" });
    await server.provider.whenIdle();
    const side = openDatabase(`${server.dataDir}/chat.sqlite`);
    const count = (sql: string) => (side.prepare(sql).get(thread.id) as { n: number }).n;
    const snapshot = () => ({
      thread: count("SELECT count(*) AS n FROM threads WHERE id = ?"),
      messages: count("SELECT count(*) AS n FROM messages WHERE thread_id = ?"),
      events: count("SELECT count(*) AS n FROM events WHERE thread_id = ?"),
      search: count("SELECT count(*) AS n FROM message_search WHERE thread_id = ?"),
    });
    try {
      const whole = snapshot();
      expect(whole.messages).toBe(2);
      // The purge's last write fails: its deletes have already run inside the transaction.
      faults.failWrites("SQLITE_IOERR_WRITE", { only: /INSERT INTO purged_threads/ });
      const res = await server.request(`/api/threads/${thread.id}`, {
        method: "DELETE",
        headers: { "content-type": "application/json" },
        body: "{}",
      });
      expect(res.status).toBe(200);
      // The purge failed (logged, tried again at the next sweep) and rolled back.
      await waitFor(() => (warnings.some((w) => w.includes(thread.id)) ? true : undefined));
      expect(snapshot()).toEqual(whole);
      faults.heal();
      await waitFor(() => (snapshot().thread === 0 ? true : undefined));
      expect(snapshot()).toEqual({ thread: 0, messages: 0, events: 0, search: 0 });
    } finally {
      side.close();
    }
  });
});
