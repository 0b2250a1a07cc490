/** The SQLite queries on the citation index: writes and backlinks (part of `repository.ts`). */
import type { CitedBy } from "@app/protocol";
import type { SyncQueries } from "./chatStore.ts";
import type { CitationIndexEntry, CitingRecord } from "./citationIndex.ts";
import type { SqliteDatabase } from "./db.ts";
import { sqliteCitationWriter } from "./sqliteCitations.ts";

export type SqliteCitationQueries = Pick<
  SyncQueries,
  "lockThreads" | "insertCitations" | "citedByOf" | "citingMessagesOf"
>;

export function sqliteCitationQueries(
  db: SqliteDatabase,
  environmentId: string,
): SqliteCitationQueries {
  const s = (sql: string) => db.prepare(sql);
  const stmt = {
    // One row per cited message of the page, however often it is cited.
    citedBy: s(
      `SELECT source_message_id AS id, citing_count AS count, ranges FROM message_backlinks
       WHERE source_message_id IN (SELECT value FROM json_each(?)) AND source_thread_id = ?`,
    ),
    citingMessages: s(
      `SELECT c.id, c.citing_message_id AS messageId, c.citing_thread_id AS threadId,
         t.title AS threadTitle, c.created_at AS createdAt, c.comment, c.quote AS text,
         c.quote_start AS start, c.quote_end AS "end", c.prefix, c.suffix
       FROM message_citations c JOIN threads t ON t.id = c.citing_thread_id
       -- Only prompts on the path shown cite (backlinks follow the versions shown).
       JOIN messages m ON m.id = c.citing_message_id AND m.on_path = 1
       WHERE c.source_message_id = ? AND c.source_thread_id = ? AND c.source_environment_id = ?
         AND c.id > ?
       ORDER BY c.id LIMIT ?`,
    ),
  };
  const writeCitations = sqliteCitationWriter(db);

  return {
    /** A no-op: one SQLite writer at a time already (`BEGIN IMMEDIATE`). */
    lockThreads(_threadIds: readonly string[]): void {},

    /** Adds a prompt's distinct citations (inside the prompt's transaction). */
    insertCitations(entries: readonly CitationIndexEntry[]): void {
      writeCitations(entries, environmentId);
    },

    /** Backlinks of these messages of `threadId` (citations of this environment only). */
    citedByOf(threadId: string, messageIds: readonly string[]): Map<string, CitedBy> {
      const result = new Map<string, CitedBy>();
      if (messageIds.length === 0) return result;
      const rows = stmt.citedBy.all(JSON.stringify(messageIds), threadId) as {
        id: string;
        count: number;
        ranges: string;
      }[];
      for (const row of rows) {
        result.set(row.id, {
          count: row.count,
          ranges: JSON.parse(row.ranges) as CitedBy["ranges"],
        });
      }
      return result;
    },

    /** Up to `limit` citations of a message with index id > `afterId`, oldest first. */
    citingMessagesOf(
      threadId: string,
      messageId: string,
      afterId: number,
      limit: number,
    ): CitingRecord[] {
      const rows = stmt.citingMessages.all(
        messageId,
        threadId,
        environmentId,
        afterId,
        limit,
      ) as (Omit<CitingRecord, "quote"> & CitingRecord["quote"])[];
      return rows.map(({ text, start, end, prefix, suffix, ...rest }) => ({
        ...rest,
        quote: { text, start, end, prefix, suffix },
      }));
    },
  };
}
