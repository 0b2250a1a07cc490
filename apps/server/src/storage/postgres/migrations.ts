/**
 * PostgreSQL schema, versioned like SQLite's (`../db.ts`): `schema_migrations` holds the applied
 * versions, each migration runs in its own transaction, and a session advisory lock makes
 * processes that start together apply them once, one after another.
 *
 * The tables mirror SQLite's, plus what sharing needs: `turns.lease_owner/lease_expires_at`
 * (the turn queue, see `domain/turnQueue.ts`) and a trigger that announces every stored event
 * with `NOTIFY chat_events` when its transaction commits (`eventNotify.ts`: since migration 8
 * the notification carries the event itself).
 */
import type pg from "pg";
import { CITATION_LINK_MARKER, citationEntriesOf } from "../citationIndex.ts";
import { PG_EVENT_NOTIFY_PAYLOAD, PG_EVENT_WRITES } from "./eventNotify.ts";
import { writeCitations } from "./pgCitations.ts";
import { migrateSearchIndex, SEARCH_QUEUE_TABLE } from "./pgSearch.ts";
import { PG_THREAD_LIFECYCLE_SCHEMA } from "./pgThreadLifecycle.ts";
import { PG_BRANCH_WRITE_KEYS, PG_VERSIONS_SCHEMA } from "./pgVersionsSchema.ts";

/** Advisory lock keys (first key: this app's namespace). */
export const LOCK_NAMESPACE = 0x63686174; // "chat"
export const MIGRATION_LOCK = 1;

/**
 * Never edit an applied migration: append a new one. An entry is SQL, or a function for what SQL
 * cannot do (parsing citations out of stored prompts); either runs inside the migration's
 * transaction.
 */
export const PG_MIGRATIONS: readonly (string | ((client: pg.ClientBase) => Promise<void>))[] = [
  `
  CREATE TABLE meta (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
  );

  -- Text that orders (ids, ISO timestamps) uses the "C" collation: the same order as SQLite.
  CREATE TABLE threads (
    id TEXT COLLATE "C" PRIMARY KEY,
    title TEXT NOT NULL,
    title_source TEXT NOT NULL CHECK (title_source IN ('default', 'custom', 'prompt')),
    branch_name TEXT,
    created_at TEXT COLLATE "C" NOT NULL,
    updated_at TEXT COLLATE "C" NOT NULL,
    message_count INTEGER NOT NULL DEFAULT 0,
    last_seq BIGINT NOT NULL DEFAULT 0,
    last_event_id BIGINT NOT NULL DEFAULT 0
  );
  CREATE INDEX threads_by_updated ON threads (updated_at DESC, id);

  CREATE TABLE turns (
    id TEXT COLLATE "C" PRIMARY KEY,
    thread_id TEXT COLLATE "C" NOT NULL REFERENCES threads (id) ON DELETE CASCADE,
    prompt_seq BIGINT NOT NULL,
    status TEXT NOT NULL
      CHECK (status IN ('running', 'waiting_for_input', 'completed', 'failed', 'cancelled')),
    error_code TEXT,
    error_message TEXT,
    provider_input TEXT NOT NULL,
    created_at TEXT COLLATE "C" NOT NULL,
    completed_at TEXT,
    -- The process running the turn and until when its lease holds (NULL: queued).
    lease_owner TEXT,
    lease_expires_at TIMESTAMPTZ
  );
  CREATE UNIQUE INDEX turns_by_thread ON turns (thread_id, prompt_seq);
  CREATE INDEX turns_unfinished ON turns (status) WHERE status IN ('running', 'waiting_for_input');
  CREATE INDEX turns_active_by_thread ON turns (thread_id, prompt_seq)
    WHERE status IN ('running', 'waiting_for_input');

  CREATE TABLE messages (
    id TEXT COLLATE "C" PRIMARY KEY,
    thread_id TEXT COLLATE "C" NOT NULL REFERENCES threads (id) ON DELETE CASCADE,
    turn_id TEXT COLLATE "C" NOT NULL REFERENCES turns (id) ON DELETE CASCADE,
    seq BIGINT NOT NULL,
    role TEXT NOT NULL CHECK (role IN ('user', 'assistant')),
    kind TEXT NOT NULL CHECK (kind IN ('prompt', 'progress', 'answer', 'error')),
    text TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('streaming', 'complete', 'error')),
    created_at TEXT NOT NULL
  );
  CREATE UNIQUE INDEX messages_by_thread_seq ON messages (thread_id, seq);
  CREATE INDEX messages_by_turn ON messages (turn_id, seq);
  -- A turn's final answer for adapter history, found without reading any message text.
  CREATE INDEX messages_final_answers ON messages (turn_id, seq, id)
    WHERE kind = 'answer' AND status = 'complete';

  CREATE TABLE user_input_requests (
    id TEXT COLLATE "C" PRIMARY KEY,
    thread_id TEXT COLLATE "C" NOT NULL REFERENCES threads (id) ON DELETE CASCADE,
    turn_id TEXT COLLATE "C" NOT NULL REFERENCES turns (id) ON DELETE CASCADE,
    questions TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('pending', 'answered', 'cancelled')),
    answers TEXT,
    created_at TEXT COLLATE "C" NOT NULL,
    resolved_at TEXT
  );
  CREATE INDEX user_input_pending ON user_input_requests (thread_id, created_at)
    WHERE status = 'pending';
  CREATE INDEX user_input_by_turn ON user_input_requests (turn_id) WHERE status = 'pending';

  CREATE TABLE events (
    thread_id TEXT COLLATE "C" NOT NULL REFERENCES threads (id) ON DELETE CASCADE,
    id BIGINT NOT NULL,
    type TEXT NOT NULL,
    message_id TEXT,
    data TEXT NOT NULL,
    PRIMARY KEY (thread_id, id)
  );
  CREATE INDEX events_deltas ON events (message_id) WHERE message_id IS NOT NULL;

  -- Every process LISTENs on chat_events. NOTIFY is delivered at commit, and notifications
  -- with the same payload in one transaction are folded into one.
  CREATE FUNCTION chat_notify_event() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    PERFORM pg_notify('chat_events', NEW.thread_id);
    RETURN NULL;
  END $$;
  CREATE TRIGGER events_notify AFTER INSERT ON events
    FOR EACH ROW EXECUTE FUNCTION chat_notify_event();
  `,
  // 2: the citation index (backlinks, issue 24), as SQLite's migration 5: one row per distinct
  // citation of a prompt, written with the prompt; existing prompts are indexed here.
  async (client) => {
    await client.query(`
      CREATE TABLE message_citations (
        id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        citing_message_id TEXT COLLATE "C" NOT NULL REFERENCES messages (id) ON DELETE CASCADE,
        citing_thread_id TEXT COLLATE "C" NOT NULL REFERENCES threads (id) ON DELETE CASCADE,
        citing_turn_id TEXT COLLATE "C" NOT NULL,
        source_environment_id TEXT COLLATE "C" NOT NULL,
        source_thread_id TEXT COLLATE "C" NOT NULL,
        source_message_id TEXT COLLATE "C" NOT NULL,
        quote_start BIGINT NOT NULL,
        quote_end BIGINT NOT NULL,
        prefix TEXT NOT NULL,
        suffix TEXT NOT NULL,
        quote TEXT NOT NULL,
        comment TEXT,
        created_at TEXT NOT NULL
      );
      CREATE INDEX message_citations_by_source
        ON message_citations (source_message_id, source_thread_id, source_environment_id, id);
      CREATE INDEX message_citations_by_citing ON message_citations (citing_message_id);
      CREATE INDEX message_citations_by_citing_thread ON message_citations (citing_thread_id);

      -- Backlinks of this environment's messages: citing messages counted, distinct ranges.
      CREATE TABLE message_backlinks (
        source_message_id TEXT COLLATE "C" NOT NULL,
        source_thread_id TEXT COLLATE "C" NOT NULL,
        citing_count INTEGER NOT NULL,
        ranges TEXT NOT NULL,
        PRIMARY KEY (source_message_id, source_thread_id)
      );
    `);
    const meta = await client.query<{ value: string }>(
      "SELECT value FROM meta WHERE key = 'environment_id'",
    );
    // No environment id yet: a new database, without messages.
    const environmentId = meta.rows[0]?.value;
    if (environmentId === undefined) return;
    const query = (_name: string, text: string, values: unknown[]) => client.query(text, values);
    // Keyset batches in thread order (as SQLite's backfill), so a large database is not read
    // into memory at once and each message's citations keep the order they were written in.
    let after = { threadId: "", seq: 0 };
    for (;;) {
      const { rows } = await client.query<{
        id: string;
        thread_id: string;
        turn_id: string;
        seq: string;
        text: string;
        created_at: string;
      }>(
        `SELECT id, thread_id, turn_id, seq, text, created_at FROM messages
         WHERE role = 'user' AND strpos(text, $1) > 0 AND (thread_id, seq) > ($2, $3)
         ORDER BY thread_id, seq LIMIT 500`,
        [CITATION_LINK_MARKER, after.threadId, after.seq],
      );
      if (rows.length === 0) return;
      const entries = rows.flatMap((row) =>
        citationEntriesOf({
          messageId: row.id,
          threadId: row.thread_id,
          turnId: row.turn_id,
          text: row.text,
          createdAt: row.created_at,
        }),
      );
      await writeCitations(query, entries, environmentId);
      const last = rows.at(-1)!;
      after = { threadId: last.thread_id, seq: Number(last.seq) };
    }
  },
  // 3: the find-in-thread index (issue 23, `pgSearch.ts`), as SQLite's migration 6: every
  // complete message's rendered text and its trigram index; existing messages are indexed here.
  migrateSearchIndex,
  // 4: the queue of long messages the background indexer renders off the event loop
  // (`searchIndexer.ts`): their row is written right after the transaction that finished them.
  SEARCH_QUEUE_TABLE,
  // Issue 31, as SQLite's migration 8 (`pgThreadLifecycle.ts`): deleted threads and their undo
  // window, the ids of purged ones, and the thread list's own index.
  PG_THREAD_LIFECYCLE_SCHEMA,
  // Issue 30: versions and branches (`pgVersions.ts`), as SQLite's VERSIONS_SCHEMA.
  PG_VERSIONS_SCHEMA,
  // Issue 30: a branch's bulk writes without per-row key checks (`pgVersionsSchema.ts` says why
  // integrity holds without them).
  PG_BRANCH_WRITE_KEYS,
  // Issue 33: each stored event travels in its own NOTIFY (`eventNotify.ts`), so a process
  // fans it out without reading it back.
  PG_EVENT_NOTIFY_PAYLOAD,
  // Issue 33: an event's insert without a key check on its thread, its trigger reading the new
  // rows once (`eventNotify.ts`).
  PG_EVENT_WRITES,
];

/** Latest PostgreSQL schema version this build knows. */
export const PG_SCHEMA_VERSION = PG_MIGRATIONS.length;

/** Applies every migration above the database's version (waiting for other processes). */
export async function migratePostgres(client: pg.ClientBase): Promise<void> {
  await client.query("SELECT pg_advisory_lock($1, $2)", [LOCK_NAMESPACE, MIGRATION_LOCK]);
  try {
    await client.query(
      `CREATE TABLE IF NOT EXISTS schema_migrations (
         version INTEGER PRIMARY KEY,
         applied_at TIMESTAMPTZ NOT NULL DEFAULT now()
       )`,
    );
    const { rows } = await client.query<{ version: number }>(
      "SELECT coalesce(max(version), 0)::int AS version FROM schema_migrations",
    );
    const current = rows[0]!.version;
    if (current > PG_MIGRATIONS.length) {
      throw new Error(
        `Database schema version ${current} is newer than this server (${PG_MIGRATIONS.length}). ` +
          "Upgrade the server or point DATABASE_URL at another database.",
      );
    }
    for (let version = current; version < PG_MIGRATIONS.length; version++) {
      await client.query("BEGIN");
      try {
        const migration = PG_MIGRATIONS[version]!;
        if (typeof migration === "string") await client.query(migration);
        else await migration(client);
        await client.query("INSERT INTO schema_migrations (version) VALUES ($1)", [version + 1]);
        await client.query("COMMIT");
      } catch (error) {
        await client.query("ROLLBACK");
        throw error;
      }
    }
  } finally {
    await client.query("SELECT pg_advisory_unlock($1, $2)", [LOCK_NAMESPACE, MIGRATION_LOCK]);
  }
}
