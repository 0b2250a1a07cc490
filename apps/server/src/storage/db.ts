/**
 * Opens the SQLite database (better-sqlite3) and applies the schema migrations. Migrations are
 * versioned in code through `PRAGMA user_version`; each runs in its own transaction, so a crash
 * mid-migration leaves the previous version intact.
 */
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import Database from "better-sqlite3";
import { CITATION_LINK_MARKER, citationEntriesOf } from "./citationIndex.ts";
import { CITATION_INDEX_TABLES, sqliteCitationWriter } from "./sqliteCitations.ts";
import { EVENTS_IN_WRITE_ORDER } from "./sqliteEventsSchema.ts";
import {
  backfillSqliteSearch,
  migrateSearchPieces,
  SEARCH_INDEX_TABLES,
  SEARCH_QUEUE_TABLE,
} from "./sqliteSearch.ts";
import { THREAD_LIFECYCLE_SCHEMA } from "./sqliteThreadLifecycle.ts";
import { migrateVersions } from "./sqliteVersionsSchema.ts";

export type SqliteDatabase = Database.Database;

/**
 * Schema versions, in order; index + 1 is the `user_version` after applying the entry.
 * Never edit an applied migration: append a new one. Citations live inside message text; the
 * one table about them, `message_citations`, is an index derived from that text (backlinks). An
 * entry is SQL, or a function for what SQL cannot do (parsing citations out of stored prompts).
 */
const MIGRATIONS: readonly (string | ((db: SqliteDatabase) => void))[] = [
  `
  CREATE TABLE meta (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
  ) STRICT;

  CREATE TABLE threads (
    id TEXT PRIMARY KEY,
    title TEXT NOT NULL,
    -- 'default' until the first prompt names it, 'custom' when created with a title.
    title_source TEXT NOT NULL CHECK (title_source IN ('default', 'custom', 'prompt')),
    branch_name TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    message_count INTEGER NOT NULL DEFAULT 0,
    last_seq INTEGER NOT NULL DEFAULT 0,
    last_event_id INTEGER NOT NULL DEFAULT 0
  ) STRICT;
  CREATE INDEX threads_by_updated ON threads (updated_at DESC, id);

  CREATE TABLE turns (
    id TEXT PRIMARY KEY,
    thread_id TEXT NOT NULL REFERENCES threads (id) ON DELETE CASCADE,
    -- seq of the turn's prompt message: orders turns within a thread.
    prompt_seq INTEGER NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('running', 'waiting_for_input', 'completed', 'failed')),
    error_code TEXT,
    error_message TEXT,
    -- Exactly what the provider received (citations expanded).
    provider_input TEXT NOT NULL,
    created_at TEXT NOT NULL,
    completed_at TEXT
  ) STRICT;
  CREATE UNIQUE INDEX turns_by_thread ON turns (thread_id, prompt_seq);
  CREATE INDEX turns_unfinished ON turns (status) WHERE status IN ('running', 'waiting_for_input');

  CREATE TABLE messages (
    id TEXT PRIMARY KEY,
    thread_id TEXT NOT NULL REFERENCES threads (id) ON DELETE CASCADE,
    turn_id TEXT NOT NULL REFERENCES turns (id) ON DELETE CASCADE,
    seq INTEGER NOT NULL,
    role TEXT NOT NULL CHECK (role IN ('user', 'assistant')),
    kind TEXT NOT NULL CHECK (kind IN ('prompt', 'progress', 'answer', 'error')),
    text TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('streaming', 'complete', 'error')),
    created_at TEXT NOT NULL
  ) STRICT;
  -- Serves every history page and around window with an index range scan.
  CREATE UNIQUE INDEX messages_by_thread_seq ON messages (thread_id, seq);
  CREATE INDEX messages_by_turn ON messages (turn_id, seq);

  CREATE TABLE user_input_requests (
    id TEXT PRIMARY KEY,
    thread_id TEXT NOT NULL REFERENCES threads (id) ON DELETE CASCADE,
    turn_id TEXT NOT NULL REFERENCES turns (id) ON DELETE CASCADE,
    questions TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('pending', 'answered', 'cancelled')),
    answers TEXT,
    created_at TEXT NOT NULL,
    resolved_at TEXT
  ) STRICT;
  CREATE INDEX user_input_pending ON user_input_requests (thread_id, created_at)
    WHERE status = 'pending';

  -- The per-thread SSE log. id increases per thread (threads.last_event_id).
  CREATE TABLE events (
    thread_id TEXT NOT NULL REFERENCES threads (id) ON DELETE CASCADE,
    id INTEGER NOT NULL,
    type TEXT NOT NULL,
    -- Set for message.delta rows so they can be compacted once the message completes.
    message_id TEXT,
    data TEXT NOT NULL,
    PRIMARY KEY (thread_id, id)
  ) STRICT, WITHOUT ROWID;
  CREATE INDEX events_deltas ON events (message_id) WHERE message_id IS NOT NULL;
  `,
  // 2: turns may end `cancelled` (stopped by the user). SQLite cannot change a CHECK constraint,
  // so the table is rebuilt (foreign keys are off during migrations, see migrate()). The active
  // turn of a thread is found through its own partial index, whatever the thread's size.
  `
  CREATE TABLE turns_v2 (
    id TEXT PRIMARY KEY,
    thread_id TEXT NOT NULL REFERENCES threads (id) ON DELETE CASCADE,
    prompt_seq INTEGER NOT NULL,
    status TEXT NOT NULL
      CHECK (status IN ('running', 'waiting_for_input', 'completed', 'failed', 'cancelled')),
    error_code TEXT,
    error_message TEXT,
    provider_input TEXT NOT NULL,
    created_at TEXT NOT NULL,
    completed_at TEXT
  ) STRICT;
  INSERT INTO turns_v2 SELECT id, thread_id, prompt_seq, status, error_code, error_message,
    provider_input, created_at, completed_at FROM turns;
  DROP TABLE turns;
  ALTER TABLE turns_v2 RENAME TO turns;
  CREATE UNIQUE INDEX turns_by_thread ON turns (thread_id, prompt_seq);
  CREATE INDEX turns_unfinished ON turns (status) WHERE status IN ('running', 'waiting_for_input');
  CREATE INDEX turns_active_by_thread ON turns (thread_id, prompt_seq)
    WHERE status IN ('running', 'waiting_for_input');
  `,
  // 3: a turn's final answer for adapter history, found without reading any message text.
  `
  CREATE INDEX messages_final_answers ON messages (turn_id, seq, id)
    WHERE kind = 'answer' AND status = 'complete';
  `,
  // 4: the turns a process started (claimed), so a restart interrupts only those and runs the
  // never-started ones. A row of its own: writing it into the turn's row would rewrite the
  // provider input. Unfinished turns of an older file count as started (as they were treated).
  `
  CREATE TABLE turn_claims (
    turn_id TEXT PRIMARY KEY REFERENCES turns (id) ON DELETE CASCADE
  ) STRICT, WITHOUT ROWID;
  INSERT INTO turn_claims SELECT id FROM turns WHERE status IN ('running', 'waiting_for_input');
  `,
  // 5: the citation index (backlinks, issue 24): one row per distinct citation of a prompt,
  // written with the prompt; existing prompts are indexed here.
  (db) => {
    db.exec(CITATION_INDEX_TABLES);
    const environment = db.prepare("SELECT value FROM meta WHERE key = 'environment_id'").get() as
      | { value: string }
      | undefined;
    // No environment id yet: a new database, without messages.
    if (!environment) return;
    const write = sqliteCitationWriter(db);
    // Keyset batches in thread order: better-sqlite3 cannot write while a read iterates.
    const prompts = db.prepare(
      `SELECT id, thread_id, turn_id, seq, text, created_at FROM messages
       WHERE role = 'user' AND instr(text, ?) > 0 AND (thread_id, seq) > (?, ?)
       ORDER BY thread_id, seq LIMIT 500`,
    );
    let after: [string, number] = ["", 0];
    for (;;) {
      const rows = prompts.all(CITATION_LINK_MARKER, ...after) as PromptRow[];
      if (rows.length === 0) return;
      for (const row of rows) {
        const entries = citationEntriesOf({
          messageId: row.id,
          threadId: row.thread_id,
          turnId: row.turn_id,
          text: row.text,
          createdAt: row.created_at,
        });
        write(entries, environment.value);
      }
      const last = rows.at(-1)!;
      after = [last.thread_id, last.seq];
    }
  },
  // 6: the find-in-thread index (issue 23, `sqliteSearch.ts`): every message's rendered text
  // and its trigram index; existing messages are indexed here, in thread order.
  (db) => {
    db.exec(SEARCH_INDEX_TABLES);
    backfillSqliteSearch(db);
  },
  // 7: the queue of long messages the background indexer renders off the event loop
  // (`searchIndexer.ts`): their text is written right after the transaction that finished them.
  SEARCH_QUEUE_TABLE,
  // Issue 31: threads deleted with an undo window (`deleted_at`), the ids of purged ones, and
  // the thread list's own index (listed threads only, newest first).
  THREAD_LIFECYCLE_SCHEMA,
  // Issue 30: versions and branches (`sqliteVersionsSchema.ts`, `sqliteVersions.ts`).
  migrateVersions,
  // 10 (issue 33): the trigram index as pieces, a rowid range per message
  // (`sqliteSearchFts.ts`), rebuilt from the stored texts.
  migrateSearchPieces,
  // 11 (issue 33): the event log in write order, keyed per thread by an index
  // (`sqliteEventsSchema.ts`).
  EVENTS_IN_WRITE_ORDER,
];

type PromptRow = {
  id: string;
  thread_id: string;
  turn_id: string;
  seq: number;
  text: string;
  created_at: string;
};

/** Latest schema version this build knows. */
export const SCHEMA_VERSION = MIGRATIONS.length;

/** Automatic checkpoint threshold of the main connection, a safety net (see above). */
export const WAL_AUTOCHECKPOINT_PAGES = 16_384;

/** Opens (creating if needed) the database file with WAL, foreign keys and a busy timeout. */
export function openDatabase(file: string): SqliteDatabase {
  if (file !== ":memory:") mkdirSync(dirname(file), { recursive: true });
  const db = new Database(file);
  try {
    db.pragma("journal_mode = WAL");
    // WAL + NORMAL is durable across application crashes; only an OS crash can lose the tail.
    db.pragma("synchronous = NORMAL");
    // A worker checkpoints the WAL off the event loop (walCheckpointer.ts); the automatic
    // checkpoint inside a COMMIT (with its fsync) stays only as a bound, at 16,384 pages (64 MB).
    db.pragma(`wal_autocheckpoint = ${WAL_AUTOCHECKPOINT_PAGES}`);
    db.pragma("foreign_keys = ON");
    db.pragma("busy_timeout = 5000");
    // A 64 MB page cache (default 2 MB): a long transaction (the seed's, a backfill) no longer
    // spills and rewrites the same hot pages over and over; it fills only as pages are read.
    db.pragma("cache_size = -65536");
    migrate(db);
  } catch (error) {
    db.close();
    throw error;
  }
  return db;
}

/** Applies every migration above the database's `user_version`. */
export function migrate(db: SqliteDatabase): void {
  const current = db.pragma("user_version", { simple: true }) as number;
  if (current > MIGRATIONS.length) {
    throw new Error(
      `Database schema version ${current} is newer than this server (${MIGRATIONS.length}). ` +
        "Upgrade the server or point DATA_DIR at another directory.",
    );
  }
  if (current === MIGRATIONS.length) return;
  // Table rebuilds drop and rename tables that others reference: foreign keys stay off while
  // migrating (the pragma is a no-op inside a transaction) and are checked before each commit.
  const foreignKeys = db.pragma("foreign_keys", { simple: true }) as number;
  db.pragma("foreign_keys = OFF");
  try {
    for (let version = current; version < MIGRATIONS.length; version++) {
      const migration = MIGRATIONS[version]!;
      db.transaction(() => {
        if (typeof migration === "string") db.exec(migration);
        else migration(db);
        const broken = db.pragma("foreign_key_check") as unknown[];
        if (broken.length > 0) throw new Error(`Migration ${version + 1} broke foreign keys.`);
        db.pragma(`user_version = ${version + 1}`);
      })();
    }
  } finally {
    if (foreignKeys) db.pragma("foreign_keys = ON");
  }
}
