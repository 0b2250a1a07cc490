/**
 * Schema migration 2 (turns may be `cancelled`; the active turn has its own partial index) and
 * the later ones (the find-in-thread index of migration 6 included) on a real version-1 database
 * file, and the active-turn query's plan on a thread of 45,000 turns.
 */
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { makeTempDir, removeDir } from "../testing/harness.ts";
import { SQLITE_UNDO_EVENTS_IN_WRITE_ORDER } from "../testing/schemaRollback.ts";
import { openDatabase, SCHEMA_VERSION } from "./db.ts";
import { createChatRepository } from "./repository.ts";

let dir = "";
afterEach(async () => {
  if (dir) await removeDir(dir);
  dir = "";
});

/** The version-1 schema of the turns table, as the first release created it. */
function createVersion1(file: string): void {
  const db = new Database(file);
  db.exec(`
    CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) STRICT;
    CREATE TABLE threads (id TEXT PRIMARY KEY, title TEXT NOT NULL,
      title_source TEXT NOT NULL CHECK (title_source IN ('default', 'custom', 'prompt')),
      branch_name TEXT, created_at TEXT NOT NULL, updated_at TEXT NOT NULL,
      message_count INTEGER NOT NULL DEFAULT 0, last_seq INTEGER NOT NULL DEFAULT 0,
      last_event_id INTEGER NOT NULL DEFAULT 0) STRICT;
    CREATE INDEX threads_by_updated ON threads (updated_at DESC, id);
    CREATE TABLE turns (id TEXT PRIMARY KEY,
      thread_id TEXT NOT NULL REFERENCES threads (id) ON DELETE CASCADE,
      prompt_seq INTEGER NOT NULL,
      status TEXT NOT NULL CHECK (status IN ('running', 'waiting_for_input', 'completed', 'failed')),
      error_code TEXT, error_message TEXT, provider_input TEXT NOT NULL,
      created_at TEXT NOT NULL, completed_at TEXT) STRICT;
    CREATE UNIQUE INDEX turns_by_thread ON turns (thread_id, prompt_seq);
    CREATE INDEX turns_unfinished ON turns (status) WHERE status IN ('running', 'waiting_for_input');
    CREATE TABLE messages (id TEXT PRIMARY KEY,
      thread_id TEXT NOT NULL REFERENCES threads (id) ON DELETE CASCADE,
      turn_id TEXT NOT NULL REFERENCES turns (id) ON DELETE CASCADE,
      seq INTEGER NOT NULL, role TEXT NOT NULL CHECK (role IN ('user', 'assistant')),
      kind TEXT NOT NULL CHECK (kind IN ('prompt', 'progress', 'answer', 'error')),
      text TEXT NOT NULL, status TEXT NOT NULL CHECK (status IN ('streaming', 'complete', 'error')),
      created_at TEXT NOT NULL) STRICT;
    CREATE UNIQUE INDEX messages_by_thread_seq ON messages (thread_id, seq);
    CREATE INDEX messages_by_turn ON messages (turn_id, seq);
    CREATE TABLE user_input_requests (id TEXT PRIMARY KEY,
      thread_id TEXT NOT NULL REFERENCES threads (id) ON DELETE CASCADE,
      turn_id TEXT NOT NULL REFERENCES turns (id) ON DELETE CASCADE,
      questions TEXT NOT NULL,
      status TEXT NOT NULL CHECK (status IN ('pending', 'answered', 'cancelled')),
      answers TEXT, created_at TEXT NOT NULL, resolved_at TEXT) STRICT;
    CREATE TABLE events (thread_id TEXT NOT NULL REFERENCES threads (id) ON DELETE CASCADE,
      id INTEGER NOT NULL, type TEXT NOT NULL, message_id TEXT, data TEXT NOT NULL,
      PRIMARY KEY (thread_id, id)) STRICT, WITHOUT ROWID;
    INSERT INTO threads (id, title, title_source, created_at, updated_at, message_count, last_seq,
      last_event_id) VALUES ('t1', 'Old', 'prompt', 'x', 'x', 2, 2, 3);
    INSERT INTO turns VALUES ('turn1', 't1', 1, 'completed', NULL, NULL, 'hello', 'x', 'x');
    INSERT INTO messages VALUES ('m1', 't1', 'turn1', 1, 'user', 'prompt', 'hello', 'complete', 'x');
    INSERT INTO messages VALUES ('m2', 't1', 'turn1', 2, 'assistant', 'answer', 'hi', 'complete', 'x');
    INSERT INTO events VALUES ('t1', 3, 'message.delta', 'm2', '{"n":3}');
    INSERT INTO events VALUES ('t1', 1, 'message.created', NULL, '{"n":1}');
    INSERT INTO events VALUES ('t1', 2, 'message.created', NULL, '{"n":2}');
    INSERT INTO threads (id, title, title_source, created_at, updated_at, message_count, last_seq)
      VALUES ('t2', 'Cut off', 'prompt', 'x', 'x', 1, 1);
    INSERT INTO turns VALUES ('turn2', 't2', 1, 'running', NULL, NULL, 'left running', 'x', NULL);
    INSERT INTO messages VALUES ('m3', 't2', 'turn2', 1, 'user', 'prompt', 'left running', 'complete', 'x');
    PRAGMA user_version = 1;
  `);
  db.close();
}

describe("migrations", () => {
  it("moves a version-1 database to the current schema, keeping every row and reference", async () => {
    dir = await makeTempDir("chat-migrate-");
    const file = join(dir, "chat.sqlite");
    createVersion1(file);
    const db = openDatabase(file);
    try {
      expect(db.pragma("user_version", { simple: true })).toBe(SCHEMA_VERSION);
      expect(db.pragma("foreign_keys", { simple: true })).toBe(1);
      expect(db.pragma("foreign_key_check")).toEqual([]);
      const repo = createChatRepository(db);
      expect(repo.getTurn("turn1")).toMatchObject({ status: "completed", threadId: "t1" });
      expect(repo.getMessage("m2")?.text).toBe("hi");
      // An unfinished turn of a file from before claims were recorded counts as started, so
      // the next start interrupts it, as it always did.
      expect(repo.startedUnfinishedTurns().map((t) => t.id)).toEqual(["turn2"]);
      // Find in thread (migration 6): existing messages are indexed, in thread order.
      const hello = () =>
        repo.searchCandidates({
          threadId: "t1",
          query: "HELLO",
          caseSensitive: false,
          afterKey: 0,
          limit: 10,
        });
      expect(hello().map((c) => [c.messageId, c.role, c.text])).toEqual([["m1", "user", "hello"]]);
      // The event log (migration 11): a rowid table in write order, read per thread in id order
      // through its unique index, each thread's ids carrying on where they were.
      expect(db.prepare("SELECT wr FROM pragma_table_list WHERE name = 'events'").get()).toEqual({
        wr: 0,
      });
      expect(repo.eventsAfter("t1", 0, 10).map((e) => [e.id, e.data])).toEqual([
        [1, '{"n":1}'],
        [2, '{"n":2}'],
        [3, '{"n":3}'],
      ]);
      expect(repo.appendEvent("t1", { type: "thread.path", messageId: "m2" })).toBe(4);
      expect(() =>
        db
          .prepare("INSERT INTO events (thread_id, id, type, data) VALUES ('t1', 4, 'x', '{}')")
          .run(),
      ).toThrow(/UNIQUE/);
      repo.deleteDeltaEvents("m2");
      expect(repo.eventsAfter("t1", 0, 10).map((e) => e.id)).toEqual([1, 2, 4]);
      // The new status is storable, and cascades still work through the rebuilt table.
      repo.updateTurn({ id: "turn1", status: "cancelled", completedAt: "y" });
      expect(repo.getTurn("turn1")?.status).toBe("cancelled");
      db.prepare("DELETE FROM threads WHERE id = 't1'").run();
      expect(repo.getMessage("m1")).toBeNull();
      // The index rows went with the messages, trigram entries included.
      expect(hello()).toEqual([]);
      expect(db.prepare("SELECT count(*) AS n FROM message_search_fts").get()).toEqual({ n: 1 });
      expect(db.prepare("SELECT count(*) AS n FROM events").get()).toEqual({ n: 0 });
    } finally {
      db.close();
    }
  });

  it("migration 11 moves a version-10 event log, keyed by thread, into write order", async () => {
    dir = await makeTempDir("chat-migrate-");
    const file = join(dir, "chat.sqlite");
    let db = openDatabase(file);
    let repo = createChatRepository(db);
    for (const id of ["a", "b"]) {
      db.prepare(
        "INSERT INTO threads (id, title, title_source, created_at, updated_at) VALUES (?, ?, 'custom', 'x', 'x')",
      ).run(id, id);
    }
    const path = (messageId: string) => ({ type: "thread.path" as const, messageId });
    for (const [thread, message] of [
      ["b", "b1"],
      ["a", "a1"],
      ["b", "b2"],
      ["a", "a2"],
    ] as const)
      repo.appendEvent(thread, path(message));
    db.exec(SQLITE_UNDO_EVENTS_IN_WRITE_ORDER);
    expect(db.prepare("SELECT wr FROM pragma_table_list WHERE name = 'events'").get()).toEqual({
      wr: 1,
    });
    db.close();
    db = openDatabase(file);
    try {
      repo = createChatRepository(db);
      expect(db.prepare("SELECT wr FROM pragma_table_list WHERE name = 'events'").get()).toEqual({
        wr: 0,
      });
      const log = (thread: string) => repo.eventsAfter(thread, 0, 10).map((e) => [e.id, e.event]);
      expect(log("a")).toEqual([
        [1, path("a1")],
        [2, path("a2")],
      ]);
      expect(log("b")).toEqual([
        [1, path("b1")],
        [2, path("b2")],
      ]);
      expect(repo.appendEvent("a", path("a3"))).toBe(3);
      expect(repo.eventsAfter("a", 2, 10).map((e) => e.event)).toEqual([path("a3")]);
      // Reads by thread use the per-thread index, not a scan of every thread's events.
      const plan = db
        .prepare(
          "EXPLAIN QUERY PLAN SELECT id, data FROM events WHERE thread_id = ? AND id > ? ORDER BY id LIMIT ?",
        )
        .all("a", 0, 10) as { detail: string }[];
      expect(plan.map((row) => row.detail).join("\n")).toMatch(/USING INDEX events_by_thread/);
    } finally {
      db.close();
    }
  });

  it("finds a thread's active turn through its partial index, whatever the thread's size", async () => {
    dir = await makeTempDir("chat-migrate-");
    const db = openDatabase(join(dir, "chat.sqlite"));
    try {
      const repo = createChatRepository(db);
      repo.createThread({ id: "big", title: null, now: "x" });
      repo.transaction(() => {
        for (let i = 0; i < 45_000; i++) {
          const turnId = `turn-${i}`;
          repo.insertTurnWithPrompt({
            threadId: "big",
            turnId,
            messageId: `m-${i}`,
            text: "p",
            providerInput: "p",
            now: "x",
          });
          if (i < 44_999) repo.updateTurn({ id: turnId, status: "completed", completedAt: "x" });
        }
      });
      expect(repo.activeTurn("big")?.id).toBe("turn-44999");
      // The plan reads the partial index: it never scans the thread's 45,000 turns.
      const plan = db
        .prepare(
          `EXPLAIN QUERY PLAN SELECT id FROM turns INDEXED BY turns_active_by_thread
           WHERE thread_id = ? AND status IN ('running', 'waiting_for_input')
           ORDER BY prompt_seq LIMIT 1`,
        )
        .all("big") as { detail: string }[];
      expect(plan.map((row) => row.detail).join(" ")).toMatch(/USING INDEX turns_active_by_thread/);
      const pages = db.prepare(
        "SELECT count(*) AS n FROM dbstat WHERE name = 'turns_active_by_thread'",
      );
      expect((pages.get() as { n: number }).n).toBe(1);
    } finally {
      db.close();
    }
  });
});
