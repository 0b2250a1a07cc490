/**
 * Fuzz test (issue 19, "Tests and figures"): requests generated from the protocol's schemas
 * (testing/fuzzRequests.ts) against a real server, on SQLite and, in `server-pg`, on PostgreSQL.
 * No request may get a 5xx; afterwards every accepted prompt is readable exactly once, no turn
 * is left running, and the stored `message.delta` rows of every message are contiguous (each
 * starts where the previous one ended; checked while replies stream, before compaction).
 *
 * FUZZ_N sets the number of requests (default 2,000) and FUZZ_SEED repeats a run; the status
 * counts are printed for PERFORMANCE.md.
 */
import { setTimeout as sleep } from "node:timers/promises";
import type { Message, MessagePage, Thread, ThreadDetail, Turn } from "@app/protocol";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ProviderAdapter, ProviderTurnContext } from "../providers/types.ts";
import type { ChatStore } from "../storage/chatStore.ts";
import { fuzzPlan } from "../testing/fuzzRequests.ts";
import { runFuzz } from "../testing/fuzzRunner.ts";
import {
  openTestStore,
  removeDir,
  startTestServer,
  type TestServer,
  testStoreKind,
} from "../testing/harness.ts";

const N = Number(process.env.FUZZ_N ?? 2_000);
const SEED = Number(process.env.FUZZ_SEED ?? Date.now() % 1_000_000);

/**
 * Replies in a few chunks; one prompt in eleven streams slowly (several stored delta rows), and
 * a prompt with "?" first asks the user a question.
 */
class FuzzAdapter implements ProviderAdapter {
  readonly name = "fuzz";
  /** Threads with a slow reply streaming now: the delta checker reads these. */
  readonly streaming = new Set<string>();

  async runTurn(ctx: ProviderTurnContext): Promise<void> {
    const answer = ctx.startMessage("answer");
    if (ctx.input.includes("?")) {
      const answers = await ctx.requestUserInput([
        { id: "choice", prompt: "Which one?", options: ["A", "B"] },
      ]);
      answer.append(`Answered with ${Object.keys(answers).length} answer(s). `);
    }
    const slow = ctx.input.length % 11 === 3;
    if (slow) this.streaming.add(ctx.threadId);
    try {
      for (let i = 0; i < (slow ? 6 : 2); i++) {
        answer.append(`Chunk ${i} of ${ctx.turnId}. `);
        await (slow ? sleep(30) : new Promise((resolve) => setImmediate(resolve)));
      }
    } finally {
      this.streaming.delete(ctx.threadId);
    }
    answer.complete();
  }
}

/** Checks that each message's stored delta rows follow each other; returns rows checked. */
async function checkDeltaRows(
  store: ChatStore,
  threadId: string,
  violations: string[],
): Promise<number> {
  const ends = new Map<string, number>();
  let rows = 0;
  for (const { id, event } of await store.eventsAfter(threadId, 0, 100_000)) {
    if (event.type === "message.created") ends.set(event.message.id, event.message.text.length);
    if (event.type !== "message.delta") continue;
    rows++;
    const end = ends.get(event.messageId);
    if (end !== undefined && event.offset !== end) {
      violations.push(
        `thread ${threadId} event ${id}: delta at ${event.offset}, text ended at ${end}`,
      );
    }
    ends.set(event.messageId, event.offset + event.delta.length);
  }
  return rows;
}

/** Answers every question asked until the server has no turn left to run. */
async function settle(server: TestServer, threadIds: string[]): Promise<void> {
  for (let round = 0; round < 500; round++) {
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
    const idle = await Promise.race([
      server.provider.whenIdle().then(() => true),
      sleep(200).then(() => false),
    ]);
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

beforeAll(async () => {
  server = await startTestServer({ adapter });
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

    // Reads the stored delta rows of threads whose reply is streaming, until the run ends.
    const violations: string[] = [];
    let rowsChecked = 0;
    let running = true;
    const checker = (async () => {
      while (running) {
        for (const threadId of [...adapter.streaming]) {
          rowsChecked += await checkDeltaRows(store, threadId, violations);
        }
        await sleep(15);
      }
    })();
    let report: Awaited<ReturnType<typeof runFuzz>>;
    let threadIds: string[];
    try {
      report = await runFuzz(server.url, plans, { concurrency: 6, seedThreads });
      threadIds = [...new Set([...seedThreads, ...report.threadIds])];
      await settle(server, threadIds);
    } finally {
      running = false;
      await checker;
    }

    const counts = [...report.statusCounts].sort(([a], [b]) => a - b);
    console.log(
      `fuzz on ${testStoreKind}, seed ${SEED}: ${N} requests (+${
        [...report.statusCounts.values()].reduce((a, b) => a + b, 0) - N
      } detail reads), by status ${counts.map(([s, n]) => `${s}: ${n}`).join(", ")}; ` +
        `${report.accepted.length} prompts accepted; ${rowsChecked} delta rows checked`,
    );
    expect(report.failures).toEqual([]);
    expect(violations).toEqual([]);

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
