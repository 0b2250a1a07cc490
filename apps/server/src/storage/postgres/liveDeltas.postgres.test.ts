/**
 * Streaming across processes (issue 22): a chunk a turn's writer appends in one process reaches
 * event listeners of another process on the same database through the live channel
 * (`NOTIFY chat_live`) as well as through its stored delta row, but (issue 29) only once it is
 * stored: the writer broadcasts what a flush committed. The writer here flushes only when told.
 * Two stores, each with its own pool and LISTEN connection, stand for two processes.
 */
import { randomUUID } from "node:crypto";
import type { ServerEvent } from "@app/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LiveEvent, ThreadEventLog } from "../../domain/events.ts";
import { TurnWriter } from "../../domain/turnWriter.ts";
import { makeTempDir, removeDir, testDatabaseUrl, waitFor } from "../../testing/harness.ts";
import type { ChatStore } from "../chatStore.ts";
import { openPostgresStore } from "./postgresStore.ts";

const HOUR = 3_600_000;
let dataDir: string;
let storeA: ChatStore;
let storeB: ChatStore;
let logA: ThreadEventLog;
let logB: ThreadEventLog;

beforeAll(async () => {
  dataDir = await makeTempDir("chat-live-");
  const url = (await testDatabaseUrl(dataDir))!;
  storeA = await openPostgresStore({ url, poolSize: 2 });
  storeB = await openPostgresStore({ url, poolSize: 2 });
  logA = new ThreadEventLog(storeA);
  logB = new ThreadEventLog(storeB);
});

afterAll(async () => {
  await Promise.all([storeA?.close(), storeB?.close()]);
  await removeDir(dataDir);
});

/** A thread with a running turn, and a writer on process A that never flushes by itself. */
async function runningTurn(): Promise<{ threadId: string; writer: TurnWriter }> {
  const threadId = randomUUID();
  const turnId = randomUUID();
  const now = new Date().toISOString();
  await storeA.createThread({ id: threadId, title: null, now });
  await storeA.transaction((tx) =>
    tx.insertTurnWithPrompt({
      threadId,
      turnId,
      messageId: randomUUID(),
      text: "hello",
      providerInput: "hello",
      now,
    }),
  );
  const writer = new TurnWriter({
    threadId,
    turnId,
    events: logA,
    now: () => new Date().toISOString(),
    maxReplyChars: 1_000_000,
    flushIntervalMs: HOUR,
    flushChars: 1_000_000_000,
    onActivity: () => {},
    onStop: (stop) => {
      throw new Error(`unexpected stop: ${stop.message}`);
    },
    // The turn is always ours here (the lease guard is tested in turnLease.test.ts).
    guard: async () => {},
    onLeaseLost: () => {
      throw new Error("unexpected lost lease");
    },
  });
  return { threadId, writer };
}

/** Events of `threadId` as process B's listeners get them. */
async function listenOnB(threadId: string): Promise<{ events: LiveEvent[]; stop(): void }> {
  const events: LiveEvent[] = [];
  const subscription = await logB.subscribe(threadId, null, (event) => events.push(event));
  return { events, stop: () => subscription.unsubscribe() };
}

const liveText = (events: LiveEvent[]) =>
  events
    .filter((e) => e.id === null && e.event.type === "message.delta")
    .map((e) => (e.event as ServerEvent & { type: "message.delta" }).delta)
    .join("");

describe("live chunks across processes on PostgreSQL", () => {
  it("reach the other process only once stored (issue 29), batched, in order", async () => {
    const { threadId, writer } = await runningTurn();
    const b = await listenOnB(threadId);
    const message = writer.startMessage("answer");
    await waitFor(() =>
      b.events.some((e) => e.event.type === "message.created") ? true : undefined,
    );

    // Three tokens in one tick, then text longer than one NOTIFY payload and with characters
    // JSON escapes.
    message.append("Hello");
    message.append(", ");
    message.append("world");
    const long = `${"x".repeat(20_000)}${"é😀\u0001".repeat(3_000)}`;
    message.append(long);

    // Not stored yet, so not sent: an event A stores after the appends reaches B with no
    // chunk before it.
    const turn = (await storeA.activeTurn(threadId))!;
    await logA.atomically((w) => w.publish(threadId, { type: "turn.updated", turn }));
    await waitFor(() => (b.events.some((e) => e.event.type === "turn.updated") ? true : undefined));
    expect(b.events.filter((e) => e.event.type === "message.delta")).toEqual([]);

    writer.flush();
    await writer.settled();
    await waitFor(() => (liveText(b.events) === `Hello, world${long}` ? true : undefined));
    // Each live chunk starts where the previous one ended.
    let offset = 0;
    for (const e of b.events.filter((x) => x.id === null)) {
      const event = e.event as ServerEvent & { type: "message.delta" };
      expect(event.offset).toBe(offset);
      offset += event.delta.length;
    }
    await waitFor(() =>
      b.events.some((e) => e.id !== null && e.event.type === "message.delta") ? true : undefined,
    );
    writer.close();
    b.stop();
  });

  it("give the other process a reply's last characters as deltas before its completion (issue 29)", async () => {
    for (let round = 0; round < 5; round++) {
      const { threadId, writer } = await runningTurn();
      const b = await listenOnB(threadId);
      const message = writer.startMessage("answer");
      message.append("first part, ");
      writer.flush();
      await writer.settled();
      // The last characters, never flushed on their own: the message completes right away.
      message.append(`the last characters of round ${round}`);
      message.complete();
      await waitFor(() =>
        b.events.some((e) => e.event.type === "message.completed") ? true : undefined,
      );
      await writer.settled();
      const completedAt = b.events.findIndex((e) => e.event.type === "message.completed");
      // The text B's clients rebuild from deltas (stored or live, by offset) before completion.
      let text = "";
      for (const { event } of b.events.slice(0, completedAt)) {
        if (event.type !== "message.delta" || event.offset > text.length) continue;
        text += event.delta.slice(text.length - event.offset);
      }
      expect(text).toBe(`first part, the last characters of round ${round}`);
      writer.close();
      b.stop();
    }
  });

  it("are not handed back to the process that sent them", async () => {
    const { threadId, writer } = await runningTurn();
    const onA: LiveEvent[] = [];
    const subscription = await logA.subscribe(threadId, null, (event) => onA.push(event));
    const b = await listenOnB(threadId);
    const message = writer.startMessage("answer");
    await waitFor(() =>
      b.events.some((e) => e.event.type === "message.created") ? true : undefined,
    );
    message.append("once");
    message.append(" more");
    writer.flush();
    await writer.settled();
    await waitFor(() => (liveText(b.events) === "once more" ? true : undefined));
    // A second stored event after them: A's LISTEN connection gets the notifications in order,
    // and the flush returns once A delivered its own row, so any echo came in by then.
    message.append("!");
    writer.flush();
    await writer.settled();
    await waitFor(() => (liveText(b.events) === "once more!" ? true : undefined));
    expect(liveText(onA)).toBe("once more!");
    writer.close();
    subscription.unsubscribe();
    b.stop();
  });
});
