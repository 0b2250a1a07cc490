/** The PostgreSQL queries on the citation index: writes and backlinks (part of `pgQueries.ts`). */
import type { CitedBy } from "@app/protocol";
import type { ChatQueries } from "../chatStore.ts";
import type { CitationIndexEntry, CitingRecord } from "../citationIndex.ts";
import { writeCitations } from "./pgCitations.ts";
import type { PgContext } from "./pgRun.ts";

export type PgCitationQueries = Pick<
  ChatQueries,
  "lockThreads" | "insertCitations" | "citedByOf" | "citingMessagesOf"
>;

export function pgCitationQueries(ctx: PgContext): PgCitationQueries {
  return {
    async lockThreads(threadIds: readonly string[]): Promise<void> {
      if (threadIds.length === 0) return;
      // Rows are locked in the order the sort returns them; NO KEY keeps foreign-key checks free.
      await ctx.run(
        "lockThreads",
        "SELECT id FROM threads WHERE id = ANY($1::text[]) ORDER BY id FOR NO KEY UPDATE",
        [[...new Set(threadIds)]],
      );
    },

    async insertCitations(entries: readonly CitationIndexEntry[]): Promise<void> {
      await writeCitations(ctx.run, entries, ctx.environmentId());
    },

    async citedByOf(
      threadId: string,
      messageIds: readonly string[],
    ): Promise<Map<string, CitedBy>> {
      const result = new Map<string, CitedBy>();
      if (messageIds.length === 0) return result;
      // One row per cited message of the page, however often it is cited.
      const rows = await ctx.rows<{ id: string; count: number; ranges: string }>(
        "citedBy",
        `SELECT source_message_id AS id, citing_count AS count, ranges FROM message_backlinks
         WHERE source_message_id = ANY($1::text[]) AND source_thread_id = $2`,
        [messageIds, threadId],
      );
      for (const row of rows) {
        result.set(row.id, {
          count: row.count,
          ranges: JSON.parse(row.ranges) as CitedBy["ranges"],
        });
      }
      return result;
    },

    async citingMessagesOf(
      threadId: string,
      messageId: string,
      afterId: number,
      limit: number,
    ): Promise<CitingRecord[]> {
      const rows = await ctx.rows<Omit<CitingRecord, "quote"> & CitingRecord["quote"]>(
        "citingMessages",
        `SELECT c.id, c.citing_message_id AS "messageId", c.citing_thread_id AS "threadId",
           t.title AS "threadTitle", c.created_at AS "createdAt", c.comment, c.quote AS text,
           c.quote_start::int AS start, c.quote_end::int AS "end", c.prefix, c.suffix
         FROM message_citations c JOIN threads t ON t.id = c.citing_thread_id
         -- Only prompts on the path shown cite (backlinks follow the versions shown).
         JOIN messages m ON m.id = c.citing_message_id AND m.on_path = 1
         WHERE c.source_message_id = $1 AND c.source_thread_id = $2
           AND c.source_environment_id = $3 AND c.id > $4
         ORDER BY c.id LIMIT $5`,
        [messageId, threadId, ctx.environmentId(), afterId, limit],
      );
      return rows.map(({ text, start, end, prefix, suffix, ...rest }) => ({
        ...rest,
        quote: { text, start, end, prefix, suffix },
      }));
    },
  };
}
