import type Database from "better-sqlite3";

// The driver's type, not db.ts's alias: db.ts imports this module (no import cycle).
type SqliteDatabase = Database.Database;

/**
 * The schema of versions and branches on SQLite (issue 30, DESIGN.md section 8), one migration.
 *
 * Versions form a tree: `parent_id` is the message before this one when it was written (the
 * previous message of its turn, or the last message shown when a prompt was sent). A new
 * version (an edited prompt, a regenerated answer) is a sibling with the same `parent_id` and
 * the same `version_group` (the first version's id; NULL while a message has one version), and
 * always gets a new, larger seq, so seq grows along every root-to-leaf path. `chosen` marks the
 * version picked among its siblings; `on_path` is materialized: a message is shown when it and
 * every ancestor are chosen. The history shown is the `on_path = 1` messages in seq order, which
 * the partial index serves as fast as the whole thread used to be.
 *
 * Existing messages migrate unchanged: all shown and chosen, each one's parent the message
 * before it. `turns.source_turn_id` links a regeneration's turn to the turn whose answer it
 * redoes, `turns.regenerates_id` the message its first message is a new version of; `message_copies` maps a branch's copies back to their sources (at any depth).
 */
const COLUMNS = `
  ALTER TABLE messages ADD COLUMN parent_id TEXT;
  ALTER TABLE messages ADD COLUMN version_group TEXT;
  ALTER TABLE messages ADD COLUMN chosen INTEGER NOT NULL DEFAULT 1;
  ALTER TABLE messages ADD COLUMN on_path INTEGER NOT NULL DEFAULT 1;
  ALTER TABLE turns ADD COLUMN source_turn_id TEXT;
  ALTER TABLE turns ADD COLUMN regenerates_id TEXT;
`;

const INDEXES = `
  UPDATE messages SET parent_id = (
    SELECT p.id FROM messages p WHERE p.thread_id = messages.thread_id AND p.seq < messages.seq
    ORDER BY p.seq DESC LIMIT 1
  ) WHERE parent_id IS NULL;
  CREATE INDEX IF NOT EXISTS messages_on_path ON messages (thread_id, seq) WHERE on_path = 1;
  CREATE INDEX IF NOT EXISTS messages_children ON messages (parent_id);
  CREATE INDEX IF NOT EXISTS messages_versions ON messages (version_group, seq) WHERE version_group IS NOT NULL;
  CREATE INDEX IF NOT EXISTS turns_by_source ON turns (source_turn_id) WHERE source_turn_id IS NOT NULL;
  CREATE TABLE IF NOT EXISTS message_copies (
    thread_id TEXT NOT NULL REFERENCES threads (id) ON DELETE CASCADE,
    source_id TEXT NOT NULL,
    -- A copy lives in thread_id: it goes with its thread (no per-row check on the copy).
    copy_id TEXT NOT NULL,
    PRIMARY KEY (thread_id, source_id)
  ) STRICT, WITHOUT ROWID;
  CREATE INDEX IF NOT EXISTS message_copies_by_copy ON message_copies (copy_id);
`;

/**
 * The migration. It may run again over its own result (tests that step `user_version` back to
 * rerun an earlier migration): the columns are added only when missing.
 */
export function migrateVersions(db: SqliteDatabase): void {
  const columns = db.prepare("SELECT name FROM pragma_table_info('messages')").all() as {
    name: string;
  }[];
  if (!columns.some((column) => column.name === "parent_id")) db.exec(COLUMNS);
  db.exec(INDEXES);
}
