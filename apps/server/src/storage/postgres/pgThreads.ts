/** The PostgreSQL queries on threads (part of `pgQueries.ts`). */
import type { Thread } from "@app/protocol";
import type { ChatQueries, ThreadRecord } from "../chatStore.ts";
import { DEFAULT_THREAD_TITLE } from "../chatStore.ts";
import { THREAD_COLUMNS, type ThreadRow, toThreadRecord } from "../rows.ts";
import type { PgContext } from "./pgRun.ts";

export type PgThreadQueries = Pick<
  ChatQueries,
  "createThread" | "getThread" | "setThreadTitle" | "lastSeq"
> & {
  /** Takes the thread's next message seq (and counts the message). */
  nextSeq(threadId: string, now: string): Promise<number>;
};

export function pgThreadQueries(ctx: PgContext): PgThreadQueries {
  return {
    async createThread(input: { id: string; title: string | null; now: string }): Promise<Thread> {
      const [row] = await ctx.rows<ThreadRow>(
        "createThread",
        `INSERT INTO threads (id, title, title_source, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $4) RETURNING ${THREAD_COLUMNS}`,
        [
          input.id,
          input.title ?? DEFAULT_THREAD_TITLE,
          input.title === null ? "default" : "custom",
          input.now,
        ],
      );
      return toThreadRecord(row!, ctx.environmentId()).thread;
    },

    async getThread(id: string): Promise<ThreadRecord | null> {
      const [row] = await ctx.rows<ThreadRow>(
        "getThread",
        `SELECT ${THREAD_COLUMNS} FROM threads WHERE id = $1`,
        [id],
      );
      return row ? toThreadRecord(row, ctx.environmentId()) : null;
    },

    async setThreadTitle(input: {
      id: string;
      title: string;
      titleSource: "custom" | "prompt";
      branchName: string | null;
      now: string;
    }): Promise<Thread> {
      const [row] = await ctx.rows<ThreadRow>(
        "setThreadTitle",
        `UPDATE threads SET title = $1, title_source = $2, branch_name = $3, updated_at = $4
         WHERE id = $5 RETURNING ${THREAD_COLUMNS}`,
        [input.title, input.titleSource, input.branchName, input.now, input.id],
      );
      return toThreadRecord(row!, ctx.environmentId()).thread;
    },

    async lastSeq(threadId: string): Promise<number> {
      const [row] = await ctx.rows<{ last_seq: number }>(
        "lastSeq",
        "SELECT last_seq FROM threads WHERE id = $1",
        [threadId],
      );
      return row?.last_seq ?? 0;
    },

    async nextSeq(threadId: string, now: string): Promise<number> {
      const [row] = await ctx.rows<{ last_seq: number }>(
        "bumpThreadSeq",
        `UPDATE threads SET last_seq = last_seq + 1, message_count = message_count + 1, updated_at = $1
         WHERE id = $2 RETURNING last_seq`,
        [now, threadId],
      );
      if (!row) throw new Error(`Thread ${threadId} does not exist.`);
      return row.last_seq;
    },
  };
}
