/**
 * Fan-out from the notification itself (issue 33, `eventNotify.ts`): a stored event reaches the
 * listeners of another process from its `NOTIFY chat_events` payload, with no read-back; an
 * event too large for a payload, a gap in the ids and a multi-row insert are read back, in
 * order, each event once; a transaction's own events reach its process's listeners when it
 * returns, with no read-back either. Two stores, each with its own pool and LISTEN connection,
 * stand for two processes; each counts its read-backs.
 */
import { randomUUID } from "node:crypto";
import type { ServerEvent } from "@app/protocol";
import pg from "pg";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type LiveEvent, ThreadEventLog } from "../../domain/events.ts";
import { makeTempDir, removeDir, testDatabaseUrl, waitFor } from "../../testing/harness.ts";
import type { ChatStore } from "../chatStore.ts";
import { decodeEventNotice, NOTIFY_PAYLOAD_LIMIT } from "./eventNotify.ts";
import { openPostgresStore } from "./postgresStore.ts";

let dataDir: string;
let url: string;
let storeA: ChatStore;
let storeB: ChatStore;
let logA: ThreadEventLog;
let logB: ThreadEventLog;
let raw: pg.Client;
const readBacks = { a: 0, b: 0 };

beforeAll(async () => {
  dataDir = await makeTempDir("chat-notify-");
  url = (await testDatabaseUrl(dataDir))!;
  storeA = await openPostgresStore({ url, poolSize: 2, onReadBack: () => readBacks.a++ });
  storeB = await openPostgresStore({ url, poolSize: 2, onReadBack: () => readBacks.b++ });
  logA = new ThreadEventLog(storeA);
  logB = new ThreadEventLog(storeB);
  raw = new pg.Client({ connectionString: url });
  await raw.connect();
});

afterAll(async () => {
  await raw?.end();
  await Promise.all([storeA?.close(), storeB?.close()]);
  await removeDir(dataDir);
});

beforeEach(() => {
  readBacks.a = 0;
  readBacks.b = 0;
});

async function newThread(): Promise<string> {
  const threadId = randomUUID();
  await storeA.createThread({ id: threadId, title: null, now: new Date().toISOString() });
  return threadId;
}

/** A delta event whose stored JSON is exactly `bytes` long (ASCII). */
function deltaOfBytes(bytes: number, messageId = "m1"): ServerEvent {
  const event = { type: "message.delta", messageId, offset: 0, delta: "" } as const;
  return { ...event, delta: "x".repeat(bytes - JSON.stringify(event).length) };
}

/** Listens on `log` to `threadId` (live only); the events it gets. */
async function listen(log: ThreadEventLog, threadId: string): Promise<LiveEvent[]> {
  const events: LiveEvent[] = [];
  await log.subscribe(threadId, null, (event) => events.push(event));
  return events;
}

/** Stores `event` through process A, alone in its transaction; returns its id. */
function appendOnA(threadId: string, event: ServerEvent): Promise<number> {
  return storeA.transaction((tx) => tx.appendEvent(threadId, event));
}

/** Inserts events behind the store's back, as `appendEvent` numbers them, in one statement. */
async function insertRaw(threadId: string, events: ServerEvent[]): Promise<void> {
  await raw.query(
    `WITH bumped AS (
       UPDATE threads SET last_event_id = last_event_id + $2 WHERE id = $1
       RETURNING last_event_id - $2 AS base
     )
     INSERT INTO events (thread_id, id, type, message_id, data)
     SELECT $1, base + n, 'message.delta', NULL, d
     FROM bumped, unnest($3::text[]) WITH ORDINALITY AS u(d, n)`,
    [threadId, events.length, events.map((event) => JSON.stringify(event))],
  );
}

describe("events fanned out from their notification (PostgreSQL)", () => {
  it("reach the other process from the payload, with no read-back (even when the row is gone)", async () => {
    const threadId = await newThread();
    const onB = await listen(logB, threadId);
    const messageId = randomUUID();
    const event = deltaOfBytes(200, messageId);
    // Stored and compacted in one transaction: only the notification still has it.
    const id = await storeA.transaction(async (tx) => {
      const stored = await tx.appendEvent(threadId, event);
      await tx.deleteDeltaEvents(messageId);
      return stored;
    });
    await waitFor(() => onB.length > 0 || undefined);
    expect(onB.map((e) => [e.id, e.event])).toEqual([[id, event]]);
    expect(onB[0]!.data).toBe(JSON.stringify(event));
    expect(readBacks.b).toBe(0);
  });

  it("carry an event up to the payload limit; one at the limit is read back instead", async () => {
    const threadId = await newThread();
    const onB = await listen(logB, threadId);
    // The payload is `<threadId>\n<id>\n<data>`; ids 1 and 2 have one digit.
    const prefix = threadId.length + 3;
    const fits = deltaOfBytes(NOTIFY_PAYLOAD_LIMIT - 1 - prefix);
    const tooLong = deltaOfBytes(NOTIFY_PAYLOAD_LIMIT - prefix);
    expect(await appendOnA(threadId, fits)).toBe(1);
    await waitFor(() => onB.length === 1 || undefined);
    expect(readBacks.b).toBe(0);
    expect(await appendOnA(threadId, tooLong)).toBe(2);
    await waitFor(() => onB.length === 2 || undefined);
    expect(onB.map((e) => [e.id, e.event])).toEqual([
      [1, fits],
      [2, tooLong],
    ]);
    expect(readBacks.b).toBeGreaterThan(0);
  });

  it("read back a gap: an event whose id is not the next one comes after the missing ones, each once", async () => {
    const threadId = await newThread();
    const onB = await listen(logB, threadId);
    const first = deltaOfBytes(100);
    await appendOnA(threadId, first);
    await waitFor(() => onB.length === 1 || undefined);
    // Event 2 is stored without a notification (triggers off in this session): B learns of it
    // only through event 3's, whose id is not the next one it expects.
    const missed = deltaOfBytes(101);
    await raw.query("SET session_replication_role = replica");
    try {
      await insertRaw(threadId, [missed]);
    } finally {
      await raw.query("SET session_replication_role = DEFAULT");
    }
    const third = deltaOfBytes(102);
    await appendOnA(threadId, third);
    await waitFor(() => onB.length === 3 || undefined);
    expect(readBacks.b).toBeGreaterThan(0);
    expect(onB.map((e) => [e.id, e.event])).toEqual([
      [1, first],
      [2, missed],
      [3, third],
    ]);
    // Nothing more comes (the notification of event 3, already read back, is skipped).
    await appendOnA(threadId, first);
    await waitFor(() => onB.length === 4 || undefined);
    expect(onB.map((e) => e.id)).toEqual([1, 2, 3, 4]);
  });

  it("read back the events of a statement that inserts several (one notice names the thread)", async () => {
    const threadId = await newThread();
    const onB = await listen(logB, threadId);
    const events = [deltaOfBytes(100), deltaOfBytes(101), deltaOfBytes(102)];
    await insertRaw(threadId, events);
    await waitFor(() => onB.length === 3 || undefined);
    expect(onB.map((e) => [e.id, e.event])).toEqual(events.map((event, i) => [i + 1, event]));
    expect(readBacks.b).toBeGreaterThan(0);
  });

  it("hand a transaction's own events to its process's listeners when it returns, with no read-back", async () => {
    const threadId = await newThread();
    const onA = await listen(logA, threadId);
    let changes = 0;
    const stop = logA.onThreadChanged((id) => {
      if (id === threadId) changes++;
    });
    const events = [deltaOfBytes(100), deltaOfBytes(101)];
    await storeA.transaction(async (tx) => {
      for (const event of events) await tx.appendEvent(threadId, event);
    });
    expect(onA.map((e) => [e.id, e.event])).toEqual([
      [1, events[0]],
      [2, events[1]],
    ]);
    await appendOnA(threadId, events[0]!);
    // Their notifications come later and are skipped: 2 deliveries and 3 notices in all.
    await waitFor(() => changes >= 5 || undefined);
    stop();
    expect(onA.map((e) => e.id)).toEqual([1, 2, 3]);
    expect(readBacks.a).toBe(0);
  });

  it("keep to their thread without a key on it: none for a missing thread, none left by a purge", async () => {
    await expect(appendOnA(randomUUID(), deltaOfBytes(100))).rejects.toThrow(/does not exist/);
    const threadId = await newThread();
    await appendOnA(threadId, deltaOfBytes(100));
    await storeA.setThreadDeleted({ id: threadId, deletedAt: new Date().toISOString() });
    expect(await storeA.transaction((tx) => tx.purgeThread(threadId))).not.toBeNull();
    const left = await raw.query("SELECT 1 FROM events WHERE thread_id = $1", [threadId]);
    expect(left.rowCount).toBe(0);
  });
});

describe("decodeEventNotice", () => {
  it("reads the thread, the id and the event; a notice without them names the thread only", () => {
    expect(decodeEventNotice('t1\n7\n{"a":"x\\ny"}')).toEqual({
      threadId: "t1",
      id: 7,
      data: '{"a":"x\\ny"}',
    });
    expect(decodeEventNotice("t1\n7\n{}\n{}")).toEqual({ threadId: "t1", id: 7, data: "{}\n{}" });
    expect(decodeEventNotice("t1\n12")).toEqual({ threadId: "t1", id: 12, data: null });
    expect(decodeEventNotice("t1")).toEqual({ threadId: "t1", id: null, data: null });
    expect(decodeEventNotice("t1\nx\n{}")).toEqual({ threadId: "t1", id: null, data: null });
  });
});
