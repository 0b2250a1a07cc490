/**
 * The PostgreSQL query of a provider's history (part of `pgQueries.ts`): the sizes of the turns
 * before a prompt in one statement, then only the texts this store has not kept
 * (`historyTexts.ts`).
 */
import type { ChatQueries, HistoryBudget, HistoryTurn } from "../chatStore.ts";
import { turnsWithinBudget } from "../storeLogic.ts";
import type { HistoryTextCache } from "./historyTexts.ts";
import type { PgContext } from "./pgRun.ts";

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

export function pgHistoryQueries(
  ctx: PgContext,
  texts: HistoryTextCache,
): Pick<ChatQueries, "historyBefore"> {
  return {
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
