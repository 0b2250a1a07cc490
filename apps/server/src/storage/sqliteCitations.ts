/**
 * The citation index in SQLite (backlinks, issue 24): its tables and the one write path, used by
 * the repository (a prompt's citations) and by migration 5 (the backfill). `message_citations`
 * holds every distinct citation; `message_backlinks` the running sum per cited message of this
 * environment (`citationIndex.addCitedBy`), so a history page reads one row per cited message.
 */
import type { CitedBy } from "@app/protocol";
// The driver's type, not db.ts's alias: db.ts imports this module (no import cycle).
import type Database from "better-sqlite3";
import {
  addCitedBy,
  backlinkGroups,
  type CitationIndexEntry,
  type CitedByRow,
  summarizeCitedBy,
} from "./citationIndex.ts";

export const CITATION_INDEX_TABLES = `
  CREATE TABLE message_citations (
    -- Insertion order: orders a message's citations and pages GET .../cited-by.
    id INTEGER PRIMARY KEY,
    citing_message_id TEXT NOT NULL REFERENCES messages (id) ON DELETE CASCADE,
    citing_thread_id TEXT NOT NULL REFERENCES threads (id) ON DELETE CASCADE,
    citing_turn_id TEXT NOT NULL,
    -- As the citation says: another environment's rows are kept but never shown.
    source_environment_id TEXT NOT NULL,
    source_thread_id TEXT NOT NULL,
    source_message_id TEXT NOT NULL,
    quote_start INTEGER NOT NULL,
    quote_end INTEGER NOT NULL,
    prefix TEXT NOT NULL,
    suffix TEXT NOT NULL,
    quote TEXT NOT NULL,
    comment TEXT,
    created_at TEXT NOT NULL
  ) STRICT;
  CREATE INDEX message_citations_by_source
    ON message_citations (source_message_id, source_thread_id, source_environment_id, id);
  CREATE INDEX message_citations_by_citing ON message_citations (citing_message_id);
  CREATE INDEX message_citations_by_citing_thread ON message_citations (citing_thread_id);

  -- Backlinks of this environment's messages: citing messages counted, distinct ranges (JSON).
  CREATE TABLE message_backlinks (
    source_message_id TEXT NOT NULL,
    source_thread_id TEXT NOT NULL,
    citing_count INTEGER NOT NULL,
    ranges TEXT NOT NULL,
    PRIMARY KEY (source_message_id, source_thread_id)
  ) STRICT, WITHOUT ROWID;
`;

/** Writes index rows and updates the backlink sums (call inside a transaction). */
export function sqliteCitationWriter(
  db: Database.Database,
): (entries: readonly CitationIndexEntry[], environmentId: string) => void {
  const insert = db.prepare(
    `INSERT INTO message_citations (citing_message_id, citing_thread_id, citing_turn_id,
       source_environment_id, source_thread_id, source_message_id, quote_start, quote_end,
       prefix, suffix, quote, comment, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const get = db.prepare(
    `SELECT citing_count AS count, ranges FROM message_backlinks
     WHERE source_message_id = ? AND source_thread_id = ?`,
  );
  const put = db.prepare(
    `INSERT INTO message_backlinks (source_message_id, source_thread_id, citing_count, ranges)
     VALUES (?, ?, ?, ?)
     ON CONFLICT (source_message_id, source_thread_id)
     DO UPDATE SET citing_count = excluded.citing_count, ranges = excluded.ranges`,
  );
  return (entries, environmentId) => {
    for (const e of entries) {
      insert.run(
        e.citingMessageId,
        e.citingThreadId,
        e.citingTurnId,
        e.sourceEnvironmentId,
        e.sourceThreadId,
        e.sourceMessageId,
        e.quote.start,
        e.quote.end,
        e.quote.prefix,
        e.quote.suffix,
        e.quote.text,
        e.comment,
        e.createdAt,
      );
    }
    for (const group of backlinkGroups(entries, environmentId)) {
      const row = get.get(group.sourceMessageId, group.sourceThreadId) as
        | { count: number; ranges: string }
        | undefined;
      const existing: CitedBy | undefined = row
        ? { count: row.count, ranges: JSON.parse(row.ranges) as CitedBy["ranges"] }
        : undefined;
      const next = addCitedBy(existing, group.rows);
      put.run(group.sourceMessageId, group.sourceThreadId, next.count, JSON.stringify(next.ranges));
    }
  };
}

/**
 * Sums a cited message's backlinks again from the citation rows whose citing message is shown
 * (`on_path`), and stores the sum (call inside a transaction). Used where the citing set
 * changes other than by a new prompt: a purge, and a version switch that hides or shows prompts.
 */
export function sqliteBacklinkResummer(
  db: Database.Database,
  environmentId: string,
): (threadId: string, messageId: string) => CitedBy {
  const citingRows = db.prepare(
    `SELECT c.citing_message_id AS citingMessageId, c.quote AS text, c.quote_start AS start,
       c.quote_end AS "end", c.prefix, c.suffix
     FROM message_citations c JOIN messages m ON m.id = c.citing_message_id AND m.on_path = 1
     WHERE c.source_message_id = ? AND c.source_thread_id = ? AND c.source_environment_id = ?
     ORDER BY c.id`,
  );
  const put = db.prepare(
    `INSERT INTO message_backlinks (source_message_id, source_thread_id, citing_count, ranges)
     VALUES (?, ?, ?, ?)
     ON CONFLICT (source_message_id, source_thread_id)
     DO UPDATE SET citing_count = excluded.citing_count, ranges = excluded.ranges`,
  );
  const drop = db.prepare(
    "DELETE FROM message_backlinks WHERE source_message_id = ? AND source_thread_id = ?",
  );
  return (threadId, messageId) => {
    const rows = (
      citingRows.all(messageId, threadId, environmentId) as ({
        citingMessageId: string;
      } & CitedByRow["quote"])[]
    ).map(
      ({ citingMessageId, text, start, end, prefix, suffix }): CitedByRow => ({
        sourceMessageId: messageId,
        citingMessageId,
        quote: { text, start, end, prefix, suffix },
      }),
    );
    const citedBy = summarizeCitedBy(rows).get(messageId) ?? { count: 0, ranges: [] };
    if (citedBy.count === 0) drop.run(messageId, threadId);
    else put.run(messageId, threadId, citedBy.count, JSON.stringify(citedBy.ranges));
    return citedBy;
  };
}
