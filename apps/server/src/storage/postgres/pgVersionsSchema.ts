/**
 * The schema of versions and branches on PostgreSQL (issue 30): the same columns, indexes and
 * rules as SQLite's (`../sqliteVersionsSchema.ts`, which explains them).
 */
export const PG_VERSIONS_SCHEMA = `
  ALTER TABLE messages ADD COLUMN IF NOT EXISTS parent_id TEXT COLLATE "C";
  ALTER TABLE messages ADD COLUMN IF NOT EXISTS version_group TEXT COLLATE "C";
  ALTER TABLE messages ADD COLUMN IF NOT EXISTS chosen SMALLINT NOT NULL DEFAULT 1;
  ALTER TABLE messages ADD COLUMN IF NOT EXISTS on_path SMALLINT NOT NULL DEFAULT 1;
  ALTER TABLE turns ADD COLUMN IF NOT EXISTS source_turn_id TEXT COLLATE "C";
  ALTER TABLE turns ADD COLUMN IF NOT EXISTS regenerates_id TEXT COLLATE "C";
  UPDATE messages m SET parent_id = p.prev FROM (
    SELECT id, lag(id) OVER (PARTITION BY thread_id ORDER BY seq) AS prev FROM messages
  ) p WHERE p.id = m.id AND p.prev IS NOT NULL AND m.parent_id IS NULL;
  CREATE INDEX IF NOT EXISTS messages_on_path ON messages (thread_id, seq) WHERE on_path = 1;
  CREATE INDEX IF NOT EXISTS messages_children ON messages (parent_id);
  CREATE INDEX IF NOT EXISTS messages_versions ON messages (version_group, seq) WHERE version_group IS NOT NULL;
  CREATE INDEX IF NOT EXISTS turns_by_source ON turns (source_turn_id) WHERE source_turn_id IS NOT NULL;
  CREATE TABLE IF NOT EXISTS message_copies (
    thread_id TEXT COLLATE "C" NOT NULL REFERENCES threads (id) ON DELETE CASCADE,
    source_id TEXT COLLATE "C" NOT NULL,
    copy_id TEXT COLLATE "C" NOT NULL,
    PRIMARY KEY (thread_id, source_id)
  );
  CREATE INDEX IF NOT EXISTS message_copies_by_copy ON message_copies (copy_id);
`;

/**
 * Migration 7: fewer per-row checks on the rows a branch writes by the thousand (a 2,000-turn
 * branch writes 4,400 messages, 4,400 copy links and 4,400 queue rows; each foreign key is a
 * lookup per row, about a third of the request). Integrity stays whole without them:
 * - `messages.thread_id`: a message goes with its turn (`turn_id` keeps its cascading key, and a
 *   turn with its thread), and the store writes a message's thread as its turn's.
 * - `message_copies.thread_id` and `search_pending.message_id`: a purge deletes a thread's rows in
 *   both explicitly (`pgThreadLifecycle.ts`); a copy link whose source was purged stays, so a
 *   branch's chip still finds its copy.
 * - `message_copies_by_copy`: no query reads copy links by copy id.
 * Idempotent (IF EXISTS), so a database rolled back to an older schema reapplies it cleanly.
 */
export const PG_BRANCH_WRITE_KEYS = `
  ALTER TABLE messages DROP CONSTRAINT IF EXISTS messages_thread_id_fkey;
  ALTER TABLE message_copies DROP CONSTRAINT IF EXISTS message_copies_thread_id_fkey;
  ALTER TABLE search_pending DROP CONSTRAINT IF EXISTS search_pending_message_id_fkey;
  DROP INDEX IF EXISTS message_copies_by_copy;
`;
