/** The SQLite queries on turns and the history they carry (part of `repository.ts`). */
import type { Message, Turn, TurnStatus } from "@app/protocol";
import type Database from "better-sqlite3";
import type { HistoryBudget, HistoryTurn, SyncQueries } from "./chatStore.ts";
import type { SqliteDatabase } from "./db.ts";
import { TURN_COLUMNS, type TurnRow, toTurn } from "./rows.ts";
import type { SqliteMessageQueries } from "./sqliteMessages.ts";

/**
 * The newest `limit` turns of thread `@thread` before prompt seq `@before` whose prompt is on
 * the path, each with the id of its final complete answer on that path (its own or a
 * regeneration's; null when it has none). The path is the one shown (`on_path`), or, for a
 * prompt not shown (a queued turn whose prompt a version switch hid), the prompt's own
 * ancestors: a turn answers in the history of its own path.
 */
const historyTurns = (path: "shown" | "ancestors", limit: number) => {
  const onPath = (alias: string) =>
    path === "shown" ? `${alias}.on_path = 1` : `${alias}.id IN (SELECT id FROM anc)`;
  const ancestors =
    path === "shown"
      ? ""
      : `RECURSIVE anc(id) AS (
  SELECT parent_id FROM messages WHERE thread_id = @thread AND seq = @before AND parent_id IS NOT NULL
  UNION ALL SELECT m.parent_id FROM messages m JOIN anc ON m.id = anc.id WHERE m.parent_id IS NOT NULL),`;
  // The newest final answer of the turn itself and of its regenerations, each read backwards
  // from the partial index of final answers (one entry for a turn never regenerated), not every
  // message of the turns sorted: the one statement of a turn's history costs less per turn.
  const finalAnswer = `m.kind = 'answer' AND m.status = 'complete' AND ${onPath("m")}`;
  // Rows are carried by rowid, not id: the reads below go straight to the row instead of
  // through the primary key's index first (about a fifth of the statement's time, issue 33). The
  // prompt's place on the shown path is read from the path's partial index alone.
  const prompts = path === "shown" ? "messages p INDEXED BY messages_on_path" : "messages p";
  return `WITH ${ancestors} h AS (
  SELECT t.rowid AS turnRow, t.prompt_seq AS seq, octet_length(t.provider_input) AS inputBytes,
    (SELECT answerRow FROM (
        SELECT * FROM (SELECT m.rowid AS answerRow, m.seq FROM messages m INDEXED BY messages_final_answers
          WHERE m.turn_id = t.id AND ${finalAnswer} ORDER BY m.seq DESC LIMIT 1)
        UNION ALL
        SELECT * FROM (SELECT m.rowid AS answerRow, m.seq FROM turns r
            JOIN messages m INDEXED BY messages_final_answers ON m.turn_id = r.id AND ${finalAnswer}
          WHERE r.source_turn_id = t.id ORDER BY m.seq DESC LIMIT 1))
      ORDER BY seq DESC LIMIT 1) AS answerRow
  FROM turns t JOIN ${prompts} ON p.thread_id = t.thread_id AND p.seq = t.prompt_seq
  WHERE t.thread_id = @thread AND t.prompt_seq < @before AND ${onPath("p")}
  ORDER BY t.prompt_seq DESC LIMIT ${limit})`;
};

/**
 * One statement: sizes first (octet_length reads the record header, not the text), summed newest
 * first; texts only for the run of turns whose running sum fits the budget (sizes are never
 * negative, so that run is exactly `storeLogic.turnsWithinBudget`'s).
 */
const historyOf = (
  path: "shown" | "ancestors",
  limit: number,
) => `${historyTurns(path, limit)}, sized AS (
    SELECT h.turnRow, h.seq, h.answerRow, sum(h.inputBytes +
        coalesce((SELECT octet_length(text) FROM messages WHERE rowid = h.answerRow), 0))
      OVER (ORDER BY h.seq DESC ROWS UNBOUNDED PRECEDING) AS used
    FROM h)
  SELECT t.provider_input AS input, (SELECT text FROM messages WHERE rowid = sized.answerRow) AS answer
  FROM sized JOIN turns t ON t.rowid = sized.turnRow WHERE sized.used <= @maxChars
  ORDER BY sized.seq`;

export type SqliteTurnQueries = Pick<
  SyncQueries,
  | "hasTurns"
  | "insertTurnWithPrompt"
  | "getTurn"
  | "getTurnPromptSeq"
  | "updateTurn"
  | "activeTurn"
  | "startedUnfinishedTurns"
  | "turnsByIds"
  | "getProviderInput"
  | "historyBefore"
>;

export function sqliteTurnQueries(
  db: SqliteDatabase,
  nextSeq: (threadId: string, now: string) => number,
  messages: Pick<SqliteMessageQueries, "insertMessageRow" | "getMessage">,
): SqliteTurnQueries {
  const s = (sql: string) => db.prepare(sql);
  const stmt = {
    // RETURNING: the stored row in the same statement, not a second read (issue 33).
    insertTurn: s(
      `INSERT INTO turns (id, thread_id, prompt_seq, status, provider_input, created_at)
       VALUES (?, ?, ?, 'running', ?, ?) RETURNING ${TURN_COLUMNS}`,
    ),
    getTurn: s(`SELECT ${TURN_COLUMNS} FROM turns WHERE id = ?`),
    // A regeneration's prompt is its source turn's.
    promptSeq: s(
      `SELECT coalesce((SELECT s.prompt_seq FROM turns s WHERE s.id = t.source_turn_id), t.prompt_seq)
         AS seq FROM turns t WHERE t.id = ?`,
    ),
    turnsByIds: s(`SELECT ${TURN_COLUMNS} FROM turns WHERE id IN (SELECT value FROM json_each(?))`),
    hasTurns: s("SELECT 1 AS found FROM turns WHERE thread_id = ? LIMIT 1"),
    updateTurn: s(
      `UPDATE turns SET status = ?, error_code = ?, error_message = ?, completed_at = ? WHERE id = ?
       RETURNING ${TURN_COLUMNS}`,
    ),
    // Served by the partial index turns_active_by_thread: cost independent of the thread's size.
    activeTurn: s(
      `SELECT ${TURN_COLUMNS} FROM turns INDEXED BY turns_active_by_thread
       WHERE thread_id = ? AND status IN ('running', 'waiting_for_input')
       ORDER BY prompt_seq LIMIT 1`,
    ),
    startedUnfinishedTurns: s(
      `SELECT ${TURN_COLUMNS} FROM turns
       WHERE status IN ('running', 'waiting_for_input')
         AND id IN (SELECT turn_id FROM turn_claims)
       ORDER BY created_at, prompt_seq`,
    ),
    providerInput: s("SELECT provider_input FROM turns WHERE id = ? AND thread_id = ?"),
    promptHidden: s(
      "SELECT 1 AS hidden FROM messages WHERE thread_id = ? AND seq = ? AND on_path = 0",
    ),
  };

  /**
   * The history statement for a budget of `maxTurns`, prepared once per value: the limit is
   * written into the SQL because SQLite runs it about three times slower when the LIMIT of the
   * inner ordered scan is a bound parameter (issue 33).
   */
  const historyStatements = new Map<string, Database.Statement>();
  const historyStatement = (path: "shown" | "ancestors", maxTurns: number): Database.Statement => {
    if (!Number.isSafeInteger(maxTurns)) throw new RangeError(`maxTurns: ${maxTurns}`);
    const key = `${path} ${maxTurns}`;
    let statement = historyStatements.get(key);
    if (!statement) {
      // A server uses one budget; a caller trying many keeps a few statements, not all.
      if (historyStatements.size >= 16) historyStatements.clear();
      statement = s(historyOf(path, maxTurns));
      historyStatements.set(key, statement);
    }
    return statement;
  };

  const getTurn = (id: string): Turn | null => {
    const row = stmt.getTurn.get(id) as TurnRow | undefined;
    return row ? toTurn(row) : null;
  };

  return {
    /** False until the thread's first prompt. */
    hasTurns(threadId: string): boolean {
      return stmt.hasTurns.get(threadId) !== undefined;
    },

    /** Inserts a running turn and its prompt message (call inside a transaction). */
    insertTurnWithPrompt(input: {
      threadId: string;
      turnId: string;
      messageId: string;
      text: string;
      providerInput: string;
      now: string;
      versionOf?: string;
    }): { turn: Turn; message: Message } {
      const seq = nextSeq(input.threadId, input.now);
      const turn = toTurn(
        stmt.insertTurn.get(
          input.turnId,
          input.threadId,
          seq,
          input.providerInput,
          input.now,
        ) as TurnRow,
      );
      const message = messages.insertMessageRow({
        id: input.messageId,
        thread_id: input.threadId,
        turn_id: input.turnId,
        seq,
        role: "user",
        kind: "prompt",
        text: input.text,
        status: "complete",
        now: input.now,
        versionOf: input.versionOf,
      });
      return { turn, message };
    },

    getTurn,

    /** Prompt position of a turn, used to order history. */
    getTurnPromptSeq(id: string): number | null {
      const row = stmt.promptSeq.get(id) as { seq: number } | undefined;
      return row ? row.seq : null;
    },

    updateTurn(input: {
      id: string;
      status: TurnStatus;
      error?: { code: string; message: string } | null;
      completedAt?: string | null;
    }): Turn {
      const row = stmt.updateTurn.get(
        input.status,
        input.error?.code ?? null,
        input.error?.message ?? null,
        input.completedAt ?? null,
        input.id,
      ) as TurnRow | undefined;
      // As the read it replaces: a turn gone with its thread gives null.
      return (row ? toTurn(row) : null) as Turn;
    },

    /** The oldest turn of the thread that is still running or waiting for input. */
    activeTurn(threadId: string): Turn | null {
      const row = stmt.activeTurn.get(threadId) as TurnRow | undefined;
      return row ? toTurn(row) : null;
    },

    /**
     * Turns a process started (claimed) and left running or waiting (crash or shutdown). Turns
     * that never started are not among them: they are still queued.
     */
    startedUnfinishedTurns(): Turn[] {
      return (stmt.startedUnfinishedTurns.all() as TurnRow[]).map(toTurn);
    },

    /** The turns with these ids, in the order given (one statement, however many). */
    turnsByIds(ids: readonly string[]): Turn[] {
      if (ids.length === 0) return [];
      const rows = stmt.turnsByIds.all(JSON.stringify(ids)) as TurnRow[];
      const byId = new Map(rows.map((row) => [row.id, toTurn(row)]));
      return ids.flatMap((id) => byId.get(id) ?? []);
    },

    /** Exact provider input of a turn of this thread, or null. */
    getProviderInput(threadId: string, turnId: string): string | null {
      const row = stmt.providerInput.get(turnId, threadId) as
        | { provider_input: string }
        | undefined;
      return row ? row.provider_input : null;
    },

    /**
     * History for the turn whose prompt sits at `beforeSeq`, oldest first: the newest earlier
     * turns that fit `budget` whole, each as its provider input (already expanded) and its final
     * complete answer, if any. The first turn that does not fit ends the history, so it is always
     * an unbroken run leading up to the new turn.
     */
    historyBefore(threadId: string, beforeSeq: number, budget: HistoryBudget): HistoryTurn[] {
      if (budget.maxTurns <= 0) return [];
      const path = stmt.promptHidden.get(threadId, beforeSeq) ? "ancestors" : "shown";
      return historyStatement(path, budget.maxTurns).all({
        thread: threadId,
        before: beforeSeq,
        maxChars: budget.maxChars,
      }) as HistoryTurn[];
    },
  };
}
