/**
 * The provider history on PostgreSQL (issue 33): its sizes query walks the thread's newest turns
 * by index whatever the statistics say (on a fresh database, planned as a join, it read every
 * answer of the database for each turn), and the texts the store keeps (`historyTexts.ts`)
 * never stand in for a newer version.
 */
import { randomUUID } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeTempDir, removeDir, testDatabaseUrl } from "../../testing/harness.ts";
import type { ChatStore } from "../chatStore.ts";
import { historySizesSql } from "./pgHistory.ts";
import { openPostgresStore } from "./postgresStore.ts";

const BUDGET = { maxTurns: 50, maxChars: 1_000_000 };
let dataDir: string;
let url: string;
let store: ChatStore;
let raw: pg.Client;

beforeAll(async () => {
  dataDir = await makeTempDir("chat-history-");
  url = (await testDatabaseUrl(dataDir))!;
  store = await openPostgresStore({ url, poolSize: 2 });
  raw = new pg.Client({ connectionString: url });
  await raw.connect();
});

afterAll(async () => {
  await raw?.end();
  await store?.close();
  await removeDir(dataDir);
});

/** A thread of `turns` completed turns; returns its id and the seq after its last message. */
async function threadOf(turns: number): Promise<{ threadId: string; end: number }> {
  const threadId = randomUUID();
  const now = new Date().toISOString();
  await store.createThread({ id: threadId, title: null, now });
  for (let i = 0; i < turns; i++) {
    await store.transaction(async (tx) => {
      const { turn } = await tx.insertTurnWithPrompt({
        threadId,
        turnId: randomUUID(),
        messageId: randomUUID(),
        text: `prompt ${i}`,
        providerInput: `input ${i}`,
        now,
      });
      await tx.insertAssistantMessage({
        id: randomUUID(),
        threadId,
        turnId: turn.id,
        kind: "answer",
        text: `answer ${i}`,
        status: "complete",
        now,
      });
      await tx.updateTurn({ id: turn.id, status: "completed", completedAt: now });
    });
  }
  return { threadId, end: (await store.lastSeq(threadId)) + 1 };
}

describe("provider history on PostgreSQL", () => {
  it("walks the thread's turns by index, even without statistics", async () => {
    const [{ threadId, end }] = await Promise.all([threadOf(20), threadOf(20), threadOf(20)]);
    // As on a database no ANALYZE has seen yet.
    await raw.query(
      `DELETE FROM pg_statistic WHERE starelid IN ('messages'::regclass, 'turns'::regclass)`,
    );
    await raw.query(
      `UPDATE pg_class SET reltuples = -1, relpages = 0
       WHERE oid IN ('messages'::regclass, 'turns'::regclass)`,
    );
    for (const ancestors of [false, true]) {
      const plan = (
        await raw.query<{ "QUERY PLAN": string }>(
          `EXPLAIN ${historySizesSql(ancestors)}`
            .replaceAll("$1", `'${threadId}'`)
            .replaceAll("$2", String(end))
            .replaceAll("$3", "50"),
        )
      ).rows
        .map((row) => row["QUERY PLAN"])
        .join("\n");
      // (The rare path of a hidden prompt walks its ancestors with a recursive join first.)
      if (!ancestors) expect(plan).not.toMatch(/Seq Scan on (messages|turns)/);
      // Each turn's answer is found by its turn id, its prompt by (thread, seq).
      expect(plan).toMatch(/Index Cond: \(turn_id = t\.id\)/);
      expect(plan).toMatch(/Index Cond: \(turn_id = r\.id\)/);
      expect(plan).toMatch(
        /Index Cond: \(\(thread_id = t\.thread_id\) AND \(seq = t\.prompt_seq\)\)/,
      );
    }
    const history = await store.historyBefore(threadId, end, BUDGET);
    expect(history.map((turn) => [turn.input, turn.answer])).toEqual(
      Array.from({ length: 20 }, (_, i) => [`input ${i}`, `answer ${i}`]),
    );
  });

  it("reads the same history from kept texts, and a regeneration's answer once chosen", async () => {
    const { threadId, end } = await threadOf(3);
    const first = await store.historyBefore(threadId, end, BUDGET);
    expect(await store.historyBefore(threadId, end, BUDGET)).toEqual(first);
    // A regeneration of the last turn answers anew: its answer replaces the kept one.
    const [last] = await raw
      .query<{ id: string; answer: string }>(
        `SELECT t.id, m.id AS answer FROM turns t JOIN messages m ON m.turn_id = t.id
       WHERE t.thread_id = $1 AND m.kind = 'answer' ORDER BY t.prompt_seq DESC LIMIT 1`,
        [threadId],
      )
      .then((result) => result.rows);
    const now = new Date().toISOString();
    await store.transaction(async (tx) => {
      const turn = await tx.insertRegenerateTurn({
        threadId,
        turnId: randomUUID(),
        sourceTurnId: last!.id,
        regeneratesId: last!.answer,
        providerInput: "input 2",
        now,
      });
      await tx.insertAssistantMessage({
        id: randomUUID(),
        threadId,
        turnId: turn.id,
        kind: "answer",
        text: "answer 2, again",
        status: "complete",
        now,
      });
      await tx.updateTurn({ id: turn.id, status: "completed", completedAt: now });
    });
    const after = await store.historyBefore(threadId, Number.MAX_SAFE_INTEGER, BUDGET);
    expect(after.map((turn) => turn.answer)).toEqual(["answer 0", "answer 1", "answer 2, again"]);
  });
});
