/**
 * The storage contract, run against both stores: SQLite in the `server` project, PostgreSQL in
 * `server-pg` (CHAT_TEST_STORE=postgres; see testing/harness.ts).
 */
import { join } from "node:path";
import fc from "fast-check";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  makeTempDir,
  openTestStore,
  removeDir,
  testDatabaseUrl,
  testStoreKind,
} from "../testing/harness.ts";
import type { ChatStore } from "./chatStore.ts";
import { openDatabase, SCHEMA_VERSION } from "./db.ts";
import { PG_SCHEMA_VERSION } from "./postgres/migrations.ts";

let dir: string;
let repo: ChatStore;
const SIZES = [0, 1, 2, 3, 7, 50, 201];
const threadOfSize = new Map<number, string>();

beforeAll(async () => {
  dir = await makeTempDir("chat-repo-");
  repo = await openTestStore(dir);
  await repo.transaction(async (tx) => {
    for (const size of SIZES) {
      const threadId = `thread-${size}`;
      threadOfSize.set(size, threadId);
      await tx.createThread({ id: threadId, title: null, now: "2026-01-01T00:00:00.000Z" });
      for (let i = 0; i < size; i += 2) {
        const turnId = `${threadId}-turn-${i}`;
        await tx.insertTurnWithPrompt({
          threadId,
          turnId,
          messageId: `${threadId}-m${i + 1}`,
          text: `prompt ${i}`,
          providerInput: `prompt ${i}`,
          now: "2026-01-01T00:00:01.000Z",
        });
        if (i + 1 < size) {
          await tx.insertAssistantMessage({
            id: `${threadId}-m${i + 2}`,
            threadId,
            turnId,
            kind: "answer",
            text: `answer ${i}`,
            status: "complete",
            now: "2026-01-01T00:00:02.000Z",
          });
        }
      }
    }
  });
});

afterAll(async () => {
  await repo.close();
  await removeDir(dir);
});

const sizeArb = fc.constantFrom(...SIZES);

describe("ChatRepository history (property-based)", () => {
  it("walking pages back from the newest covers every message once, in order", async () => {
    await fc.assert(
      fc.asyncProperty(sizeArb, fc.integer({ min: 1, max: 60 }), async (size, limit) => {
        const threadId = threadOfSize.get(size)!;
        const seen: number[] = [];
        let before: number | null = null;
        for (;;) {
          const page = await repo.messagesBefore(threadId, before, limit);
          expect(page.messages.length).toBeLessThanOrEqual(limit);
          seen.unshift(...page.messages.map((m) => m.seq));
          if (!page.hasOlder) break;
          before = page.messages[0]!.seq;
        }
        expect(seen).toEqual(Array.from({ length: size }, (_, i) => i + 1));
      }),
    );
  });

  it("an around window holds its anchor, is contiguous, full where possible, and reports its edges", async () => {
    const nonEmpty = SIZES.filter((s) => s > 0);
    await fc.assert(
      fc.asyncProperty(
        fc
          .constantFrom(...nonEmpty)
          .chain((size) =>
            fc.tuple(
              fc.constant(size),
              fc.integer({ min: 1, max: size }),
              fc.integer({ min: 1, max: 60 }),
            ),
          ),
        async ([size, anchorSeq, limit]) => {
          const threadId = threadOfSize.get(size)!;
          const anchor = (await repo.getMessage(`${threadId}-m${anchorSeq}`))!;
          const window = await repo.messagesAround(anchor, limit);
          const seqs = window.messages.map((m) => m.seq);
          expect(seqs).toContain(anchorSeq);
          expect(seqs.length).toBe(Math.min(limit, size));
          expect(seqs).toEqual(Array.from({ length: seqs.length }, (_, i) => seqs[0]! + i));
          expect(window.hasOlder).toBe(seqs[0]! > 1);
          expect(window.hasNewer).toBe(seqs.at(-1)! < size);
          // Centred unless an end of the thread cuts one side short.
          const older = anchorSeq - seqs[0]!;
          const newer = seqs.at(-1)! - anchorSeq;
          if (window.hasOlder && window.hasNewer) {
            expect(Math.abs(older - newer)).toBeLessThanOrEqual(1);
          }
        },
      ),
    );
  });

  it("after pages continue exactly where a page ends", async () => {
    await fc.assert(
      fc.asyncProperty(
        sizeArb,
        fc.integer({ min: 0, max: 210 }),
        fc.integer({ min: 1, max: 60 }),
        async (size, after, limit) => {
          const threadId = threadOfSize.get(size)!;
          const page = await repo.messagesAfter(threadId, after, limit);
          const expected = Array.from(
            { length: Math.max(0, Math.min(limit, size - after)) },
            (_, i) => after + 1 + i,
          );
          expect(page.messages.map((m) => m.seq)).toEqual(expected);
          expect(page.hasNewer).toBe(after + limit < size);
        },
      ),
    );
  });
});

describe("provider history (historyBefore)", () => {
  it("is the newest unbroken run of turns within the turn count and the byte budget", async () => {
    const threadId = "thread-history";
    // Provider inputs of turn i: 10 bytes, but turn 3's answer is 1,000 bytes and turn 5 has
    // no complete answer; "é" counts two bytes.
    await repo.transaction(async (tx) => {
      await tx.createThread({ id: threadId, title: null, now: "2026-01-01T00:00:00.000Z" });
      for (let i = 0; i < 8; i++) {
        const turnId = `${threadId}-t${i}`;
        await tx.insertTurnWithPrompt({
          threadId,
          turnId,
          messageId: `${turnId}-p`,
          text: `prompt ${i}`,
          providerInput: `input é ${i}`,
          now: "2026-01-01T00:00:01.000Z",
        });
        await tx.insertAssistantMessage({
          id: `${turnId}-a`,
          threadId,
          turnId,
          kind: "answer",
          text: i === 3 ? "x".repeat(1000) : `answer ${i}`,
          status: i === 5 ? "error" : "complete",
          now: "2026-01-01T00:00:02.000Z",
        });
      }
    });
    const lastSeq = await repo.lastSeq(threadId);
    const inputs = async (maxTurns: number, maxChars: number) =>
      (await repo.historyBefore(threadId, lastSeq - 1, { maxTurns, maxChars })).map(
        (turn) => `${turn.input}|${turn.answer?.slice(0, 8) ?? null}`,
      );
    // Turn 7's prompt is at lastSeq - 1: history is turns 0-6.
    expect(await inputs(50, 1_000_000)).toEqual([
      "input é 0|answer 0",
      "input é 1|answer 1",
      "input é 2|answer 2",
      "input é 3|xxxxxxxx",
      "input é 4|answer 4",
      "input é 5|null",
      "input é 6|answer 6",
    ]);
    expect(await inputs(2, 1_000_000)).toEqual(["input é 5|null", "input é 6|answer 6"]);
    // 10 + 8 bytes per turn, turn 5 only 10: turns 6, 5, 4 take 46 bytes; turn 3 (1,010) does
    // not fit, and it ends the history although turns 0-2 would.
    expect(await inputs(50, 1_000)).toEqual([
      "input é 4|answer 4",
      "input é 5|null",
      "input é 6|answer 6",
    ]);
    expect(await inputs(50, 46)).toEqual([
      "input é 4|answer 4",
      "input é 5|null",
      "input é 6|answer 6",
    ]);
    expect(await inputs(50, 45)).toEqual(["input é 5|null", "input é 6|answer 6"]);
    expect(await inputs(50, 10)).toEqual([]);
    expect(await inputs(0, 1_000_000)).toEqual([]);
  });
});

describe("what a write returns", () => {
  it("is what a read gives afterwards: a turn, its prompt, an answer streaming and finished", async () => {
    const now = "2026-01-01T00:00:03.000Z";
    const written = await repo.transaction(async (tx) => {
      await tx.createThread({ id: "returns", title: null, now });
      const sent = await tx.insertTurnWithPrompt({
        threadId: "returns",
        turnId: "returns-turn",
        messageId: "returns-m1",
        text: "a **prompt**",
        providerInput: "a **prompt**",
        now,
      });
      const streaming = await tx.insertAssistantMessage({
        id: "returns-m2",
        threadId: "returns",
        turnId: "returns-turn",
        kind: "answer",
        text: "",
        status: "streaming",
        now,
      });
      const notice = await tx.insertAssistantMessage({
        id: "returns-m3",
        threadId: "returns",
        turnId: "returns-turn",
        kind: "error",
        text: "It failed.",
        status: "complete",
        now,
      });
      const finished = await tx.finishMessage("returns-m2", "The answer.", "complete");
      const ended = await tx.updateTurn({
        id: "returns-turn",
        status: "failed",
        error: { code: "provider_error", message: "It failed." },
        completedAt: now,
      });
      return { sent, streaming, notice, finished, ended };
    });
    expect(written.streaming).toEqual({
      ...(await repo.getMessage("returns-m2")),
      text: "",
      status: "streaming",
    });
    expect(written.sent.message).toEqual(await repo.getMessage("returns-m1"));
    expect(written.notice).toEqual(await repo.getMessage("returns-m3"));
    expect(written.finished).toEqual(await repo.getMessage("returns-m2"));
    expect(written.ended).toEqual(await repo.getTurn("returns-turn"));
    expect(written.sent.turn).toEqual({
      ...written.ended,
      status: "running",
      error: null,
      completedAt: null,
    });
  });
});

describe("thread list", () => {
  it("lists a thread only from its first message, so an opened, never-sent thread stays out", async () => {
    const listed = async () =>
      (await repo.listThreads({ after: null, limit: 500 })).map((thread) => thread.id);
    const seeded = SIZES.map((size) => threadOfSize.get(size)!);
    expect((await listed()).filter((id) => seeded.includes(id)).sort()).toEqual(
      SIZES.filter((size) => size > 0)
        .map((size) => threadOfSize.get(size)!)
        .sort(),
    );
    await repo.transaction((tx) =>
      tx.createThread({ id: "draft-thread", title: null, now: "2026-01-02T00:00:00.000Z" }),
    );
    expect(await listed()).not.toContain("draft-thread");
    await repo.transaction((tx) =>
      tx.insertTurnWithPrompt({
        threadId: "draft-thread",
        turnId: "draft-thread-turn",
        messageId: "draft-thread-m1",
        text: "first send",
        providerInput: "first send",
        now: "2026-01-02T00:00:01.000Z",
      }),
    );
    expect((await listed())[0]).toBe("draft-thread");
  });
});

describe("turn queue and leases", () => {
  const now = "2026-01-02T00:00:00.000Z";
  async function threadWithTurns(id: string, count: number): Promise<string[]> {
    return repo.transaction(async (tx) => {
      await tx.createThread({ id, title: null, now });
      const turnIds: string[] = [];
      for (let i = 0; i < count; i++) {
        const turnId = `${id}-turn-${i}`;
        await tx.insertTurnWithPrompt({
          threadId: id,
          turnId,
          messageId: `${id}-m${i}`,
          text: `prompt ${i}`,
          providerInput: `input ${i}`,
          now,
        });
        turnIds.push(turnId);
      }
      return turnIds;
    });
  }

  it("hands out only the oldest unfinished turn, leased to one owner at a time", async () => {
    const [first, second] = await threadWithTurns("queue-1", 2);
    expect(await repo.threadsAwaitingTurns()).toContain("queue-1");
    const head = await repo.transaction(async (tx) => {
      await tx.lockTurnQueue("queue-1");
      return tx.queueHead("queue-1");
    });
    expect(head).toMatchObject({ turn: { id: first }, state: "queued" });
    const input = await repo.transaction((tx) => tx.claimTurn(first!, "owner-a", 60_000));
    expect(input).toBe("input 0");
    expect(await repo.queueHead("queue-1")).toMatchObject({ turn: { id: first }, state: "leased" });
    // Only its owner renews it.
    expect(await repo.renewLease(first!, "owner-b", 60_000)).toBe(false);
    expect(await repo.renewLease(first!, "owner-a", 60_000)).toBe(true);
    // Once it ends, the next turn is the head, and the ended one cannot be renewed.
    await repo.transaction((tx) =>
      tx.updateTurn({ id: first!, status: "completed", completedAt: now }),
    );
    expect(await repo.renewLease(first!, "owner-a", 60_000)).toBe(false);
    expect(await repo.queueHead("queue-1")).toMatchObject({
      turn: { id: second },
      state: "queued",
    });
  });

  it("reports a lease its owner stopped renewing as expired", async () => {
    const [turn] = await threadWithTurns("queue-2", 1);
    // Its time ran out a minute ago (the stores judge expiry by their own clock: no wait).
    await repo.transaction((tx) => tx.claimTurn(turn!, "owner-a", -60_000));
    expect(await repo.queueHead("queue-2")).toMatchObject({ turn: { id: turn }, state: "expired" });
    expect(await repo.threadsAwaitingTurns()).toContain("queue-2");
  });

  it("lists as started only claimed unfinished turns, and a released claim is queued again", async () => {
    const [first, second, third] = await threadWithTurns("queue-3", 3);
    const started = async () =>
      (await repo.startedUnfinishedTurns())
        .map((t) => t.id)
        .filter((id) => id.startsWith("queue-3"));
    expect(await started()).toEqual([]);
    await repo.transaction((tx) => tx.claimTurn(first!, "owner-a", 60_000));
    expect(await started()).toEqual([first]);
    // Released by another owner: nothing changes; by its owner: queued again, not started.
    await repo.transaction((tx) => tx.releaseTurn(first!, "owner-b"));
    expect(await repo.queueHead("queue-3")).toMatchObject({ turn: { id: first }, state: "leased" });
    await repo.transaction((tx) => tx.releaseTurn(first!, "owner-a"));
    expect(await repo.queueHead("queue-3")).toMatchObject({ turn: { id: first }, state: "queued" });
    expect(await started()).toEqual([]);
    // A finished turn is not left unfinished; the ones behind it were never started.
    await repo.transaction((tx) => tx.claimTurn(first!, "owner-a", 60_000));
    await repo.transaction((tx) =>
      tx.updateTurn({ id: first!, status: "completed", completedAt: now }),
    );
    expect(await started()).toEqual([]);
    await repo.transaction((tx) => tx.claimTurn(second!, "owner-a", 60_000));
    expect(await started()).toEqual([second]);
    expect(await repo.queueHead("queue-3")).toMatchObject({ turn: { id: second } });
    expect(third).toBeDefined();
  });

  it("numbers a thread's events 1, 2, 3… and reads them back after any id", async () => {
    await threadWithTurns("events-1", 0);
    const ids = await repo.transaction(async (tx) => {
      const out: number[] = [];
      for (let i = 0; i < 3; i++) {
        out.push(
          await tx.appendEvent("events-1", {
            type: "message.delta",
            messageId: "x",
            offset: i,
            delta: "a",
          }),
        );
      }
      return out;
    });
    expect(ids).toEqual([1, 2, 3]);
    expect((await repo.eventsAfter("events-1", 1, 10)).map((e) => e.id)).toEqual([2, 3]);
    expect((await repo.getThread("events-1"))?.lastEventId).toBe(3);
  });

  it("keeps a user's answers with the request", async () => {
    const [turn] = await threadWithTurns("answers-1", 1);
    await repo.transaction((tx) =>
      tx.insertUserInputRequest({
        id: "req-1",
        threadId: "answers-1",
        turnId: turn!,
        questions: [{ id: "q", prompt: "Which?" }],
        now,
      }),
    );
    const resolved = await repo.transaction((tx) =>
      tx.resolveUserInputRequest({ id: "req-1", status: "answered", answers: { q: "this" }, now }),
    );
    expect(resolved).toBe(true);
    expect(await repo.getUserInputRequest("req-1")).toMatchObject({
      status: "answered",
      answers: { q: "this" },
    });
  });

  it("rolls back every write of a transaction that throws", async () => {
    await expect(
      repo.transaction(async (tx) => {
        await tx.createThread({ id: "rolled-back", title: null, now });
        throw new Error("boom");
      }),
    ).rejects.toThrow("boom");
    expect(await repo.getThread("rolled-back")).toBeNull();
  });

  it("keeps transactions asked for at once apart: one that throws takes only its own writes back", async () => {
    // SQLite commits these together (group commit, issue 33), each in its own savepoint.
    const events: number[] = [];
    const results = await Promise.allSettled(
      ["group-a", "group-b", "group-c", "group-d"].map((id) =>
        repo.transaction(async (tx) => {
          await tx.createThread({ id, title: id, now });
          events.push(
            await tx.appendEvent(id, {
              type: "thread.updated",
              thread: (await tx.getThread(id))!.thread,
            }),
          );
          if (id === "group-b" || id === "group-d") throw new Error(`no ${id}`);
          return id;
        }),
      ),
    );
    expect(results.map((r) => (r.status === "fulfilled" ? r.value : String(r.reason)))).toEqual([
      "group-a",
      "Error: no group-b",
      "group-c",
      "Error: no group-d",
    ]);
    expect(events).toEqual([1, 1, 1, 1]);
    expect((await repo.getThread("group-a"))?.lastEventId).toBe(1);
    expect(await repo.getThread("group-b")).toBeNull();
    expect((await repo.getThread("group-c"))?.lastEventId).toBe(1);
    expect(await repo.getThread("group-d")).toBeNull();
    expect((await repo.eventsAfter("group-c", 0, 10)).map((e) => e.id)).toEqual([1]);
  });
});

describe("schema and environment", () => {
  it("keeps the environment id across reopenings", async () => {
    const other = await makeTempDir("chat-repo-env-");
    try {
      const first = await openTestStore(other);
      const id = first.environmentId;
      expect(id).toMatch(/^[0-9a-f-]{36}$/);
      await first.close();
      const second = await openTestStore(other);
      expect(second.environmentId).toBe(id);
      await second.close();
    } finally {
      await removeDir(other);
    }
  });

  it("refuses a database written by a newer schema with a clear message", async () => {
    const other = await makeTempDir("chat-repo-new-");
    try {
      if (testStoreKind === "postgres") {
        await (await openTestStore(other)).close();
        const client = new pg.Client({ connectionString: (await testDatabaseUrl(other))! });
        await client.connect();
        await client.query("INSERT INTO schema_migrations (version) VALUES ($1)", [
          PG_SCHEMA_VERSION + 1,
        ]);
        await client.end();
        await expect(openTestStore(other)).rejects.toThrow(/newer than this server/);
      } else {
        const first = openDatabase(join(other, "chat.sqlite"));
        first.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
        first.close();
        expect(() => openDatabase(join(other, "chat.sqlite"))).toThrow(/newer than this server/);
      }
    } finally {
      await removeDir(other);
    }
  });

  it.runIf(testStoreKind === "sqlite")("opens SQLite in WAL mode with foreign keys", async () => {
    const other = await makeTempDir("chat-repo-wal-");
    try {
      const db = openDatabase(join(other, "chat.sqlite"));
      expect(db.pragma("user_version", { simple: true })).toBe(SCHEMA_VERSION);
      expect(db.pragma("journal_mode", { simple: true })).toBe("wal");
      expect(db.pragma("foreign_keys", { simple: true })).toBe(1);
      db.close();
    } finally {
      await removeDir(other);
    }
  });
});
