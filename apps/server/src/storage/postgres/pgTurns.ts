/** The PostgreSQL queries on turns, a thread's detail and history (part of `pgQueries.ts`). */
import type { Message, Turn, TurnStatus } from "@app/protocol";
import type { ChatQueries, HistoryBudget, HistoryTurn, ThreadDetailRecord } from "../chatStore.ts";
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
import { turnsWithinBudget } from "../storeLogic.ts";
import type { HistoryTextCache } from "./historyTexts.ts";
import { type PgContext, UNFINISHED } from "./pgRun.ts";

/**
 * The sizes of the history before seq `$2` of thread `$1`, newest first, at most `$3` turns:
 * each turn whose prompt is on the path (`ancestors`: on the ancestors of `$2`) with its final
 * answer on that path (its own, or a regeneration's: the latest). Every lookup is a scalar or
 * lateral subquery on an index equality (`messages_by_thread_seq`, `messages_final_answers`,
 * `turns_by_source`), so the plan stays a walk of the thread's newest turns whatever the
 * statistics say: planned as a join on a fresh database, the query read every answer of the
 * database for each turn (issue 33).
 */
export function historySizesSql(ancestors: boolean): string {
  const onPath = (alias: string) =>
    ancestors ? `${alias}.id IN (SELECT id FROM anc)` : `${alias}.on_path = 1`;
  const answerOf = (turn: string) =>
    `SELECT m.id, m.seq, m.text FROM messages m
     WHERE m.turn_id = ${turn} AND m.kind = 'answer' AND m.status = 'complete' AND ${onPath("m")}
     ORDER BY m.seq DESC LIMIT 1`;
  return `${
    ancestors
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
    SELECT x.id, x.text FROM (
      (${answerOf("t.id")})
      UNION ALL
      (SELECT m.id, m.seq, m.text FROM turns r CROSS JOIN LATERAL (${answerOf("r.id")}) m
       WHERE r.source_turn_id = t.id ORDER BY m.seq DESC LIMIT 1)
    ) x ORDER BY x.seq DESC LIMIT 1
  ) a ON true
  WHERE t.thread_id = $1 AND t.prompt_seq < $2
    AND (SELECT ${onPath("p")} FROM messages p WHERE p.thread_id = t.thread_id AND p.seq = t.prompt_seq)
  ORDER BY t.prompt_seq DESC LIMIT $3`;
}

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
  texts: HistoryTextCache,
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

    async historyBefore(
      threadId: string,
      beforeSeq: number,
      budget: HistoryBudget,
    ): Promise<HistoryTurn[]> {
      // Sizes first, texts only for the turns that fit the budget (see the SQLite version), and
      // of those only the texts this store has not kept (`historyTexts.ts`). A prompt not shown
      // (a queued turn whose prompt a version switch hid) answers in the history of its own
      // path: its ancestors, not the path shown.
      const [hidden] = await ctx.rows(
        "promptHidden",
        "SELECT 1 FROM messages WHERE thread_id = $1 AND seq = $2 AND on_path = 0",
        [threadId, beforeSeq],
      );
      const rows = await ctx.rows<{
        turn_id: string;
        input_bytes: number;
        answer_id: string | null;
        answer_bytes: number;
      }>(hidden ? "historySizesOfAncestors" : "historySizes", historySizesSql(!!hidden), [
        threadId,
        beforeSeq,
        budget.maxTurns,
      ]);
      const chosen = rows.slice(
        0,
        turnsWithinBudget(
          rows.map((row) => row.input_bytes + row.answer_bytes),
          budget,
        ),
      );
      if (chosen.length === 0) return [];
      // Taken now: another turn's read may push them out of the cache meanwhile.
      const kept = chosen.map((row) => ({
        input: texts.input(row.turn_id),
        answer: row.answer_id === null ? null : texts.answer(row.answer_id),
      }));
      const missing = chosen.filter(
        (_, i) => kept[i]!.input === undefined || kept[i]!.answer === undefined,
      );
      const read = new Map<string, { input: string; answer: string | null }>();
      if (missing.length > 0) {
        const found = await ctx.rows<{ turn_id: string; input: string; answer: string | null }>(
          "historyTexts",
          `SELECT t.id AS turn_id, t.provider_input AS input, m.text AS answer
           FROM unnest($1::text[], $2::text[]) AS c(turn_id, answer_id)
           JOIN turns t ON t.id = c.turn_id
           LEFT JOIN messages m ON m.id = c.answer_id`,
          [missing.map((row) => row.turn_id), missing.map((row) => row.answer_id)],
        );
        for (const row of found) {
          read.set(row.turn_id, row);
          texts.setInput(row.turn_id, row.input);
        }
        for (const row of missing) {
          const answer = read.get(row.turn_id)?.answer;
          if (row.answer_id !== null && typeof answer === "string") {
            texts.setAnswer(row.answer_id, answer);
          }
        }
      }
      const history = chosen.map((row, i) => {
        const fresh = read.get(row.turn_id);
        const input = fresh?.input ?? kept[i]!.input!;
        const answer = fresh ? fresh.answer : (kept[i]!.answer ?? null);
        return { input, answer };
      });
      return history.reverse();
    },
  };
}
