/**
 * When the search indexer renders (`indexPacing.ts`, issue 33): the policy itself on a manual
 * clock and event-loop meter, and the indexer that follows it on a real SQLite file, where a
 * reply waits unindexed while the loop is busy, yet a search (or `searchIndexIdle`) indexes it
 * first and finds it, and the queue is indexed without a search once the loop has room.
 */
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { searchThread } from "../domain/threadSearch.ts";
import { makeTempDir, removeDir } from "../testing/harness.ts";
import { storeTurnWithStreamingReply } from "../testing/streamingTurn.ts";
import type { ChatStore } from "./chatStore.ts";
import { openDatabase } from "./db.ts";
import {
  BUSY_UTILIZATION,
  eventLoopPacing,
  type IndexPacing,
  MAX_WAIT_MS,
  PROBE_MS,
  pacingFor,
  renderAtOnce,
  SHARED_CORES,
} from "./indexPacing.ts";
import { createSqliteStore } from "./sqliteStore.ts";

type Meter = { idle: number; active: number; utilization: number };

/** A manual clock and an event-loop meter the test drives. */
function manualLoop() {
  let at = 0;
  const total = { idle: 0, active: 0 };
  let reads = 0;
  const snapshot = (): Meter => ({ ...total, utilization: 0 });
  const utilization = (current?: Meter, previous?: Meter): Meter => {
    if (!current) {
      reads++;
      return snapshot();
    }
    const base = previous ?? { idle: 0, active: 0 };
    const idle = current.idle - base.idle;
    const active = current.active - base.active;
    return { idle, active, utilization: idle + active === 0 ? 0 : active / (idle + active) };
  };
  return {
    now: () => at,
    utilization,
    reads: () => reads,
    /** `ms` pass with the loop busy for `share` of them. */
    pass(ms: number, share: number) {
      at += ms;
      total.active += ms * share;
      total.idle += ms * (1 - share);
    },
  };
}

describe("eventLoopPacing", () => {
  it("renders at once until a first batch is written", () => {
    const loop = manualLoop();
    const pacing = eventLoopPacing(loop);
    loop.pass(PROBE_MS, 1);
    expect(pacing.shouldWait()).toBe(false);
  });

  it("after a batch, waits while the last window was busy, not once the loop has room", () => {
    const loop = manualLoop();
    const pacing = eventLoopPacing(loop);
    pacing.progressed();
    loop.pass(PROBE_MS, BUSY_UTILIZATION + 0.1);
    expect(pacing.shouldWait()).toBe(true);
    loop.pass(PROBE_MS, BUSY_UTILIZATION);
    expect(pacing.shouldWait()).toBe(false);
  });

  it("keeps a verdict for one window: a share over a moment is not read", () => {
    const loop = manualLoop();
    const pacing = eventLoopPacing(loop);
    pacing.progressed();
    loop.pass(PROBE_MS, 1);
    expect(pacing.shouldWait()).toBe(true);
    const reads = loop.reads();
    loop.pass(PROBE_MS / 10, 0);
    expect(pacing.shouldWait()).toBe(true);
    expect(loop.reads()).toBe(reads);
  });

  it("renders a batch at least every MAX_WAIT_MS however busy the loop stays", () => {
    const loop = manualLoop();
    const pacing = eventLoopPacing(loop);
    pacing.progressed();
    let waited = 0;
    do {
      loop.pass(PROBE_MS, 1);
      waited += PROBE_MS;
    } while (pacing.shouldWait());
    expect(waited).toBe(MAX_WAIT_MS);
    pacing.progressed();
    loop.pass(PROBE_MS, 1);
    expect(pacing.shouldWait()).toBe(true);
  });
});

describe("pacingFor", () => {
  it("paces a store of its own where the worker shares the event loop's cores", () => {
    const own = pacingFor(false, SHARED_CORES);
    expect(own).not.toBe(renderAtOnce);
    expect(own.shouldWait()).toBe(false);
  });

  it("renders at once on a database other processes share, or with a core to spare", () => {
    expect(pacingFor(true, SHARED_CORES)).toBe(renderAtOnce);
    expect(pacingFor(false, SHARED_CORES + 1)).toBe(renderAtOnce);
  });
});

describe("the search indexer while the event loop is busy (SQLite)", { timeout: 30_000 }, () => {
  const NOW = "2026-01-01T00:00:00.000Z";
  let dir: string;
  let store: ChatStore;
  /** The loop is busy while `busy` is true; counts the batches written. */
  const pacing = { busy: true, batches: 0 };
  const controlled: IndexPacing = {
    shouldWait: () => pacing.busy,
    progressed: () => {
      pacing.batches++;
    },
  };

  beforeEach(async () => {
    dir = await makeTempDir("chat-index-pacing-");
    pacing.busy = true;
    pacing.batches = 0;
    store = createSqliteStore(openDatabase(join(dir, "chat.sqlite")), { indexPacing: controlled });
  });

  afterEach(async () => {
    await store.close();
    await removeDir(dir);
  });

  /** The queue, read from the file by a connection of its own. */
  const queued = (): string[] => {
    const db = new Database(join(dir, "chat.sqlite"), { readonly: true });
    try {
      return (
        db.prepare("SELECT message_id FROM search_pending ORDER BY 1").all() as {
          message_id: string;
        }[]
      ).map((row) => row.message_id);
    } finally {
      db.close();
    }
  };

  /** A thread with a finished turn, "kiwi" in its prompt and its answer. */
  const finishedTurn = () =>
    store.transaction(async (tx) => {
      await tx.createThread({ id: "t", title: null, now: NOW });
      await storeTurnWithStreamingReply(tx, {
        threadId: "t",
        turnId: "turn-1",
        promptId: "u1",
        prompt: "a kiwi question",
        providerInput: "a kiwi question",
        replyId: "a1",
        now: NOW,
      });
      await tx.finishMessage("a1", "The **kiwi** answer.", "complete");
    });

  const kiwi = () =>
    searchThread(store, "t", { query: "kiwi", caseSensitive: false, wholeWord: false });

  it("leaves a reply queued while the loop is busy, and a search indexes it first and finds it", async () => {
    await finishedTurn();
    // Several looks later (each PROBE_MS), still waiting: nothing was rendered.
    await new Promise((resolve) => setTimeout(resolve, 4 * PROBE_MS));
    expect(queued()).toEqual(["a1", "u1"]);
    expect(pacing.batches).toBe(0);

    const found = await kiwi();
    expect(found.matches.map((match) => match.messageId)).toEqual(["u1", "a1"]);
    expect(queued()).toEqual([]);
  });

  it("indexes the queue without a search once the loop has room", async () => {
    await finishedTurn();
    expect(queued()).toEqual(["a1", "u1"]);
    pacing.busy = false;
    await expect.poll(queued, { interval: PROBE_MS }).toEqual([]);
    expect(pacing.batches).toBeGreaterThan(0);
  });

  it("indexes what waits when asked to be idle (searchIndexIdle)", async () => {
    await finishedTurn();
    await store.searchIndexIdle();
    expect(queued()).toEqual([]);
    expect((await kiwi()).matches).toHaveLength(2);
  });
});
