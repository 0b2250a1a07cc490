/**
 * Search all threads on SQLite (issue 31), on the find-in-thread index (`sqliteSearch.ts`). A
 * query of three or more characters walks the rows in list order a window at a time with an
 * exact filter, and asks the trigram FTS table only when a batch's windows hold too few matches
 * (the steps: `walkStep` in `searchText.ts`, the rules: "Search all threads" in the README); a
 * shorter query reads the next messages in order, newest thread first (the caller caps how
 * many). Order: thread `updated_at` descending, thread id, then the message's row id (thread
 * order), the same keyset the cursor carries.
 *
 * Which messages take part is said once, in {@link SEARCHABLE_MESSAGES}: every cross-thread
 * query reads through it, so a rule such as "only the versions on the thread's path" is one
 * predicate added there: issue 30 added it (only messages on their thread's path shown).
 */
import type Database from "better-sqlite3";
import type { SyncQueries } from "./chatStore.ts";
import {
  type CrossThreadCandidateQuery,
  type CrossThreadCandidates,
  type CrossThreadCursor,
  foldedSearchText,
  ftsQuery,
  INDEX_FIRST_BELOW,
  likeContains,
  likeFoldSuperset,
  NEWEST_THREAD_BOUND,
  ORDERED_WINDOW,
  positionOf,
  rowsResult,
  shortQueryPrefilter,
  usesTrigrams,
  type WindowRow,
  walkStep,
} from "./searchText.ts";
import { FTS_PIECE_BITS } from "./sqliteSearchFts.ts";

/**
 * Which messages cross-thread search reads, as a predicate over `s` (`message_search`) and `t`
 * (its thread, joined on `t.id = s.thread_id`): those of listed, undeleted threads on their
 * thread's path. A message still streaming (NULL text) is read but never a candidate. It is
 * {@link SEARCHABLE_THREAD} and {@link SEARCHABLE_ROW}: the walk and the trigram path check the
 * second only for the rows that contain the query (a row left out is read, not a candidate).
 */
export const SEARCHABLE_THREAD = "t.deleted_at IS NULL AND t.message_count > 0";
export const SEARCHABLE_ROW =
  "EXISTS (SELECT 1 FROM messages m WHERE m.id = s.message_id AND m.on_path = 1)";
export const SEARCHABLE_MESSAGES = `${SEARCHABLE_THREAD} AND ${SEARCHABLE_ROW}`;

const COLUMNS = `s.id AS key, s.message_id AS messageId, s.role, s.text, t.id AS threadId,
  t.updated_at AS threadUpdatedAt`;
// The first bound is implied by the second; said on its own, it is a range the index seeks to.
const AFTER = `t.updated_at <= @updatedAt AND (t.updated_at < @updatedAt OR (t.updated_at = @updatedAt
  AND (t.id > @threadId OR (t.id = @threadId AND s.id > @key))))`;
const ORDER = "ORDER BY t.updated_at DESC, t.id, s.id";

/** The SQL function the window filters with when no built-in one is exact (see below). */
const FOLD_CONTAINS = "chat_fold_contains";

export function sqliteCrossThreadSearch(
  db: Database.Database,
): Pick<SyncQueries, "searchAllCandidates"> {
  // Whether the case fold of a text contains an already folded query: exact where `instr` and
  // an ASCII `LIKE` are not (U+017F LONG S folds into "s", U+212A KELVIN SIGN into "k", ...).
  db.function(FOLD_CONTAINS, { deterministic: true }, (text: unknown, folded: unknown) =>
    typeof text === "string" &&
    typeof folded === "string" &&
    foldedSearchText(text).includes(folded)
      ? 1
      : 0,
  );
  // The trigram index, for a rare query or one the walk found too few matches of: the matching rows and
  // their threads first (no text), then only the threads that can hold the batch (each holds a
  // match, so `@limit + 1` of them from the cursor's thread on do), in list order; the sort
  // and the texts (with the path check) are for those alone. A row off the path comes back
  // without text: not a candidate, but read.
  const trigram = db.prepare(
    `WITH hit AS MATERIALIZED (
       SELECT DISTINCT s.id AS id, s.thread_id AS threadId FROM message_search_fts f
         CROSS JOIN message_search s ON s.id = (f.rowid >> ${FTS_PIECE_BITS})
       WHERE message_search_fts MATCH @phrase AND typeof(s.text) = 'text'
     ), th AS MATERIALIZED (
       SELECT t.id AS id, t.updated_at AS updated_at FROM threads t
       WHERE t.id IN (SELECT threadId FROM hit) AND ${SEARCHABLE_THREAD}
         AND t.updated_at <= @updatedAt AND (t.updated_at < @updatedAt OR t.id >= @threadId)
       ORDER BY t.updated_at DESC, t.id LIMIT @limit + 1
     ), top AS MATERIALIZED (
       SELECT h.id AS key, t.id AS threadId, t.updated_at AS threadUpdatedAt
       FROM th AS t JOIN hit AS h ON h.threadId = t.id
       WHERE ${AFTER.replaceAll("s.id", "h.id")}
       ORDER BY t.updated_at DESC, t.id, h.id LIMIT @limit
     )
     SELECT top.key, s.message_id AS messageId, s.role, top.threadId, top.threadUpdatedAt,
       CASE WHEN ${SEARCHABLE_ROW} THEN s.text END AS text
     FROM top JOIN message_search s ON s.id = top.key
     ORDER BY top.threadUpdatedAt DESC, top.threadId, top.key`,
  );
  // Counts matching pieces (a long text has several): a bound for the plan, not an answer.
  const indexed = db.prepare(
    `SELECT count(*) AS count FROM (
       SELECT rowid FROM message_search_fts WHERE message_search_fts MATCH @phrase LIMIT @bound
     )`,
  );
  // Threads in list order (their index), each thread's rows in order: no sort.
  const NEXT = `SELECT ${COLUMNS} FROM threads t INDEXED BY threads_listed
       JOIN message_search s ON s.thread_id = t.id
     WHERE ${SEARCHABLE_MESSAGES} AND ${AFTER}
     ${ORDER}`;
  const next = db.prepare(`${NEXT} LIMIT @limit`);
  // A common query is found by walking the rows in list order, a window at a time, with an
  // exact filter; the trigram index would find every match in every thread and sort them all.
  // A window sends back only its matching rows (with their text) and its last row (where the
  // next one starts): making a JS object of every row read cost more than reading it. The path
  // is checked for a row that contains the query alone.
  const windowed = (filter: string) =>
    db.prepare(
      `SELECT key, messageId, role, threadId, threadUpdatedAt, text, n FROM (
         SELECT *, row_number() OVER (ORDER BY threadUpdatedAt DESC, threadId, key) AS n FROM (
           SELECT s.id AS key, s.message_id AS messageId, s.role, t.id AS threadId,
             t.updated_at AS threadUpdatedAt,
             CASE WHEN s.text IS NOT NULL AND ${filter} AND ${SEARCHABLE_ROW} THEN s.text END AS text
           FROM threads t INDEXED BY threads_listed JOIN message_search s ON s.thread_id = t.id
           WHERE ${SEARCHABLE_THREAD} AND ${AFTER}
           ${ORDER} LIMIT @window))
       WHERE text IS NOT NULL OR n = @window
       ORDER BY n`,
    );
  const window = {
    instr: windowed("instr(s.text, @query) > 0"),
    like: windowed("s.text LIKE @like ESCAPE '\\'"),
    // The fold in JS only for the rows a superset `LIKE` lets through.
    fold: windowed(`s.text LIKE @superset ESCAPE '\\' AND ${FOLD_CONTAINS}(s.text, @folded) = 1`),
  };
  const boundsOf = (after: CrossThreadCursor | null) => ({
    updatedAt: after?.threadUpdatedAt ?? NEWEST_THREAD_BOUND,
    threadId: after?.threadId ?? "",
    key: after?.key ?? 0,
  });
  return {
    searchAllCandidates(input: CrossThreadCandidateQuery): CrossThreadCandidates {
      const params = { ...boundsOf(input.after), limit: input.limit };
      if (!usesTrigrams(input.query)) {
        return rowsResult(next.all(params) as WindowRow[], input.limit);
      }
      // `instr` when matching case, an ASCII `LIKE` when no other code point folds into the
      // query's letters, else the fold itself: every one exact, so a window's hits are matches
      // of the substring (whole word and ranges are the caller's).
      const filter = window[shortQueryPrefilter(input.query, input.caseSensitive) ?? "fold"];
      const folded = foldedSearchText(input.query);
      const superset = likeFoldSuperset(folded);
      const phrase = ftsQuery(folded);
      const trigramRows = () =>
        rowsResult(trigram.all({ ...params, phrase }) as WindowRow[], input.limit);
      const plan = input.plan ?? "auto";
      if (plan === "index") return trigramRows();
      // A rare query: its few matches, found and sorted, cost less than any walk.
      if (plan === "auto") {
        const { count } = indexed.get({ phrase, bound: INDEX_FIRST_BELOW }) as { count: number };
        if (count < INDEX_FIRST_BELOW) return trigramRows();
      }
      const rows: WindowRow[] = [];
      let windows = 0;
      for (;;) {
        const read = filter.all({
          ...boundsOf(rows.length === 0 ? input.after : positionOf(rows.at(-1)!)),
          window: ORDERED_WINDOW,
          query: input.query,
          like: likeContains(input.query),
          folded,
          superset,
        }) as (WindowRow & { n: number })[];
        rows.push(...read);
        windows++;
        const full = read.at(-1)?.n === ORDERED_WINDOW;
        const step = walkStep(rows, windows, full, input.limit, plan === "walk");
        if (step === "index") break;
        if (step !== "next") return step;
      }
      return trigramRows();
    },
  };
}
