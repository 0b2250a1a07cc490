/**
 * Undoes the migrations that came after the search and citation indexes, for the backfill tests
 * that roll a database back to the schema before an index and open it again: every later
 * migration must be undone too, or reapplying it fails (a column that already exists).
 * Append the undo of each new schema-changing migration here, newest first. (PostgreSQL's
 * migration 7, `PG_BRANCH_WRITE_KEYS`, only drops keys and an index with IF EXISTS: reapplying it
 * after a roll-back is a no-op, so it needs no undo.) PostgreSQL's migration 9 (issue 33: the
 * events' key on their thread) is undone first, then 8 (the event in its NOTIFY).
 */
import {
  PG_UNDO_EVENT_NOTIFY_PAYLOAD,
  PG_UNDO_EVENT_WRITES,
} from "../storage/postgres/eventNotify.ts";

/**
 * SQLite migration 10 (issue 33, the FTS table as pieces) needs no undo here: it drops and
 * creates `message_search_fts` and its trigger, so it applies again after a roll-back, and the
 * tests that roll back before migration 6 drop that table themselves. Its undo, for a database
 * going back to migration 9 by hand: the FTS table with one row per message, rowid = id, and
 * no count of pieces.
 */
export const SQLITE_UNDO_SEARCH_PIECES = `
  DROP TRIGGER message_search_deleted; DROP TABLE message_search_fts;
  ALTER TABLE message_search DROP COLUMN pieces;
  CREATE VIRTUAL TABLE message_search_fts USING fts5(
    folded, content = '', contentless_delete = 1, tokenize = 'trigram case_sensitive 1'
  );
  CREATE TRIGGER message_search_deleted AFTER DELETE ON message_search BEGIN
    DELETE FROM message_search_fts WHERE rowid = old.id;
  END;
  PRAGMA user_version = 9;
`;

/**
 * SQLite migration 11 (issue 33, the event log in write order) needs no undo here either: it
 * copies `events` into a new table by column name, so it applies again to its own result. Its
 * undo, for a database going back to migration 10 by hand: the table keyed by thread again.
 */
export const SQLITE_UNDO_EVENTS_IN_WRITE_ORDER = `
  CREATE TABLE events_by_thread_key (
    thread_id TEXT NOT NULL REFERENCES threads (id) ON DELETE CASCADE,
    id INTEGER NOT NULL, type TEXT NOT NULL, message_id TEXT, data TEXT NOT NULL,
    PRIMARY KEY (thread_id, id)
  ) STRICT, WITHOUT ROWID;
  INSERT INTO events_by_thread_key SELECT thread_id, id, type, message_id, data FROM events;
  DROP TABLE events;
  ALTER TABLE events_by_thread_key RENAME TO events;
  CREATE INDEX events_deltas ON events (message_id) WHERE message_id IS NOT NULL;
  PRAGMA user_version = 10;
`;

/** SQLite: undoes migration 8 (thread lifecycle) and later. */
export const SQLITE_UNDO_LATER_MIGRATIONS = `
  DROP INDEX threads_listed; DROP INDEX threads_deleted; DROP TABLE purged_threads;
  ALTER TABLE threads DROP COLUMN deleted_at;
`;

/** PostgreSQL: undoes migration 5 (thread lifecycle) and later. */
export const PG_UNDO_LATER_MIGRATIONS = `
  ${PG_UNDO_EVENT_WRITES}
  ${PG_UNDO_EVENT_NOTIFY_PAYLOAD}
  DROP INDEX threads_listed; DROP INDEX threads_deleted; DROP TABLE purged_threads;
  ALTER TABLE threads DROP COLUMN deleted_at;
`;
