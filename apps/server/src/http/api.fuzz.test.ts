/**
 * Fuzz test (issue 19, "Tests and figures"): requests generated from the protocol's schemas
 * (testing/fuzzRequests.ts) against a real server, on SQLite and, in `server-pg`, on PostgreSQL.
 * No request may get a 5xx; afterwards every accepted prompt is readable exactly once, no turn
 * is left running, and the stored `message.delta` rows of every message are contiguous (each
 * starts where the previous one ended; checked while replies stream, before compaction).
 *
 * FUZZ_N sets the number of requests (default 2,000) and FUZZ_SEED repeats a run; the status
 * counts are printed for PERFORMANCE.md.
 *
 * Nothing here sleeps: the server's turn timers run on a manual clock that slow replies advance
 * past the flush interval, and the run ends on the server's own events (questions, idle).
 */
import type { Message, MessagePage, Thread, ThreadDetail, Turn } from "@app/protocol";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_FLUSH_INTERVAL_MS } from "../domain/turnWriter.ts";
import type { ProviderAdapter, ProviderTurnContext } from "../providers/types.ts";
import type { ChatStore } from "../storage/chatStore.ts";
import { fuzzPlan, hostileProviderChunks } from "../testing/fuzzRequests.ts";
import { runFuzz } from "../testing/fuzzRunner.ts";
import {
  openTestStore,
  removeDir,
  startTestServer,
  type TestServer,
  testStoreKind,
} from "../testing/harness.ts";
import { ManualClock } from "../testing/manualClock.ts";

const N = Number(process.env.FUZZ_N ?? 2_000);
const SEED = Number(process.env.FUZZ_SEED ?? Date.now() % 1_000_000);

/**
 * Replies in a few chunks; one prompt in eleven streams slowly (several stored delta rows), and
 * a prompt with "?" first asks the user a question.
 */
class FuzzAdapter implements ProviderAdapter {
  readonly name = "fuzz";
  /** Hostile chunks (NUL, lone surrogates, split pairs), one set per turn by input length. */
  readonly #hostile = fc.sample(hostileProviderChunks, { numRuns: 50, seed: SEED });

  async runTurn(ctx: ProviderTurnContext): Promise<void> {
    const answer = ctx.startMessage("answer");
    if (ctx.input.includes("?")) {
      const answers = await ctx.requestUserInput([
        { id: "choice", prompt: "Which one?", options: ["A", "B"] },
      ]);
      answer.append(`Answered with ${Object.keys(answers).length} answer(s). `);
    }
    const slow = ctx.input.length % 11 === 3;
    // A slow reply: bursts of chunks, each burst ended by a flush interval (the writer queues a
    // delta row; later chunks arrive while its write is awaited), and the stored rows checked
    // then and before the reply completes (which compacts them).
    for (let i = 0; i < (slow ? 48 : 2); i++) {
      answer.append(`Chunk ${i} of ${ctx.turnId}. `);
      if (slow && i % 6 === 5) {
        clock.advance(DEFAULT_FLUSH_INTERVAL_MS);
        await deltas.check(store, ctx.threadId);
      } else {
        await new Promise((resolve) => setImmediate(resolve));
      }
    }
    if (slow) await deltas.check(store, ctx.threadId);
    for (const chunk of this.#hostile[ctx.input.length % this.#hostile.length]!) {
      answer.append(chunk);
    }
    answer.complete();
  }
}

/**
 * Checks, thread by thread, that each message's stored delta rows follow each other. Reads only
 * rows newer than the last one seen (compaction deletes a message's rows all at once, so no row
 * in the middle of a message can vanish unseen).
 */
class DeltaRowChecker {
  readonly violations: string[] = [];
  rows = 0;
  readonly #threads = new Map<string, { lastId: number; ends: Map<string, number> }>();

  async check(store: ChatStore, threadId: string): Promise<void> {
    let seen = this.#threads.get(threadId);
    if (!seen) {
      seen = { lastId: 0, ends: new Map() };
      this.#threads.set(threadId, seen);
    }
    for (const { id, event } of await store.eventsAfter(threadId, seen.lastId, 10_000)) {
      seen.lastId = id;
      if (event.type === "message.created") {
        seen.ends.set(event.message.id, event.message.text.length);
      }
      if (event.type !== "message.delta") continue;
      this.rows++;
      const end = seen.ends.get(event.messageId);
      if (end !== undefined && event.offset !== end) {
        this.violations.push(
          `thread ${threadId} event ${id}: delta at ${event.offset}, text ended at ${end}`,
        );
      }
      seen.ends.set(event.messageId, event.offset + event.delta.length);
    }
  }
}

/**
 * Answers every question asked until the server has no turn left to run: after each round of
 * answers it waits for the server to be idle, or for a question stored meanwhile.
 */
async function settle(server: TestServer, threadIds: string[]): Promise<void> {
  let wake = () => {};
  const subscriptions = await Promise.all(
    threadIds.map((id) =>
      server.events.subscribe(id, null, (live) => {
        if (live.event.type === "user_input.requested") wake();
      }),
    ),
  );
  try {
    await answerUntilIdle(server, threadIds, (asked) => {
      wake = asked;
    });
  } finally {
    for (const subscription of subscriptions) subscription.unsubscribe();
  }
}

async function answerUntilIdle(
  server: TestServer,
  threadIds: string[],
  onQuestion: (asked: () => void) => void,
): Promise<void> {
  for (let round = 0; round < 500; round++) {
    // Armed before the details are read: a question stored after the read wakes this round.
    const asked = new Promise<false>((resolve) => onQuestion(() => resolve(false)));
    let waiting = false;
    for (const id of threadIds) {
      const detail = await server.getJson<ThreadDetail>(`/api/threads/${encodeURIComponent(id)}`);
      if (detail.pendingUserInput) {
        waiting = true;
        await server.post(`/api/threads/${id}/user-input`, {
          requestId: detail.pendingUserInput.id,
          answers: { choice: "A" },
        });
      }
    }
    const idle = await Promise.race([server.provider.whenIdle().then(() => true), asked]);
    if (idle && !waiting) return;
  }
  throw new Error("The server never became idle.");
}

/** Every message and turn of a thread, through the history API (oldest page last). */
async function readThread(
  server: TestServer,
  threadId: string,
): Promise<{ messages: Message[]; turns: Turn[] }> {
  const messages: Message[] = [];
  const turns: Turn[] = [];
  let cursor: string | null = null;
  do {
    const query: string = cursor === null ? "limit=200" : `limit=200&before=${cursor}`;
    const page: MessagePage = await server.getJson<MessagePage>(
      `/api/threads/${threadId}/messages?${query}`,
    );
    messages.unshift(...page.messages);
    turns.push(...page.turns);
    cursor = page.nextCursor;
  } while (cursor !== null);
  return { messages, turns };
}

let server: TestServer;
let store: ChatStore;
const adapter = new FuzzAdapter();
const clock = new ManualClock();
const deltas = new DeltaRowChecker();

beforeAll(async () => {
  // Leases outlast the run: they are renewed on the manual clock, which moves only by the slow
  // replies' flush intervals, while the stores judge expiry by real time (a question can wait
  // for an answer the whole run).
  server = await startTestServer({ adapter, clock, turnLeaseMs: 600_000 });
  store = await openTestStore(server.dataDir);
});

afterAll(async () => {
  await store?.close();
  await server?.close();
  if (server) await removeDir(server.dataDir);
});

describe("fuzz", () => {
  it(`${N} generated requests: no 5xx, every accepted prompt once, nothing left running, contiguous deltas`, async () => {
    const seedThreads: string[] = [];
    for (let i = 0; i < 3; i++) {
      seedThreads.push(((await (await server.post("/api/threads", {})).json()) as Thread).id);
    }
    const plans = fc.sample(fuzzPlan, { numRuns: N, seed: SEED });

    const report = await runFuzz(server.url, plans, { concurrency: 6, seedThreads });
    const threadIds = [...new Set([...seedThreads, ...report.threadIds])];
    await settle(server, threadIds);

    const counts = [...report.statusCounts].sort(([a], [b]) => a - b);
    console.log(
      `fuzz on ${testStoreKind}, seed ${SEED}: ${N} requests (+${
        [...report.statusCounts.values()].reduce((a, b) => a + b, 0) - N
      } detail reads), by status ${counts.map(([s, n]) => `${s}: ${n}`).join(", ")}; ` +
        `${report.accepted.length} prompts accepted; ${deltas.rows} delta rows checked`,
    );
    expect(report.failures).toEqual([]);
    expect(deltas.violations).toEqual([]);

    // Integrity: each accepted prompt is stored once, as sent; no turn is left unfinished.
    const seen = new Map<string, Message[]>();
    for (const threadId of threadIds) {
      const detail = await server.getJson<ThreadDetail>(`/api/threads/${threadId}`);
      expect(detail.activeTurn).toBeNull();
      expect(detail.pendingUserInput).toBeNull();
      const { messages, turns } = await readThread(server, threadId);
      expect(
        turns.filter((t) => t.status === "running" || t.status === "waiting_for_input"),
      ).toEqual([]);
      for (const message of messages) {
        seen.set(message.id, [...(seen.get(message.id) ?? []), message]);
        expect(message.status).not.toBe("streaming");
        // Provider text is stored well-formed and without NUL on both stores.
        expect(/\p{Surrogate}|\0/u.test(message.text)).toBe(false);
      }
    }
    for (const prompt of report.accepted) {
      const copies = seen.get(prompt.messageId) ?? [];
      expect(copies.map((m) => ({ thread: m.threadId, text: m.text }))).toEqual([
        { thread: prompt.threadId, text: prompt.input },
      ]);
    }
    expect([...seen.values()].filter((copies) => copies.length > 1)).toEqual([]);
    expect(report.accepted.length).toBeGreaterThan(N / 20);
  }, 300_000);
});
