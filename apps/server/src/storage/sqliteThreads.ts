/** The SQLite queries on threads (part of `repository.ts`). */
import type { Thread } from "@app/protocol";
import { DEFAULT_THREAD_TITLE } from "../titles.ts";
import type { SyncQueries } from "./chatStore.ts";
import type { SqliteDatabase } from "./db.ts";
import { THREAD_COLUMNS, type ThreadRow, toThreadRecord } from "./rows.ts";
import { translateStorageError } from "./storageErrors.ts";

export type SqliteThreadQueries = Pick<
  SyncQueries,
  "createThread" | "getThread" | "setThreadTitle" | "lastSeq"
> & {
  /** Takes the thread's next message seq (and counts the message). */
  nextSeq(threadId: string, now: string): number;
};

export function sqliteThreadQueries(
  db: SqliteDatabase,
  environmentId: string,
): SqliteThreadQueries {
  const s = (sql: string) => db.prepare(sql);
  const stmt = {
    insertThread: s(
      `INSERT INTO threads (id, title, title_source, created_at, updated_at) VALUES (?, ?, ?, ?, ?)`,
    ),
    getThread: s(`SELECT ${THREAD_COLUMNS} FROM threads WHERE id = ?`),
    setThreadTitle: s(
      "UPDATE threads SET title = ?, title_source = ?, branch_name = ?, updated_at = ? WHERE id = ?",
    ),
    bumpThreadSeq: s(
      `UPDATE threads SET last_seq = last_seq + 1, message_count = message_count + 1, updated_at = ?
       WHERE id = ? RETURNING last_seq`,
    ),
  };

  const getThread = (id: string) => {
    const row = stmt.getThread.get(id) as ThreadRow | undefined;
    return row ? toThreadRecord(row, environmentId) : null;
  };

  return {
    createThread(input: { id: string; title: string | null; now: string }): Thread {
      try {
        return db.transaction(() => {
          stmt.insertThread.run(
            input.id,
            input.title ?? DEFAULT_THREAD_TITLE,
            input.title === null ? "default" : "custom",
            input.now,
            input.now,
          );
          return getThread(input.id)!.thread;
        })();
      } catch (error) {
        throw translateStorageError(error);
      }
    },

    getThread,

    setThreadTitle(input: {
      id: string;
      title: string;
      titleSource: "custom" | "prompt";
      branchName: string | null;
      now: string;
    }): Thread {
      stmt.setThreadTitle.run(
        input.title,
        input.titleSource,
        input.branchName,
        input.now,
        input.id,
      );
      return getThread(input.id)!.thread;
    },

    /** Seq of the thread's newest message (0 when it has none). */
    lastSeq(threadId: string): number {
      const row = stmt.getThread.get(threadId) as ThreadRow | undefined;
      return row?.last_seq ?? 0;
    },

    nextSeq(threadId: string, now: string): number {
      const row = stmt.bumpThreadSeq.get(now, threadId) as { last_seq: number } | undefined;
      if (!row) throw new Error(`Thread ${threadId} does not exist.`);
      return row.last_seq;
    },
  };
}
