/**
 * The SQLite queries of a thread's life after creation (issue 31): the paged list, rename,
 * delete with an undo window, and the purge that removes a deleted thread for good (part of
 * `repository.ts`). The purge leans on the schema's `ON DELETE CASCADE` (turns, messages,
 * events, questions, search rows and their FTS rows through a trigger, citation index rows) and
 * sums the backlinks of the messages it cited again from the rows left.
 */
import type { Thread } from "@app/protocol";
// The driver's type, not db.ts's alias: db.ts imports this module (no import cycle).
import type Database from "better-sqlite3";
import type { PurgedThread, SyncQueries, ThreadRecord } from "./chatStore.ts";
import { THREAD_COLUMNS, type ThreadRow, toThreadRecord } from "./rows.ts";
import { NEWEST_THREAD_BOUND } from "./searchText.ts";
import { sqliteBacklinkResummer } from "./sqliteCitations.ts";

/** Migration 8. */
export const THREAD_LIFECYCLE_SCHEMA = `
  ALTER TABLE threads ADD COLUMN deleted_at TEXT;
  CREATE INDEX threads_listed ON threads (updated_at DESC, id)
    WHERE message_count > 0 AND deleted_at IS NULL;
  CREATE INDEX threads_deleted ON threads (deleted_at) WHERE deleted_at IS NOT NULL;
  CREATE TABLE purged_threads (
    id TEXT PRIMARY KEY,
    purged_at TEXT NOT NULL
  ) STRICT, WITHOUT ROWID;
`;

export type SqliteThreadLifecycleQueries = Pick<
  SyncQueries,
  | "listThreads"
  | "renameThread"
  | "setThreadDeleted"
  | "threadsDeletedBefore"
  | "purgeThread"
  | "threadWasPurged"
>;

export function sqliteThreadLifecycleQueries(
  db: Database.Database,
  environmentId: string,
): SqliteThreadLifecycleQueries {
  const s = (sql: string) => db.prepare(sql);
  const stmt = {
    list: s(
      `SELECT ${THREAD_COLUMNS} FROM threads INDEXED BY threads_listed
       WHERE message_count > 0 AND deleted_at IS NULL
         AND (updated_at < @updatedAt OR (updated_at = @updatedAt AND id > @id))
       ORDER BY updated_at DESC, id LIMIT @limit`,
    ),
    get: s(`SELECT ${THREAD_COLUMNS} FROM threads WHERE id = ?`),
    rename: s("UPDATE threads SET title = ?, title_source = 'custom' WHERE id = ?"),
    setDeleted: s("UPDATE threads SET deleted_at = ? WHERE id = ?"),
    deletedBefore: s(
      `SELECT id FROM threads WHERE deleted_at IS NOT NULL AND deleted_at <= ?
       ORDER BY deleted_at LIMIT ?`,
    ),
    citedSources: s(
      `SELECT DISTINCT source_message_id AS messageId, source_thread_id AS threadId
       FROM message_citations
       WHERE citing_thread_id = ? AND source_environment_id = ? AND source_thread_id <> ?
       ORDER BY source_message_id, source_thread_id`,
    ),
    deleteOwnBacklinks: s("DELETE FROM message_backlinks WHERE source_thread_id = ?"),
    deleteThread: s("DELETE FROM threads WHERE id = ? AND deleted_at IS NOT NULL"),
    remember: s(
      "INSERT INTO purged_threads (id, purged_at) VALUES (?, ?) ON CONFLICT (id) DO NOTHING",
    ),
    wasPurged: s("SELECT 1 AS found FROM purged_threads WHERE id = ?"),
  };
  const record = (id: string): ThreadRecord | null => {
    const row = stmt.get.get(id) as ThreadRow | undefined;
    return row ? toThreadRecord(row, environmentId) : null;
  };

  /** A cited message's backlinks summed again from the citation rows left. */
  const resum = sqliteBacklinkResummer(db, environmentId);

  return {
    listThreads({ after, limit }): Thread[] {
      const rows = stmt.list.all({
        updatedAt: after?.updatedAt ?? NEWEST_THREAD_BOUND,
        id: after?.id ?? "",
        limit,
      }) as ThreadRow[];
      return rows.map((row) => toThreadRecord(row, environmentId).thread);
    },

    renameThread({ id, title }): Thread | null {
      stmt.rename.run(title, id);
      return record(id)?.thread ?? null;
    },

    setThreadDeleted({ id, deletedAt }): ThreadRecord | null {
      stmt.setDeleted.run(deletedAt, id);
      return record(id);
    },

    threadsDeletedBefore(cutoff: string, limit: number): string[] {
      return (stmt.deletedBefore.all(cutoff, limit) as { id: string }[]).map((row) => row.id);
    },

    purgeThread(id: string): PurgedThread | null {
      const sources = stmt.citedSources.all(id, environmentId, id) as {
        messageId: string;
        threadId: string;
      }[];
      if (stmt.deleteThread.run(id).changes === 0) return null;
      stmt.deleteOwnBacklinks.run(id);
      stmt.remember.run(id, new Date().toISOString());
      return {
        citedMessages: sources.map((source) => ({
          ...source,
          citedBy: resum(source.threadId, source.messageId),
        })),
      };
    },

    threadWasPurged(id: string): boolean {
      return stmt.wasPurged.get(id) !== undefined;
    },
  };
}
