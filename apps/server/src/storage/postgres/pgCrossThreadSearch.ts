/**
 * Search all threads on PostgreSQL (issue 31), on the find-in-thread index (`pgSearch.ts`): the
 * `pg_trgm` index finds candidates of a query of three or more characters in every thread; a
 * shorter one reads the next messages in order, newest thread first (the caller caps how many).
 * Order and cursor as on SQLite (`../sqliteCrossThreadSearch.ts`): thread `updated_at`
 * descending, thread id, then the message's `seq`.
 *
 * Which messages take part is said once, in {@link SEARCHABLE_MESSAGES}: a rule such as "only
 * the versions on the thread's path" is one predicate added there.
 */
import type { ChatQueries } from "../chatStore.ts";
import {
  type CrossThreadCandidateQuery,
  type CrossThreadCandidates,
  foldedSearchText,
  likeContains,
  NEWEST_THREAD_BOUND,
  usesTrigrams,
} from "../searchText.ts";
import type { PgContext } from "./pgRun.ts";

/**
 * Which messages cross-thread search reads, as a predicate over `s` (`message_search`) and `t`
 * (its thread, joined on `t.id = s.thread_id`): those of listed, undeleted threads.
 */
export const SEARCHABLE_MESSAGES = "t.deleted_at IS NULL AND t.message_count > 0";

const COLUMNS = `s.seq AS key, s.message_id AS "messageId", s.role, s.text, t.id AS "threadId",
  t.updated_at AS "threadUpdatedAt"`;
const AFTER = `(t.updated_at < $1 OR (t.updated_at = $1 AND (t.id > $2 OR (t.id = $2 AND s.seq > $3))))`;
const ORDER = "ORDER BY t.updated_at DESC, t.id, s.seq";

type Row = {
  key: string;
  messageId: string;
  role: "user" | "assistant";
  text: string;
  threadId: string;
  threadUpdatedAt: string;
};

/** Rows read in list order before a rarer query goes to the trigram index instead. */
const ORDERED_WINDOW = 1000;

function result(rows: Row[], limit: number): CrossThreadCandidates {
  const candidates = rows.map(({ key, messageId, role, text, threadId, threadUpdatedAt }) => ({
    key: Number(key),
    messageId,
    role,
    text,
    threadId,
    threadUpdatedAt,
  }));
  const last = candidates.at(-1);
  return {
    candidates,
    last: last
      ? { threadUpdatedAt: last.threadUpdatedAt, threadId: last.threadId, key: last.key }
      : null,
    exhausted: rows.length < limit,
  };
}

export function pgCrossThreadSearch(ctx: PgContext): Pick<ChatQueries, "searchAllCandidates"> {
  return {
    async searchAllCandidates(input: CrossThreadCandidateQuery): Promise<CrossThreadCandidates> {
      const after = [
        input.after?.threadUpdatedAt ?? NEWEST_THREAD_BOUND,
        input.after?.threadId ?? "",
        input.after?.key ?? 0,
        input.limit,
      ];
      let rows: Row[];
      const pattern = [
        likeContains(foldedSearchText(input.query)),
        input.caseSensitive ? input.query : null,
      ];
      // A common query fills the batch from the next rows in list order (no sort); the trigram
      // index would find every match in every thread and sort them all. Statements are
      // unnamed: each is planned with its own pattern.
      if (usesTrigrams(input.query)) {
        const ordered = await ctx.rows<Row>(
          "",
          `SELECT * FROM (
             SELECT ${COLUMNS}, s.folded FROM threads t JOIN message_search s ON s.thread_id = t.id
             WHERE ${SEARCHABLE_MESSAGES} AND ${AFTER} ${ORDER} LIMIT $7
           ) AS w WHERE w.folded LIKE $5 AND ($6::text IS NULL OR strpos(w.text, $6) > 0)
           LIMIT $4`,
          [...after, ...pattern, ORDERED_WINDOW],
        );
        // Not exhausted (limit 0): more rows follow the window.
        if (ordered.length >= input.limit) return result(ordered, 0);
      }
      if (usesTrigrams(input.query)) {
        // Materialized first, so the trigram index finds the matches wherever they are.
        rows = await ctx.rows<Row>(
          "",
          `WITH hits AS MATERIALIZED (
             SELECT thread_id, seq, message_id, role, text FROM message_search
             WHERE folded LIKE $5 AND ($6::text IS NULL OR strpos(text, $6) > 0)
           )
           SELECT ${COLUMNS} FROM hits s JOIN threads t ON t.id = s.thread_id
           WHERE ${SEARCHABLE_MESSAGES} AND ${AFTER} ${ORDER} LIMIT $4`,
          [...after, ...pattern],
        );
      } else {
        rows = await ctx.rows<Row>(
          "crossThreadNextMessages",
          `SELECT ${COLUMNS} FROM threads t JOIN message_search s ON s.thread_id = t.id
           WHERE ${SEARCHABLE_MESSAGES} AND ${AFTER} ${ORDER} LIMIT $4`,
          after,
        );
      }
      return result(rows, input.limit);
    },
  };
}
