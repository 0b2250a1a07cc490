/**
 * SQLite: finished turns appended in bulk (`appendFinishedTurns`, the seed; part of
 * `repository.ts`). The thread's row is updated once per call, not once per message: inside
 * one long transaction that update was over a third of the seed's time.
 */
import { bulkMessageCount, bulkRowsOf } from "./bulkTurns.ts";
import type { SyncQueries } from "./chatStore.ts";
import type { SqliteDatabase } from "./db.ts";
import { sqliteCitationWriter } from "./sqliteCitations.ts";
import { sqliteFtsWriter } from "./sqliteSearchFts.ts";

export function sqliteBulkTurnQueries(
  db: SqliteDatabase,
  environmentId: string,
): Pick<SyncQueries, "appendFinishedTurns"> {
  const s = (sql: string) => db.prepare(sql);
  const stmt = {
    lastShown: s(
      "SELECT id FROM messages WHERE thread_id = ? AND on_path = 1 ORDER BY seq DESC LIMIT 1",
    ),
    bump: s(
      `UPDATE threads SET last_seq = last_seq + ?, message_count = message_count + ?, updated_at = ?
       WHERE id = ? RETURNING last_seq`,
    ),
    insertTurn: s(
      `INSERT INTO turns (id, thread_id, prompt_seq, status, provider_input, created_at, completed_at)
       VALUES (?, ?, ?, 'completed', ?, ?, ?)`,
    ),
    insertMessage: s(
      `INSERT INTO messages (id, thread_id, turn_id, seq, role, kind, text, status, created_at,
         parent_id, on_path, chosen)
       VALUES (?, ?, ?, ?, ?, ?, ?, 'complete', ?, ?, 1, 1)`,
    ),
    insertSearchRow: s(
      "INSERT INTO message_search (message_id, thread_id, role, text) VALUES (?, ?, ?, ?)",
    ),
  };
  const writeCitations = sqliteCitationWriter(db);
  const fts = sqliteFtsWriter(db);
  return {
    appendFinishedTurns(threadId, turns) {
      const count = bulkMessageCount(turns);
      if (count === 0) return;
      const lastShown = stmt.lastShown.get(threadId) as { id: string } | undefined;
      const last = turns.at(-1)!;
      const bumped = stmt.bump.get(
        count,
        count,
        last.replies.at(-1)?.now ?? last.prompt.now,
        threadId,
      ) as { last_seq: number } | undefined;
      if (!bumped) throw new Error(`Thread ${threadId} does not exist.`);
      const rows = bulkRowsOf(turns, bumped.last_seq - count + 1, lastShown?.id ?? null);
      for (const turn of rows.turns) {
        stmt.insertTurn.run(
          turn.id,
          threadId,
          turn.promptSeq,
          turn.providerInput,
          turn.createdAt,
          turn.completedAt,
        );
      }
      for (const m of rows.messages) {
        stmt.insertMessage.run(
          m.id,
          threadId,
          m.turnId,
          m.seq,
          m.role,
          m.kind,
          m.text,
          m.createdAt,
          m.parentId,
        );
        const { lastInsertRowid } = stmt.insertSearchRow.run(m.id, threadId, m.role, m.searchText);
        fts.writeNew(Number(lastInsertRowid), m.searchText);
      }
      writeCitations(rows.citations, environmentId);
    },
  };
}
