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
export const SEARCHABLE_MESSAGES = `t.deleted_at IS NULL AND t.message_count > 0
  AND EXISTS (SELECT 1 FROM messages m WHERE m.id = s.message_id AND m.on_path = 1)`;

const COLUMNS = `s.seq AS key, s.message_id AS "messageId", s.role, s.text, t.id AS "threadId",
  t.updated_at AS "threadUpdatedAt"`;
// The first bound is implied by the rest; said on its own, it is a range the index seeks to
// (without it a page deep in the list read the index from the top).
const AFTER = `t.updated_at <= $1 AND (t.updated_at < $1 OR (t.updated_at = $1 AND (t.id > $2 OR (t.id = $2 AND s.seq > $3))))`;
const ORDER = "ORDER BY t.updated_at DESC, t.id, s.seq";

type Row = {
  key: string;
  messageId: string;
  role: "user" | "assistant";
  text: string | null;
  threadId: string;
  threadUpdatedAt: string;
};

/** Rows read in list order per step of the walk, as on SQLite (`ORDERED_WINDOW` there). */
const ORDERED_WINDOW = 1000;
/** Matches a window must hold for the walk to go on, as on SQLite (`WALK_MIN_HITS` there). */
const WALK_MIN_HITS = 10;

type Position = NonNullable<CrossThreadCandidates["last"]>;
type Candidate = CrossThreadCandidates["candidates"][number];

function positionOf(row: Row): Position {
  return { threadUpdatedAt: row.threadUpdatedAt, threadId: row.threadId, key: Number(row.key) };
}

function candidatesOf(rows: Row[]): Candidate[] {
  return rows.flatMap(({ key, messageId, role, text, threadId, threadUpdatedAt }) =>
    text === null ? [] : [{ key: Number(key), messageId, role, text, threadId, threadUpdatedAt }],
  );
}

function result(rows: Row[], limit: number): CrossThreadCandidates {
  const last = rows.at(-1);
  return {
    candidates: candidatesOf(rows),
    last: last ? positionOf(last) : null,
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
      // A common query is found by walking the rows in list order, a window at a time, with
      // an exact filter on the fold (the text comes back only for a row that contains the
      // query); the trigram index would find every match in every thread and sort them all.
      // Statements are unnamed: each is planned with its own pattern.
      if (usesTrigrams(input.query)) {
        const window = await ctx.rows<Row>(
          "",
          `SELECT key, "messageId", role, "threadId", "threadUpdatedAt",
             CASE WHEN w.folded LIKE $4 AND ($5::text IS NULL OR strpos(w.text, $5) > 0)
               THEN w.text END AS text
           FROM (
             SELECT ${COLUMNS}, s.folded FROM threads t JOIN message_search s ON s.thread_id = t.id
             WHERE ${SEARCHABLE_MESSAGES} AND ${AFTER} ${ORDER} LIMIT $6
           ) AS w`,
          [...after.slice(0, 3), ...pattern, ORDERED_WINDOW],
        );
        const hits = candidatesOf(window);
        if (hits.length >= input.limit) {
          // A full batch: the next one starts right after its last candidate.
          const candidates = hits.slice(0, input.limit);
          return { candidates, last: candidates.at(-1)!, exhausted: false };
        }
        const end = window.at(-1);
        // The end of the list, or a common query: the walk goes on after this window.
        if (window.length < ORDERED_WINDOW || hits.length >= WALK_MIN_HITS) {
          return {
            candidates: hits,
            last: end ? positionOf(end) : null,
            exhausted: window.length < ORDERED_WINDOW,
          };
        }
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
