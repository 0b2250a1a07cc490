/** The SQLite event log's schema changes (`sqliteEvents.ts` holds its queries). */

/**
 * Migration 11 (issue 33): the event log as a rowid table, its rows in the order they were
 * written, with the per-thread key `(thread_id, id)` as a unique index. Keyed by thread (the
 * table it replaces was `WITHOUT ROWID` on that key), a commit holding the events of several
 * threads rewrote one partly filled page per thread, and its 300 to 900-byte rows split pages
 * often: the events were 8.8 of the 15.2 WAL pages a turn wrote in the concurrent bench. Appended
 * in write order, they share the table's last page, and only the small index entries land per
 * thread (3.0 pages a turn). Reads by thread go through the index; the table's `seq` is not an
 * event id and nothing outside this file reads it.
 */
export const EVENTS_IN_WRITE_ORDER = `
  CREATE TABLE events_in_write_order (
    seq INTEGER PRIMARY KEY,
    thread_id TEXT NOT NULL REFERENCES threads (id) ON DELETE CASCADE,
    id INTEGER NOT NULL,
    type TEXT NOT NULL,
    -- Set for message.delta rows so they can be compacted once the message completes.
    message_id TEXT,
    data TEXT NOT NULL
  ) STRICT;
  INSERT INTO events_in_write_order (thread_id, id, type, message_id, data)
    SELECT thread_id, id, type, message_id, data FROM events ORDER BY thread_id, id;
  DROP TABLE events;
  ALTER TABLE events_in_write_order RENAME TO events;
  CREATE UNIQUE INDEX events_by_thread ON events (thread_id, id);
  CREATE INDEX events_deltas ON events (message_id) WHERE message_id IS NOT NULL;
`;
