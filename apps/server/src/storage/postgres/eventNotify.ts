/**
 * What `NOTIFY chat_events` carries (issue 33: scale-out that scales).
 *
 * An `INSERT` of one event (every write of the turn path, `appendEvent`) notifies
 * `<threadId>\n<id>\n<data>`: the stored event itself, so a process that watches the thread hands
 * it to its listeners without reading it back. When that payload would reach PostgreSQL's limit
 * (8,000 bytes), the notification is `<threadId>\n<id>` and the receiver reads the event back.
 * A statement that inserts several events at once (the SQLite importer) notifies only
 * `<threadId>` per thread, as does `announceThread`: the receiver reads back what it has not
 * delivered yet. Ids never repeat, so PostgreSQL folds no two of these notifications.
 *
 * Receivers keep ordering and gaps exact ({@link PostgresStore}): an event whose id is not the
 * last delivered + 1, or that arrives while a read-back is in flight, is read back from the
 * last delivered id instead (notifications come in commit order, and the thread row's lock
 * keeps a thread's ids in commit order, so a gap is rare: a lost LISTEN connection, a watch
 * that just began).
 */

/** PostgreSQL rejects a NOTIFY payload of this many bytes or more. */
export const NOTIFY_PAYLOAD_LIMIT = 8_000;

/**
 * Migration 8: the events trigger notifies the event itself (above). Idempotent, so a database
 * rolled back to an older schema reapplies it cleanly.
 */
export const PG_EVENT_NOTIFY_PAYLOAD = `
  CREATE OR REPLACE FUNCTION chat_notify_events() RETURNS trigger LANGUAGE plpgsql AS $$
  DECLARE
    one RECORD;
    payload TEXT;
  BEGIN
    IF (SELECT count(*) FROM new_events) = 1 THEN
      SELECT thread_id, id, data INTO one FROM new_events;
      payload := one.thread_id || E'\\n' || one.id || E'\\n' || one.data;
      IF octet_length(payload) >= ${NOTIFY_PAYLOAD_LIMIT} THEN
        payload := one.thread_id || E'\\n' || one.id;
      END IF;
      PERFORM pg_notify('chat_events', payload);
    ELSE
      PERFORM pg_notify('chat_events', t.thread_id)
        FROM (SELECT DISTINCT thread_id FROM new_events) t;
    END IF;
    RETURN NULL;
  END $$;
  DROP TRIGGER IF EXISTS events_notify ON events;
  CREATE TRIGGER events_notify AFTER INSERT ON events REFERENCING NEW TABLE AS new_events
    FOR EACH STATEMENT EXECUTE FUNCTION chat_notify_events();
`;

/**
 * Migration 9 (issue 33): an event costs its insert less. Each turn stores several events, and
 * each paid a foreign-key check on its thread and two reads of the trigger's transition table:
 * - The key `events.thread_id` goes: `appendEvent` inserts only through the thread row it
 *   updates (no row, no event), and a purge deletes a thread's events explicitly
 *   (`pgThreadLifecycle.ts`), under the thread's row lock, so no event outlives its thread.
 * - The trigger reads the new rows once (their count and, for one row, the row itself).
 * Idempotent, so a database rolled back to an older schema reapplies it cleanly.
 */
export const PG_EVENT_WRITES = `
  ALTER TABLE events DROP CONSTRAINT IF EXISTS events_thread_id_fkey;
  CREATE OR REPLACE FUNCTION chat_notify_events() RETURNS trigger LANGUAGE plpgsql AS $$
  DECLARE
    n BIGINT;
    thread TEXT;
    event_id BIGINT;
    event_data TEXT;
    payload TEXT;
  BEGIN
    SELECT count(*), min(thread_id), min(id), min(data) INTO n, thread, event_id, event_data
      FROM new_events;
    IF n = 1 THEN
      payload := thread || E'\\n' || event_id || E'\\n' || event_data;
      IF octet_length(payload) >= ${NOTIFY_PAYLOAD_LIMIT} THEN
        payload := thread || E'\\n' || event_id;
      END IF;
      PERFORM pg_notify('chat_events', payload);
    ELSIF n > 1 THEN
      PERFORM pg_notify('chat_events', t.thread_id)
        FROM (SELECT DISTINCT thread_id FROM new_events) t;
    END IF;
    RETURN NULL;
  END $$;
`;

/** Undoes {@link PG_EVENT_WRITES}'s key (its function goes with {@link PG_UNDO_EVENT_NOTIFY_PAYLOAD}). */
export const PG_UNDO_EVENT_WRITES = `
  ALTER TABLE events ADD CONSTRAINT events_thread_id_fkey
    FOREIGN KEY (thread_id) REFERENCES threads (id) ON DELETE CASCADE;
`;

/** Undoes {@link PG_EVENT_NOTIFY_PAYLOAD}: back to one `<threadId>` notification per row. */
export const PG_UNDO_EVENT_NOTIFY_PAYLOAD = `
  DROP TRIGGER IF EXISTS events_notify ON events;
  DROP FUNCTION IF EXISTS chat_notify_events();
  CREATE TRIGGER events_notify AFTER INSERT ON events
    FOR EACH ROW EXECUTE FUNCTION chat_notify_event();
`;

/** A `chat_events` notification, decoded. */
export interface EventNotice {
  threadId: string;
  /** The event's id; null when the notice names only the thread (read back what is missing). */
  id: number | null;
  /** The event's stored JSON; null when it did not fit (read it back). */
  data: string | null;
}

/** Decodes a `chat_events` payload (thread ids never contain a newline). */
export function decodeEventNotice(payload: string): EventNotice {
  const first = payload.indexOf("\n");
  if (first === -1) return { threadId: payload, id: null, data: null };
  const threadId = payload.slice(0, first);
  const second = payload.indexOf("\n", first + 1);
  const idText = second === -1 ? payload.slice(first + 1) : payload.slice(first + 1, second);
  const id = Number(idText);
  if (!Number.isSafeInteger(id) || id <= 0) return { threadId, id: null, data: null };
  return { threadId, id, data: second === -1 ? null : payload.slice(second + 1) };
}
