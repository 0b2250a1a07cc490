/**
 * PostgreSQL: finished turns appended in bulk (`appendFinishedTurns`, the seed; part of
 * `pgQueries.ts`): one statement per table through `unnest`, not one round trip per row.
 */
import { bulkMessageCount, bulkRowsOf } from "../bulkTurns.ts";
import type { ChatQueries } from "../chatStore.ts";
import { foldedSearchText } from "../searchText.ts";
import { writeCitations } from "./pgCitations.ts";
import type { PgContext } from "./pgRun.ts";

export function pgBulkTurnQueries(ctx: PgContext): Pick<ChatQueries, "appendFinishedTurns"> {
  return {
    async appendFinishedTurns(threadId, turns) {
      const count = bulkMessageCount(turns);
      if (count === 0) return;
      const [lastShown] = await ctx.rows<{ id: string }>(
        "lastShown",
        "SELECT id FROM messages WHERE thread_id = $1 AND on_path = 1 ORDER BY seq DESC LIMIT 1",
        [threadId],
      );
      const last = turns.at(-1)!;
      const [bumped] = await ctx.rows<{ last_seq: string | number }>(
        "bumpThreadSeqBy",
        `UPDATE threads SET last_seq = last_seq + $1, message_count = message_count + $1,
           updated_at = $2 WHERE id = $3 RETURNING last_seq`,
        [count, last.replies.at(-1)?.now ?? last.prompt.now, threadId],
      );
      if (!bumped) throw new Error(`Thread ${threadId} does not exist.`);
      const rows = bulkRowsOf(turns, Number(bumped.last_seq) - count + 1, lastShown?.id ?? null);
      await ctx.run(
        "bulkTurns",
        `INSERT INTO turns (id, thread_id, prompt_seq, status, provider_input, created_at,
           completed_at)
         SELECT id, $1, seq, 'completed', input, created, completed
         FROM unnest($2::text[], $3::int8[], $4::text[], $5::text[], $6::text[])
           AS u(id, seq, input, created, completed)`,
        [
          threadId,
          rows.turns.map((t) => t.id),
          rows.turns.map((t) => t.promptSeq),
          rows.turns.map((t) => t.providerInput),
          rows.turns.map((t) => t.createdAt),
          rows.turns.map((t) => t.completedAt),
        ],
      );
      const messages = rows.messages;
      await ctx.run(
        "bulkMessages",
        `INSERT INTO messages (id, thread_id, turn_id, seq, role, kind, text, status, created_at,
           parent_id, on_path, chosen)
         SELECT id, $1, turn_id, seq, role, kind, text, 'complete', created, parent, 1, 1
         FROM unnest($2::text[], $3::text[], $4::int8[], $5::text[], $6::text[], $7::text[],
           $8::text[], $9::text[]) AS u(id, turn_id, seq, role, kind, text, created, parent)`,
        [
          threadId,
          messages.map((m) => m.id),
          messages.map((m) => m.turnId),
          messages.map((m) => m.seq),
          messages.map((m) => m.role),
          messages.map((m) => m.kind),
          messages.map((m) => m.text),
          messages.map((m) => m.createdAt),
          messages.map((m) => m.parentId),
        ],
      );
      await ctx.run(
        "bulkSearchRows",
        `INSERT INTO message_search (message_id, thread_id, seq, role, text, folded)
         SELECT id, $1, seq, role, text, folded
         FROM unnest($2::text[], $3::int8[], $4::text[], $5::text[], $6::text[])
           AS u(id, seq, role, text, folded)`,
        [
          threadId,
          messages.map((m) => m.id),
          messages.map((m) => m.seq),
          messages.map((m) => m.role),
          messages.map((m) => m.searchText),
          messages.map((m) => foldedSearchText(m.searchText)),
        ],
      );
      await writeCitations(ctx.run, rows.citations, ctx.environmentId());
    },
  };
}
