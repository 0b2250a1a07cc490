/** The PostgreSQL queries on turns and a thread's detail (part of `pgQueries.ts`; history: `pgHistory.ts`). */
import type { Message, Turn, TurnStatus } from "@app/protocol";
import type { ChatQueries, ThreadDetailRecord } from "../chatStore.ts";
import {
  type MessageRow,
  THREAD_COLUMNS,
  type ThreadRow,
  TURN_COLUMNS,
  type TurnRow,
  toMessage,
  toThreadRecord,
  toTurn,
  toUserInput,
  USER_INPUT_COLUMNS,
  type UserInputRow,
} from "../rows.ts";
import { SEARCH_INLINE_MAX_CHARS } from "../searchText.ts";
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
      if (input.versionOf === undefined && input.text.length > SEARCH_INLINE_MAX_CHARS) {
        // Issue 33: the turn, its prompt (after the last message shown; read now, under the
        // thread's row lock `nextSeq` took) and its place in the search queue in one statement,
        // so the thread's lock is held for two round trips instead of five.
        const [stored] = await ctx.rows<{ id: string }>(
          "insertTurnWithPrompt",
          `WITH last AS (
             SELECT id FROM messages WHERE thread_id = $2 AND on_path = 1 ORDER BY seq DESC LIMIT 1
           ), turn AS (
             INSERT INTO turns (id, thread_id, prompt_seq, status, provider_input, created_at)
             VALUES ($1, $2, $3, 'running', $4, $5) RETURNING id
           ), prompt AS (
             INSERT INTO messages (id, thread_id, turn_id, seq, role, kind, text, status,
               created_at, parent_id, on_path, chosen)
             SELECT $6, $2, turn.id, $3, 'user', 'prompt', $7, 'complete', $5,
               (SELECT id FROM last), 1, 1
             FROM turn RETURNING id
           ), queued AS (
             INSERT INTO search_pending (message_id) SELECT id FROM prompt ON CONFLICT DO NOTHING
           )
           SELECT id FROM prompt`,
          [
            input.turnId,
            input.threadId,
            seq,
            input.providerInput,
            input.now,
            input.messageId,
            input.text,
          ],
        );
        if (!stored) throw new Error(`The prompt of turn ${input.turnId} was not stored.`);
        const turn: TurnRow = {
          id: input.turnId,
          thread_id: input.threadId,
          prompt_seq: seq,
          status: "running",
          error_code: null,
          error_message: null,
          created_at: input.now,
          completed_at: null,
        };
        const message: MessageRow = {
          id: input.messageId,
          thread_id: input.threadId,
          turn_id: input.turnId,
          seq,
          role: "user",
          kind: "prompt",
          text: input.text,
          status: "complete",
          created_at: input.now,
        };
        return { turn: toTurn(turn), message: toMessage(message) };
      }
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
  };
}
