/**
 * The find-in-thread index on SQLite (issue 23): `message_search` holds each message's rendered
 * text (NULL while it streams) and `message_search_fts`, a contentless FTS5 table with the
 * `trigram` tokenizer, indexes its case fold, so any substring of three or more characters is
 * found through the index. Shorter queries scan the thread's rows.
 *
 * A message gets its `message_search` row when it is created, so the row ids (the FTS rowids and
 * the search cursor) follow thread order even when a queued prompt is indexed before the reply
 * still streaming above it; the text is written when the message is created complete or when it
 * finishes (any outcome), in the same transaction, or, for a long message, queued there in
 * `search_pending` and written by the background indexer (`searchIndexer.ts`) right after. Until
 * then its text stays NULL: not found, never found twice, and its place in order is kept.
 *
 * Since issue 33 a text is indexed as pieces (`searchPieces.ts`, `sqliteSearchFts.ts`): the
 * background indexer writes a long text's pieces ahead, each in a transaction of its own, then
 * `writeSearchText` writes the last one, the text and takes the message off the queue in one.
 * Pieces of a message whose text is still NULL (a crash between two of those transactions)
 * are never candidates, and the next indexing of it starts by removing them.
 */
import type Database from "better-sqlite3";
import type { SyncQueries } from "./chatStore.ts";
import {
  foldedSearchText,
  ftsQuery,
  likeContains,
  type QueuedSearchText,
  SEARCH_INLINE_MAX_CHARS,
  type SearchCandidate,
  type SearchCandidateQuery,
  searchTextOf,
  shortQueryPrefilter,
  usesTrigrams,
} from "./searchText.ts";
import {
  FTS_DELETE_TRIGGER,
  FTS_PIECE_BITS,
  ftsRange,
  type SqliteFtsWriter,
  sqliteFtsWriter,
} from "./sqliteSearchFts.ts";

/** The tables (migration 6). */
export const SEARCH_INDEX_TABLES = `
  CREATE TABLE message_search (
    id INTEGER PRIMARY KEY,
    message_id TEXT NOT NULL UNIQUE REFERENCES messages (id) ON DELETE CASCADE,
    thread_id TEXT NOT NULL,
    role TEXT NOT NULL,
    -- The rendered text; NULL while the message streams (not searchable yet).
    text TEXT
  ) STRICT;
  CREATE INDEX message_search_by_thread ON message_search (thread_id, id);
  CREATE VIRTUAL TABLE message_search_fts USING fts5(
    folded, content = '', contentless_delete = 1, tokenize = 'trigram case_sensitive 1'
  );
  -- The FTS row goes with its message (a deleted thread takes its index along).
  CREATE TRIGGER message_search_deleted AFTER DELETE ON message_search BEGIN
    DELETE FROM message_search_fts WHERE rowid = old.id;
  END;
`;

/** The queue of long messages to index off the transaction (migration 7). */
export const SEARCH_QUEUE_TABLE = `
  CREATE TABLE search_pending (
    message_id TEXT PRIMARY KEY REFERENCES messages (id) ON DELETE CASCADE
  ) STRICT, WITHOUT ROWID;
`;

type Role = "user" | "assistant";
// Not db.ts's alias: db.ts runs this module's backfill (migration 6), so it cannot be imported.
type SqliteDatabase = Database.Database;

/** Writes index rows; call inside the transaction that writes the message. */
export interface SqliteSearchWriter {
  /** A new message: its row, with its text unless it is still streaming. */
  added(message: { id: string; threadId: string; role: Role; text: string | null }): void;
  /** A message stopped streaming with this whole text. */
  finished(messageId: string, markdown: string): void;
}

/**
 * `inlineMaxChars`: longer messages are queued for the background indexer (the migration's
 * backfill, which runs before the server serves, renders every one inline).
 */
export function sqliteSearchWriter(
  db: SqliteDatabase,
  inlineMaxChars = SEARCH_INLINE_MAX_CHARS,
  { indexFts = true }: { indexFts?: boolean } = {},
): SqliteSearchWriter {
  const insertRow = db.prepare(
    "INSERT INTO message_search (message_id, thread_id, role, text) VALUES (?, ?, ?, ?)",
  );
  const rowOf = db.prepare("SELECT id, role FROM message_search WHERE message_id = ?");
  const setText = db.prepare("UPDATE message_search SET text = ? WHERE id = ?");
  // Made on first use: migration 6's backfill runs before the pieces' column (migration 10).
  let ftsWriter: SqliteFtsWriter | undefined;
  const fts = () => (ftsWriter ??= sqliteFtsWriter(db));
  // Prepared on first use: migration 6's backfill runs before the queue exists (migration 7).
  let enqueueStmt: Database.Statement | undefined;
  const enqueue = (messageId: string) => {
    enqueueStmt ??= db.prepare("INSERT OR IGNORE INTO search_pending (message_id) VALUES (?)");
    enqueueStmt.run(messageId);
  };
  return {
    added({ id, threadId, role, text: markdown }) {
      const inline = markdown !== null && markdown.length <= inlineMaxChars;
      const text = inline ? searchTextOf(role, markdown) : null;
      const { lastInsertRowid } = insertRow.run(id, threadId, role, text);
      if (text === null) {
        if (markdown !== null) enqueue(id);
      } else if (indexFts) fts().writeNew(Number(lastInsertRowid), text);
    },
    finished(messageId, markdown) {
      const row = rowOf.get(messageId) as { id: number; role: Role } | undefined;
      if (!row) return;
      if (markdown.length > inlineMaxChars) {
        setText.run(null, row.id);
        fts().dropAll(row.id);
        enqueue(messageId);
        return;
      }
      writeText(row.id, searchTextOf(row.role, markdown));
    },
  };

  function writeText(rowId: number, text: string): void {
    setText.run(text, rowId);
    fts().writeFrom(rowId, text);
  }
}

/** The background indexer's queries (`searchIndexer.ts`). */
export function sqliteSearchQueue(
  db: SqliteDatabase,
): Pick<SyncQueries, "queuedSearchTexts" | "writeSearchTextPiece" | "writeSearchText"> {
  // `except` (a JSON array) leaves out the messages being indexed already.
  const queued = db.prepare(
    `SELECT m.id AS messageId, m.role, m.text AS markdown
     FROM search_pending p JOIN messages m ON m.id = p.message_id
     WHERE p.message_id NOT IN (SELECT value FROM json_each(?)) LIMIT ?`,
  );
  const queuedOf = db.prepare(
    `SELECT m.id AS messageId, m.role, m.text AS markdown
     FROM search_pending p JOIN messages m ON m.id = p.message_id
     WHERE (p.message_id IN (SELECT value FROM json_each(@only)) OR m.created_at < @createdBefore)
       AND p.message_id NOT IN (SELECT value FROM json_each(@except)) LIMIT @limit`,
  );
  const dequeue = db.prepare("DELETE FROM search_pending WHERE message_id = ?");
  const rowOf = db.prepare("SELECT id FROM message_search WHERE message_id = ?");
  // Queued and not searchable yet (its text NULL): where pieces may be written ahead.
  const queuedRowOf = db.prepare(
    `SELECT s.id FROM search_pending p JOIN message_search s ON s.message_id = p.message_id
     WHERE p.message_id = ? AND s.text IS NULL`,
  );
  const setText = db.prepare("UPDATE message_search SET text = ? WHERE id = ?");
  const fts = sqliteFtsWriter(db);
  return {
    queuedSearchTexts(
      limit: number,
      only?: readonly string[],
      except: readonly string[] = [],
      createdBefore?: string,
    ): QueuedSearchText[] {
      const skip = JSON.stringify(except);
      if (!only) return queued.all(skip, limit) as QueuedSearchText[];
      return queuedOf.all({
        only: JSON.stringify(only),
        except: skip,
        limit,
        // NULL: no message is created before it.
        createdBefore: createdBefore ?? null,
      }) as QueuedSearchText[];
    },
    writeSearchTextPiece(messageId: string, text: string, piece: number): boolean {
      const row = queuedRowOf.get(messageId) as { id: number } | undefined;
      if (!row) return false;
      fts.writePiece(row.id, text, piece);
      return true;
    },
    writeSearchText(messageId: string, text: string, piecesWritten = 0): boolean {
      if (dequeue.run(messageId).changes === 0) return false;
      const row = rowOf.get(messageId) as { id: number } | undefined;
      if (!row) return false;
      setText.run(text, row.id);
      fts.writeFrom(row.id, text, piecesWritten);
      return true;
    },
  };
}

/**
 * Indexes every existing message in thread order (migration 6), in keyset batches:
 * better-sqlite3 cannot write while a read iterates.
 */
export function backfillSqliteSearch(db: SqliteDatabase): void {
  // The texts only: migration 10 builds the trigram index from them.
  const write = sqliteSearchWriter(db, Number.POSITIVE_INFINITY, { indexFts: false });
  const batch = db.prepare(
    `SELECT id, thread_id, seq, role, text, status FROM messages
     WHERE (thread_id, seq) > (?, ?) ORDER BY thread_id, seq LIMIT 500`,
  );
  let after: [string, number] = ["", 0];
  for (;;) {
    const rows = batch.all(...after) as {
      id: string;
      thread_id: string;
      seq: number;
      role: Role;
      text: string;
      status: string;
    }[];
    if (rows.length === 0) return;
    for (const row of rows) {
      write.added({
        id: row.id,
        threadId: row.thread_id,
        role: row.role,
        text: row.status === "streaming" ? null : row.text,
      });
    }
    const last = rows.at(-1)!;
    after = [last.thread_id, last.seq];
  }
}

/**
 * Migration 10 (issue 33): the trigram index rebuilt with a rowid range per message and the
 * count of each message's pieces (`message_search.pieces`, `sqliteSearchFts.ts`), from the
 * stored texts, in keyset batches. Drops and creates what it builds, so a database rolled back
 * before it (tests) takes it again.
 */
export function migrateSearchPieces(db: SqliteDatabase): void {
  const columns = db.prepare("SELECT name FROM pragma_table_info('message_search')").pluck().all();
  if (!columns.includes("pieces")) {
    db.exec("ALTER TABLE message_search ADD COLUMN pieces INTEGER NOT NULL DEFAULT 0");
  }
  db.exec(`
    DROP TRIGGER IF EXISTS message_search_deleted;
    DROP TABLE IF EXISTS message_search_fts;
    CREATE VIRTUAL TABLE message_search_fts USING fts5(
      folded, content = '', contentless_delete = 1, tokenize = 'trigram case_sensitive 1'
    );
    ${FTS_DELETE_TRIGGER}
  `);
  const fts = sqliteFtsWriter(db);
  const batch = db.prepare(
    "SELECT id, text FROM message_search WHERE id > ? AND text IS NOT NULL ORDER BY id LIMIT 500",
  );
  let after = 0;
  for (;;) {
    const rows = batch.all(after) as { id: number; text: string }[];
    if (rows.length === 0) return;
    for (const row of rows) fts.writeNew(row.id, row.text);
    after = rows.at(-1)!.id;
  }
}

export type SqliteSearchQueries = Pick<SyncQueries, "searchCandidates">;

export function sqliteSearchQueries(db: SqliteDatabase): SqliteSearchQueries {
  const s = (sql: string) => db.prepare(sql);
  const COLUMNS = "s.id AS key, s.message_id AS messageId, s.role, s.text";
  // Only the path shown is searched (versions, issue 30).
  const SHOWN = "EXISTS (SELECT 1 FROM messages m WHERE m.id = s.message_id AND m.on_path = 1)";
  const stmt = {
    // Two subqueries: SQLite reads min() or max() off the index only when each stands alone.
    bounds: s(
      `SELECT (SELECT min(id) FROM message_search WHERE thread_id = @thread) AS low,
         (SELECT max(id) FROM message_search WHERE thread_id = @thread) AS high`,
    ),
    // The FTS table drives, in rowid (thread) order, within the thread's rowid range: one row
    // per matching piece, so a message with several comes back several times in a row (its
    // text is read once, by `texts`). A message whose text is still NULL has pieces written
    // ahead of it (or left by a crash): not a candidate (`typeof` reads no text).
    trigram: s(
      `SELECT s.id FROM message_search_fts f
         CROSS JOIN message_search s ON s.id = (f.rowid >> ${FTS_PIECE_BITS})
       WHERE message_search_fts MATCH ? AND f.rowid >= ? AND f.rowid < ? AND s.thread_id = ?
         AND typeof(s.text) = 'text' AND ${SHOWN}
       ORDER BY f.rowid`,
    ).pluck(),
    texts: s(
      `SELECT ${COLUMNS} FROM message_search s
       WHERE s.id IN (SELECT value FROM json_each(?)) ORDER BY s.id`,
    ),
    scanInstr: s(
      `SELECT ${COLUMNS} FROM message_search s WHERE s.thread_id = ? AND s.id > ?
       AND s.text IS NOT NULL AND instr(s.text, ?) > 0 AND ${SHOWN} ORDER BY s.id LIMIT ?`,
    ),
    scanLike: s(
      `SELECT ${COLUMNS} FROM message_search s WHERE s.thread_id = ? AND s.id > ?
       AND s.text IS NOT NULL AND s.text LIKE ? ESCAPE '\\' AND ${SHOWN} ORDER BY s.id LIMIT ?`,
    ),
    scanAll: s(
      `SELECT ${COLUMNS} FROM message_search s WHERE s.thread_id = ? AND s.id > ?
       AND s.text IS NOT NULL AND ? IS NOT NULL AND ${SHOWN} ORDER BY s.id LIMIT ?`,
    ),
  };
  // Rows up to the one that brings their texts to `maxChars`: each text is read as the
  // statement steps, so the texts after it are never read (issue 33: a first batch of eight
  // 1,000,000-character replies was one read of 8,000,000 characters on the event loop).
  const upTo = (rows: IterableIterator<unknown>, maxChars: number): SearchCandidate[] => {
    const taken: SearchCandidate[] = [];
    let chars = 0;
    for (const row of rows as IterableIterator<SearchCandidate>) {
      taken.push(row);
      chars += row.text.length;
      if (chars >= maxChars) break;
    }
    return taken;
  };
  return {
    searchCandidates(input: SearchCandidateQuery): SearchCandidate[] {
      const { threadId, query, caseSensitive, afterKey, limit } = input;
      const maxChars = input.maxChars ?? Number.POSITIVE_INFINITY;
      if (usesTrigrams(query)) {
        const bounds = stmt.bounds.get({ thread: threadId }) as {
          low: number | null;
          high: number | null;
        };
        if (bounds.low === null || bounds.high === null) return [];
        const phrase = ftsQuery(foldedSearchText(query));
        const first = ftsRange(Math.max(afterKey + 1, bounds.low))[0];
        const ids: number[] = [];
        // Stops at the `limit`-th message: the rest of the range is never read.
        for (const id of stmt.trigram.iterate(phrase, first, ftsRange(bounds.high)[1], threadId)) {
          if (id === ids.at(-1)) continue;
          if (ids.push(id as number) === limit) break;
        }
        if (ids.length === 0) return [];
        return upTo(stmt.texts.iterate(JSON.stringify(ids)), maxChars);
      }
      const prefilter = shortQueryPrefilter(query, caseSensitive);
      if (prefilter === "instr") {
        return upTo(stmt.scanInstr.iterate(threadId, afterKey, query, limit), maxChars);
      }
      if (prefilter === "like") {
        return upTo(
          stmt.scanLike.iterate(threadId, afterKey, likeContains(query), limit),
          maxChars,
        );
      }
      return upTo(stmt.scanAll.iterate(threadId, afterKey, query, limit), maxChars);
    },
  };
}
