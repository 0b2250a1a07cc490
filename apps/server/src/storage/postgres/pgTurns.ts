/** The PostgreSQL queries on turns, a thread's detail and history (part of `pgQueries.ts`). */
import type { Message, Turn, TurnStatus } from "@app/protocol";
import type { ChatQueries, HistoryBudget, HistoryTurn, ThreadDetailRecord } from "../chatStore.ts";
import {
  THREAD_COLUMNS,
  type ThreadRow,
  TURN_COLUMNS,
  type TurnRow,
  toThreadRecord,
  toTurn,
  toUserInput,
  USER_INPUT_COLUMNS,
  type UserInputRow,
} from "../rows.ts";
import { turnsWithinBudget } from "../storeLogic.ts";
import { type PgContext, UNFINISHED } from "./pgRun.ts";

export type PgTurnQueries = Pick<
  ChatQueries,
  | "hasTurns"
  | "insertTurnWithPrompt"
  | "getTurn"
  | "getTurnPromptSeq"
  | "updateTurn"
  | "activeTurn"
  | "threadDetail"
  | "startedUnfinishedTurns"
  | "turnsByIds"
  | "getProviderInput"
  | "historyBefore"
>;

export function pgTurnQueries(
  ctx: PgContext,
  nextSeq: (threadId: string, now: string) => Promise<number>,
  insertMessageRow: (values: unknown[], versionOf?: string) => Promise<Message>,
): PgTurnQueries {
  return {
    async hasTurns(threadId: string): Promise<boolean> {
      const rows = await ctx.rows("hasTurns", "SELECT 1 FROM turns WHERE thread_id = $1 LIMIT 1", [
        threadId,
      ]);
      return rows.length > 0;
    },

    async insertTurnWithPrompt(input: {
      threadId: string;
      turnId: string;
      messageId: string;
      text: string;
      providerInput: string;
      now: string;
      versionOf?: string;
    }): Promise<{ turn: Turn; message: Message }> {
      const seq = await nextSeq(input.threadId, input.now);
      const [turn] = await ctx.rows<TurnRow>(
        "insertTurn",
        `INSERT INTO turns (id, thread_id, prompt_seq, status, provider_input, created_at)
         VALUES ($1, $2, $3, 'running', $4, $5) RETURNING ${TURN_COLUMNS}`,
        [input.turnId, input.threadId, seq, input.providerInput, input.now],
      );
      const message = await insertMessageRow(
        [
          input.messageId,
          input.threadId,
          input.turnId,
          seq,
          "user",
          "prompt",
          input.text,
          "complete",
          input.now,
        ],
        input.versionOf,
      );
      return { turn: toTurn(turn!), message };
    },

    async getTurn(id: string): Promise<Turn | null> {
      const [row] = await ctx.rows<TurnRow>(
        "getTurn",
        `SELECT ${TURN_COLUMNS} FROM turns WHERE id = $1`,
        [id],
      );
      return row ? toTurn(row) : null;
    },

    async getTurnPromptSeq(id: string): Promise<number | null> {
      const [row] = await ctx.rows<{ prompt_seq: number }>(
        "getTurnPromptSeq",
        // A regeneration's prompt is its source turn's.
        `SELECT coalesce((SELECT s.prompt_seq FROM turns s WHERE s.id = t.source_turn_id),
           t.prompt_seq) AS prompt_seq FROM turns t WHERE t.id = $1`,
        [id],
      );
      return row ? Number(row.prompt_seq) : null;
    },

    async updateTurn(input: {
      id: string;
      status: TurnStatus;
      error?: { code: string; message: string } | null;
      completedAt?: string | null;
    }): Promise<Turn> {
      const [row] = await ctx.rows<TurnRow>(
        "updateTurn",
        `UPDATE turns SET status = $1, error_code = $2, error_message = $3, completed_at = $4
         WHERE id = $5 RETURNING ${TURN_COLUMNS}`,
        [
          input.status,
          input.error?.code ?? null,
          input.error?.message ?? null,
          input.completedAt ?? null,
          input.id,
        ],
      );
      return toTurn(row!);
    },

    async activeTurn(threadId: string): Promise<Turn | null> {
      const [row] = await ctx.rows<TurnRow>(
        "activeTurn",
        `SELECT ${TURN_COLUMNS} FROM turns WHERE thread_id = $1 AND ${UNFINISHED}
         ORDER BY prompt_seq LIMIT 1`,
        [threadId],
      );
      return row ? toTurn(row) : null;
    },

    async threadDetail(threadId: string): Promise<ThreadDetailRecord | null> {
      // One statement, so one snapshot: the turn and the question always match.
      const [row] = await ctx.rows<{
        thread: ThreadRow | null;
        turn: TurnRow | null;
        request: UserInputRow | null;
      }>(
        "threadDetail",
        `SELECT
           (SELECT row_to_json(x) FROM (SELECT ${THREAD_COLUMNS} FROM threads WHERE id = $1) x) AS thread,
           (SELECT row_to_json(x) FROM (SELECT ${TURN_COLUMNS} FROM turns
              WHERE thread_id = $1 AND ${UNFINISHED} ORDER BY prompt_seq LIMIT 1) x) AS turn,
           (SELECT row_to_json(x) FROM (SELECT ${USER_INPUT_COLUMNS} FROM user_input_requests
              WHERE thread_id = $1 AND status = 'pending' ORDER BY created_at LIMIT 1) x) AS request`,
        [threadId],
      );
      if (!row?.thread) return null;
      return {
        record: toThreadRecord(row.thread, ctx.environmentId()),
        activeTurn: row.turn ? toTurn(row.turn) : null,
        pendingUserInput: row.request ? toUserInput(row.request).request : null,
      };
    },

    async startedUnfinishedTurns(): Promise<Turn[]> {
      const rows = await ctx.rows<TurnRow>(
        "startedUnfinishedTurns",
        `SELECT ${TURN_COLUMNS} FROM turns WHERE ${UNFINISHED} AND lease_owner IS NOT NULL
         ORDER BY created_at, prompt_seq`,
        [],
      );
      return rows.map(toTurn);
    },

    async turnsByIds(ids: readonly string[]): Promise<Turn[]> {
      if (ids.length === 0) return [];
      const rows = await ctx.rows<TurnRow>(
        "turnsByIds",
        `SELECT ${TURN_COLUMNS} FROM turns WHERE id = ANY($1::text[])`,
        [ids],
      );
      const byId = new Map(rows.map((row) => [row.id, toTurn(row)]));
      return ids.flatMap((id) => byId.get(id) ?? []);
    },

    async getProviderInput(threadId: string, turnId: string): Promise<string | null> {
      const [row] = await ctx.rows<{ provider_input: string }>(
        "getProviderInput",
        "SELECT provider_input FROM turns WHERE id = $1 AND thread_id = $2",
        [turnId, threadId],
      );
      return row ? row.provider_input : null;
    },

    async historyBefore(
      threadId: string,
      beforeSeq: number,
      budget: HistoryBudget,
    ): Promise<HistoryTurn[]> {
      // Sizes first, texts only for the turns that fit the budget (see the SQLite version). A
      // prompt not shown (a queued turn whose prompt a version switch hid) answers in the
      // history of its own path: its ancestors, not the path shown.
      const [hidden] = await ctx.rows(
        "promptHidden",
        "SELECT 1 FROM messages WHERE thread_id = $1 AND seq = $2 AND on_path = 0",
        [threadId, beforeSeq],
      );
      const onPath = (alias: string) =>
        hidden ? `${alias}.id IN (SELECT id FROM anc)` : `${alias}.on_path = 1`;
      const rows = await ctx.rows<{
        turn_id: string;
        input_bytes: number;
        answer_id: string | null;
        answer_bytes: number;
      }>(
        hidden ? "historySizesOfAncestors" : "historySizes",
        `${
          hidden
            ? `WITH RECURSIVE anc(id) AS (
                 SELECT parent_id FROM messages
                 WHERE thread_id = $1 AND seq = $2 AND parent_id IS NOT NULL
                 UNION ALL SELECT m.parent_id FROM messages m JOIN anc ON m.id = anc.id
                 WHERE m.parent_id IS NOT NULL)`
            : ""
        }
         SELECT t.id AS turn_id, octet_length(t.provider_input) AS input_bytes,
           a.id AS answer_id, coalesce(octet_length(a.text), 0) AS answer_bytes
         FROM turns t
         LEFT JOIN LATERAL (
           SELECT m.id, m.text FROM messages m
           WHERE m.turn_id IN (SELECT t.id UNION ALL SELECT r.id FROM turns r WHERE r.source_turn_id = t.id)
             AND m.kind = 'answer' AND m.status = 'complete' AND ${onPath("m")}
           ORDER BY m.seq DESC LIMIT 1
         ) a ON true
         JOIN messages p ON p.thread_id = t.thread_id AND p.seq = t.prompt_seq AND ${onPath("p")}
         WHERE t.thread_id = $1 AND t.prompt_seq < $2
         ORDER BY t.prompt_seq DESC LIMIT $3`,
        [threadId, beforeSeq, budget.maxTurns],
      );
      const chosen = rows.slice(
        0,
        turnsWithinBudget(
          rows.map((row) => row.input_bytes + row.answer_bytes),
          budget,
        ),
      );
      if (chosen.length === 0) return [];
      const texts = await ctx.rows<{ turn_id: string; input: string; answer: string | null }>(
        "historyTexts",
        `SELECT t.id AS turn_id, t.provider_input AS input, m.text AS answer
         FROM unnest($1::text[], $2::text[]) AS c(turn_id, answer_id)
         JOIN turns t ON t.id = c.turn_id
         LEFT JOIN messages m ON m.id = c.answer_id`,
        [chosen.map((row) => row.turn_id), chosen.map((row) => row.answer_id)],
      );
      const byTurn = new Map(texts.map((row) => [row.turn_id, row]));
      return chosen.reverse().map((row) => {
        const text = byTurn.get(row.turn_id)!;
        return { input: text.input, answer: text.answer };
      });
    },
  };
}
