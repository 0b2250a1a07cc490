/**
 * Search all threads on PostgreSQL (issue 31), on the find-in-thread index (`pgSearch.ts`), as
 * on SQLite (`../sqliteCrossThreadSearch.ts`): a query of three or more characters walks the
 * rows in list order a window at a time with an exact filter on the stored fold, and asks the
 * `pg_trgm` index only when a batch's windows hold too few matches; a shorter one reads the next
 * messages in order, newest thread first (the caller caps how many). Order and cursor as on
 * SQLite: thread `updated_at` descending, thread id, then the message's `seq`.
 *
 * Which messages take part is said once, in {@link SEARCHABLE_MESSAGES}: a rule such as "only
 * the versions on the thread's path" is one predicate added there.
 */
import type { ChatQueries } from "../chatStore.ts";
import {
  type CrossThreadCandidateQuery,
  type CrossThreadCandidates,
  type CrossThreadCursor,
  foldedSearchText,
  INDEX_FIRST_BELOW,
  likeContains,
  NEWEST_THREAD_BOUND,
  ORDERED_WINDOW,
  positionOf,
  rowsResult,
  usesTrigrams,
  type WindowRow,
  walkStep,
} from "../searchText.ts";
import type { PgContext } from "./pgRun.ts";

/**
 * Which messages cross-thread search reads, as a predicate over `s` (`message_search`) and `t`
 * (its thread, joined on `t.id = s.thread_id`): those of listed, undeleted threads on their
 * thread's path. It is {@link SEARCHABLE_THREAD} and {@link SEARCHABLE_ROW}: the walk and the
 * trigram path check the second only for the rows that contain the query (a row left out is
 * read, not a candidate).
 */
export const SEARCHABLE_THREAD = "t.deleted_at IS NULL AND t.message_count > 0";
export const SEARCHABLE_ROW =
  "EXISTS (SELECT 1 FROM messages m WHERE m.id = s.message_id AND m.on_path = 1)";
export const SEARCHABLE_MESSAGES = `${SEARCHABLE_THREAD} AND ${SEARCHABLE_ROW}`;

const COLUMNS = `s.seq AS key, s.message_id AS "messageId", s.role, s.text, t.id AS "threadId",
  t.updated_at AS "threadUpdatedAt"`;
// The first bound is implied by the rest; said on its own, it is a range the index seeks to
// (without it a page deep in the list read the index from the top).
const AFTER = `t.updated_at <= $1 AND (t.updated_at < $1 OR (t.updated_at = $1 AND (t.id > $2 OR (t.id = $2 AND s.seq > $3))))`;
const ORDER = "ORDER BY t.updated_at DESC, t.id, s.seq";

/** A row as PostgreSQL sends it (`seq` is a BIGINT, sent as a string). */
type Row = Omit<WindowRow, "key"> & { key: string };

function windowRows(rows: Row[]): WindowRow[] {
  return rows.map(({ key, messageId, role, threadId, threadUpdatedAt, text }) => ({
    key: Number(key),
    messageId,
    role,
    threadId,
    threadUpdatedAt,
    text,
  }));
}

export function pgCrossThreadSearch(ctx: PgContext): Pick<ChatQueries, "searchAllCandidates"> {
  const boundsOf = (after: CrossThreadCursor | null) => [
    after?.threadUpdatedAt ?? NEWEST_THREAD_BOUND,
    after?.threadId ?? "",
    after?.key ?? 0,
  ];
  return {
    async searchAllCandidates(input: CrossThreadCandidateQuery): Promise<CrossThreadCandidates> {
      if (!usesTrigrams(input.query)) {
        const rows = await ctx.rows<Row>(
          "crossThreadNextMessages",
          `SELECT ${COLUMNS} FROM threads t JOIN message_search s ON s.thread_id = t.id
           WHERE ${SEARCHABLE_MESSAGES} AND ${AFTER} ${ORDER} LIMIT $4`,
          [...boundsOf(input.after), input.limit],
        );
        return rowsResult(windowRows(rows), input.limit);
      }
      const pattern = [
        likeContains(foldedSearchText(input.query)),
        input.caseSensitive ? input.query : null,
      ];
      // A common query is found by walking the rows in list order, a window at a time, with
      // an exact filter on the fold; the trigram index would find every match in every thread
      // and sort them all. A window sends back only its matching rows (with their text) and its
      // last row (where the next one starts), as on SQLite. Statements are unnamed: each is
      // planned with its own pattern.
      const plan = input.plan ?? "auto";
      const rows: WindowRow[] = [];
      let windows = 0;
      while (plan !== "index") {
        const read = await ctx.rows<Row & { n: string }>(
          "",
          `SELECT key, "messageId", role, "threadId", "threadUpdatedAt", text, n FROM (
             SELECT w.*, row_number() OVER (ORDER BY "threadUpdatedAt" DESC, "threadId", key) AS n
             FROM (
               SELECT s.seq AS key, s.message_id AS "messageId", s.role, t.id AS "threadId",
                 t.updated_at AS "threadUpdatedAt",
                 CASE WHEN s.folded LIKE $4 AND ($5::text IS NULL OR strpos(s.text, $5) > 0)
                   AND ${SEARCHABLE_ROW} THEN s.text END AS text
               FROM threads t JOIN message_search s ON s.thread_id = t.id
               WHERE ${SEARCHABLE_THREAD} AND ${AFTER} ${ORDER} LIMIT $6
             ) w
           ) x
           WHERE text IS NOT NULL OR n = $6
           ORDER BY n`,
          [
            ...boundsOf(rows.length === 0 ? input.after : positionOf(rows.at(-1)!)),
            ...pattern,
            ORDERED_WINDOW,
          ],
        );
        rows.push(...windowRows(read));
        windows++;
        const full = Number(read.at(-1)?.n) === ORDERED_WINDOW;
        const step = walkStep(rows, windows, full, input.limit, plan === "walk");
        if (step === "index") break;
        if (step !== "next") return step;
        // Too few matches in the first window: a rare query? The GIN index cannot stop early
        // for a common one (it builds the whole bitmap), so it is asked only now, when the
        // common queries have left (a window full of matches), and with a cap: fewer matching
        // rows than the cap are all of them, and the answer stands; as many is a query too
        // common for the index, and the walk goes on.
        if (windows === 1 && plan === "auto") {
          const capped = await trigram(INDEX_FIRST_BELOW);
          if (capped !== null) return capped;
        }
      }
      return (await trigram(null))!;

      /**
       * The trigram index, as on SQLite: the matching rows (materialized first, so the index
       * finds them wherever they are), then only the threads that can hold the batch (each
       * holds a match, so `limit + 1` of them from the cursor's thread on do), in list order;
       * the sort and the path check are for those alone. A row off the path comes back without
       * text: not a candidate, but read. With a `cap`, null when the index holds that many
       * matching rows or more (the answer would not be whole).
       */
      async function trigram(cap: number | null): Promise<CrossThreadCandidates | null> {
        const found = await ctx.rows<Partial<Row> & { hits: string }>(
          "",
          `WITH hit AS MATERIALIZED (
             SELECT thread_id, seq, message_id, role, text FROM message_search
             WHERE folded LIKE $4 AND ($5::text IS NULL OR strpos(text, $5) > 0)
             LIMIT $7
           ), th AS MATERIALIZED (
             SELECT t.id, t.updated_at FROM threads t
             WHERE t.id IN (SELECT thread_id FROM hit) AND ${SEARCHABLE_THREAD}
               AND t.updated_at <= $1 AND (t.updated_at < $1 OR t.id >= $2)
             ORDER BY t.updated_at DESC, t.id LIMIT $6 + 1
           ), found AS (
             SELECT s.seq AS key, s.message_id AS "messageId", s.role, t.id AS "threadId",
               t.updated_at AS "threadUpdatedAt",
               CASE WHEN ${SEARCHABLE_ROW} THEN s.text END AS text
             FROM th t JOIN hit s ON s.thread_id = t.id
             WHERE ${AFTER} ${ORDER} LIMIT $6
           )
           SELECT c.hits, f.* FROM (SELECT count(*) AS hits FROM hit) c
             LEFT JOIN found f ON true
           ORDER BY f."threadUpdatedAt" DESC, f."threadId", f.key`,
          [...boundsOf(input.after), ...pattern, input.limit, cap],
        );
        if (cap !== null && Number(found[0]?.hits) >= cap) return null;
        const rows = found.filter((row): row is Row & { hits: string } => row.key != null);
        return rowsResult(windowRows(rows), input.limit);
      }
    },
  };
}
