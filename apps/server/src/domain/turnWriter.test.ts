/**
 * TurnWriter's stored deltas on the real store of the run (SQLite, or PostgreSQL in `server-pg`):
 * every `message.delta` row starts where the previous one ended, so the text rebuilt from the
 * rows is exactly what was streamed, however chunks and commits interleave.
 */
import { randomUUID } from "node:crypto";
import type { ServerEvent } from "@app/protocol";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ChatQueries, ChatStore } from "../storage/chatStore.ts";
import { makeTempDir, openTestStore, removeDir, testStoreKind } from "../testing/harness.ts";
import { ThreadEventLog } from "./events.ts";
import { TurnWriter } from "./turnWriter.ts";

let dataDir: string;
let store: ChatStore;

beforeAll(async () => {
  dataDir = await makeTempDir("chat-turnwriter-");
  store = await openTestStore(dataDir);
});

afterAll(async () => {
  await store?.close();
  await removeDir(dataDir);
});

const now = () => new Date().toISOString();

/** A thread with one running turn, ready for a writer. */
async function newTurn(on: ChatStore): Promise<{ threadId: string; turnId: string }> {
  const threadId = randomUUID();
  const turnId = randomUUID();
  await on.transaction(async (tx) => {
    await tx.createThread({ id: threadId, title: null, now: now() });
    await tx.insertTurnWithPrompt({
      threadId,
      turnId,
      messageId: randomUUID(),
      text: "stream please",
      providerInput: "stream please",
      now: now(),
    });
  });
  return { threadId, turnId };
}

function writerFor(
  events: ThreadEventLog,
  turn: { threadId: string; turnId: string },
  flushChars: number,
): TurnWriter {
  return new TurnWriter({
    ...turn,
    events,
    now,
    maxReplyChars: 1_000_000,
    // Flushes come from the character threshold only, so the interleaving is the test's.
    flushIntervalMs: 60_000,
    flushChars,
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
}

/** The stored delta rows of a message, in id order. */
async function deltaRows(
  threadId: string,
  messageId: string,
): Promise<{ offset: number; delta: string }[]> {
  const rows = await store.eventsAfter(threadId, 0, 1_000_000);
  return rows.flatMap(({ event }: { event: ServerEvent }) =>
    event.type === "message.delta" && event.messageId === messageId
      ? [{ offset: event.offset, delta: event.delta }]
      : [],
  );
}

/** Asserts the rows are contiguous from 0 and returns the text they hold. */
function contiguousText(rows: { offset: number; delta: string }[]): string {
  let text = "";
  for (const row of rows) {
    expect(row.offset, `a delta row starts at ${row.offset}, after ${text.length}`).toBe(
      text.length,
    );
    text += row.delta;
  }
  return text;
}

/** The id of the one message the writer created on this turn. */
async function answerId(threadId: string): Promise<string> {
  const window = await store.messagesAfter(threadId, 0, 10);
  const answer = window.messages.find((m) => m.role === "assistant");
  if (!answer) throw new Error("no assistant message stored");
  return answer.id;
}

describe(`TurnWriter delta rows (${testStoreKind})`, () => {
  it("stores every chunk once: each row starts where the previous ended, and the rebuilt partial text is what was streamed", async () => {
    const events = new ThreadEventLog(store);
    const turn = await newTurn(store);
    const writer = writerFor(events, turn, 40);
    const message = writer.startMessage("answer");
    await writer.settled();
    // Stored rows as they commit (through the store's own delivery: LISTEN on PostgreSQL).
    let committedRows = 0;
    let committed = () => {};
    const subscription = await events.subscribe(turn.threadId, null, (live) => {
      if (live.id !== null && live.event.type === "message.delta") {
        committedRows++;
        committed();
      }
    });
    let streamed = "";
    // Chunks keep arriving while flushes are in flight, until several rows have committed:
    // some between microtasks (as a synchronous adapter loop would), some after a macrotask
    // (as network chunks do). The stream waits for a commit once it is 2,000 characters ahead
    // of the rows: on a busy machine it otherwise ran on to the reply's size limit (seen in CI).
    for (let i = 0; committedRows < 8; i++) {
      const chunk = `${i};`;
      message.append(chunk);
      streamed += chunk;
      if (streamed.length > 2_000 * (committedRows + 1)) {
        await new Promise<void>((resolve) => {
          committed = resolve;
        });
      } else if (i % 7 === 0) await new Promise((resolve) => setImmediate(resolve));
      else await Promise.resolve();
    }
    subscription.unsubscribe();
    writer.flush();
    await writer.settled();

    const id = await answerId(turn.threadId);
    const rows = await deltaRows(turn.threadId, id);
    expect(rows.length).toBeGreaterThanOrEqual(8);
    expect(contiguousText(rows)).toBe(streamed);
    // What GET /messages shows while the reply streams: rebuilt from the rows.
    expect((await store.getMessage(id))?.text).toBe(streamed);
    writer.close();
  });

  // SQLite only: its queries settle in microtasks, so the scheduler sees every step. The
  // store's writes yield to the scheduler, which interleaves them with chunk arrival.
  it.skipIf(testStoreKind !== "sqlite")(
    "keeps rows contiguous whatever the order of chunk arrival and slow commits (property)",
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.scheduler(),
          fc.array(fc.string({ minLength: 1, maxLength: 12 }), { minLength: 1, maxLength: 40 }),
          fc.integer({ min: 1, max: 30 }),
          fc.array(fc.boolean(), { minLength: 40, maxLength: 40 }),
          async (s, chunks, flushChars, explicitFlush) => {
            const slow = yieldingStore(store, () => s.schedule(Promise.resolve(), "write"));
            const events = new ThreadEventLog(slow);
            const turn = await newTurn(store);
            const writer = writerFor(events, turn, flushChars);
            const message = writer.startMessage("answer");
            const arrivals = s.scheduleSequence(
              chunks.map((chunk, i) => ({
                label: `chunk ${i}`,
                builder: async () => {
                  message.append(chunk);
                  if (explicitFlush[i]) writer.flush();
                },
              })),
            );
            await s.waitFor(arrivals.task);
            writer.flush();
            await s.waitFor(writer.settled());
            writer.close();

            const streamed = chunks.join("");
            const id = await answerId(turn.threadId);
            expect(contiguousText(await deltaRows(turn.threadId, id))).toBe(streamed);
            expect((await store.getMessage(id))?.text).toBe(streamed);
          },
        ),
        { numRuns: 60 },
      );
    },
  );
});

/** The same store, but every event write in a transaction first waits for `pause()`. */
function yieldingStore(inner: ChatStore, pause: () => Promise<unknown>): ChatStore {
  return {
    ...inner,
    transaction: <T>(fn: (tx: ChatQueries) => Promise<T>) =>
      inner.transaction((tx) =>
        fn({
          ...tx,
          appendEvent: async (...args: Parameters<ChatQueries["appendEvent"]>) => {
            await pause();
            return tx.appendEvent(...args);
          },
        }),
      ),
  };
}
