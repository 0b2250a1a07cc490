/**
 * The PostgreSQL queries of a thread's life after creation (issue 31), as
 * `../sqliteThreadLifecycle.ts` for SQLite: the paged list, rename, delete with an undo window,
 * and the purge (the schema's `ON DELETE CASCADE` removes turns, messages, events, questions,
 * search rows and citation index rows; the backlinks of the messages it cited are summed again).
 */
import type { CitedBy, Thread } from "@app/protocol";
import type { ChatQueries, PurgedThread, ThreadRecord } from "../chatStore.ts";
import { THREAD_COLUMNS, type ThreadRow, toThreadRecord } from "../rows.ts";
import { NEWEST_THREAD_BOUND } from "../searchText.ts";
import { resumBacklinks } from "./pgCitations.ts";
import type { PgContext } from "./pgRun.ts";

/** Migration 5. */
export const PG_THREAD_LIFECYCLE_SCHEMA = `
  ALTER TABLE threads ADD COLUMN deleted_at TEXT;
  CREATE INDEX threads_listed ON threads (updated_at DESC, id)
    WHERE message_count > 0 AND deleted_at IS NULL;
  CREATE INDEX threads_deleted ON threads (deleted_at) WHERE deleted_at IS NOT NULL;
  CREATE TABLE purged_threads (
    id TEXT COLLATE "C" PRIMARY KEY,
    purged_at TEXT NOT NULL
  );
`;

export type PgThreadLifecycleQueries = Pick<
  ChatQueries,
  | "listThreads"
  | "renameThread"
  | "setThreadDeleted"
  | "threadsDeletedBefore"
  | "purgeThread"
  | "threadWasPurged"
>;

export function pgThreadLifecycleQueries(ctx: PgContext): PgThreadLifecycleQueries {
  const env = () => ctx.environmentId();

  /** A cited message's backlinks summed again from the citation rows left (row locked). */
  const resum = (threadId: string, messageId: string): Promise<CitedBy> =>
    resumBacklinks(ctx.run, env(), threadId, messageId);

  return {
    async listThreads({ after, limit }): Promise<Thread[]> {
      const rows = await ctx.rows<ThreadRow>(
        "listThreadsPage",
        `SELECT ${THREAD_COLUMNS} FROM threads
         WHERE message_count > 0 AND deleted_at IS NULL
           -- The first bound is implied by the second: a range the index seeks to, where the
           -- OR alone read the index from the top (a deep page cost its depth).
           AND updated_at <= $1 AND (updated_at < $1 OR (updated_at = $1 AND id > $2))
         ORDER BY updated_at DESC, id LIMIT $3`,
        [after?.updatedAt ?? NEWEST_THREAD_BOUND, after?.id ?? "", limit],
      );
      return rows.map((row) => toThreadRecord(row, env()).thread);
    },

    async renameThread({ id, title }): Promise<Thread | null> {
      const [row] = await ctx.rows<ThreadRow>(
        "renameThread",
        `UPDATE threads SET title = $1, title_source = 'custom' WHERE id = $2
         RETURNING ${THREAD_COLUMNS}`,
        [title, id],
      );
      return row ? toThreadRecord(row, env()).thread : null;
    },

    async setThreadDeleted({ id, deletedAt }): Promise<ThreadRecord | null> {
      const [row] = await ctx.rows<ThreadRow>(
        "setThreadDeleted",
        `UPDATE threads SET deleted_at = $1 WHERE id = $2 RETURNING ${THREAD_COLUMNS}`,
        [deletedAt, id],
      );
      return row ? toThreadRecord(row, env()) : null;
    },

    async threadsDeletedBefore(cutoff: string, limit: number): Promise<string[]> {
      const rows = await ctx.rows<{ id: string }>(
        "threadsDeletedBefore",
        `SELECT id FROM threads WHERE deleted_at IS NOT NULL AND deleted_at <= $1
         ORDER BY deleted_at LIMIT $2`,
        [cutoff, limit],
      );
      return rows.map((row) => row.id);
    },

    async purgeThread(id: string): Promise<PurgedThread | null> {
      // Locks the thread's row first: a restore racing the purge waits, then finds it gone.
      const [locked] = await ctx.rows<{ id: string }>(
        "lockDeletedThread",
        "SELECT id FROM threads WHERE id = $1 AND deleted_at IS NOT NULL FOR UPDATE",
        [id],
      );
      if (!locked) return null;
      const sources = await ctx.rows<{ messageId: string; threadId: string }>(
        "citedSourcesOf",
        `SELECT DISTINCT source_message_id AS "messageId", source_thread_id AS "threadId"
         FROM message_citations
         WHERE citing_thread_id = $1 AND source_environment_id = $2 AND source_thread_id <> $1
         ORDER BY 1, 2`,
        [id, env()],
      );
      // No foreign key cascades to these two (migration 7, `pgVersionsSchema.ts`).
      await ctx.run(
        "deleteQueuedSearchTexts",
        `DELETE FROM search_pending p USING messages m
         WHERE m.thread_id = $1 AND p.message_id = m.id`,
        [id],
      );
      await ctx.run("deleteCopyLinks", "DELETE FROM message_copies WHERE thread_id = $1", [id]);
      await ctx.run("deleteThread", "DELETE FROM threads WHERE id = $1", [id]);
      // No key cascades to events either (migration 9, `eventNotify.ts`); the thread's row is
      // locked by its delete, so no event of it can be stored meanwhile.
      await ctx.run("deleteThreadEvents", "DELETE FROM events WHERE thread_id = $1", [id]);
      await ctx.run(
        "deleteOwnBacklinks",
        "DELETE FROM message_backlinks WHERE source_thread_id = $1",
        [id],
      );
      await ctx.run(
        "rememberPurged",
        `INSERT INTO purged_threads (id, purged_at) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING`,
        [id, new Date().toISOString()],
      );
      const citedMessages: PurgedThread["citedMessages"] = [];
      for (const source of sources) {
        citedMessages.push({
          ...source,
          citedBy: await resum(source.threadId, source.messageId),
        });
      }
      return { citedMessages };
    },

    async threadWasPurged(id: string): Promise<boolean> {
      const rows = await ctx.rows("threadWasPurged", "SELECT 1 FROM purged_threads WHERE id = $1", [
        id,
      ]);
      return rows.length > 0;
    },
  };
}
