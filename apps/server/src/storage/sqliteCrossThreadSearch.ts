/**
 * Search all threads on SQLite (issue 31), on the find-in-thread index (`sqliteSearch.ts`): the
 * trigram FTS table finds candidates of a query of three or more characters in every thread; a
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
  type CrossThreadCandidate,
  type CrossThreadCandidateQuery,
  type CrossThreadCandidates,
  foldedSearchText,
  ftsQuery,
  likeContains,
  NEWEST_THREAD_BOUND,
  shortQueryPrefilter,
  usesTrigrams,
} from "./searchText.ts";

/**
 * Which messages cross-thread search reads, as a predicate over `s` (`message_search`) and `t`
 * (its thread, joined on `t.id = s.thread_id`): those of listed, undeleted threads. A message
 * still streaming (NULL text) is read but never a candidate.
 */
export const SEARCHABLE_MESSAGES = `t.deleted_at IS NULL AND t.message_count > 0
  AND EXISTS (SELECT 1 FROM messages m WHERE m.id = s.message_id AND m.on_path = 1)`;

const COLUMNS = `s.id AS key, s.message_id AS messageId, s.role, s.text, t.id AS threadId,
  t.updated_at AS threadUpdatedAt`;
// The first bound is implied by the second; said on its own, it is a range the index seeks to.
const AFTER = `t.updated_at <= @updatedAt AND (t.updated_at < @updatedAt OR (t.updated_at = @updatedAt
  AND (t.id > @threadId OR (t.id = @threadId AND s.id > @key))))`;
const ORDER = "ORDER BY t.updated_at DESC, t.id, s.id";

type Row = Omit<CrossThreadCandidate, "text"> & { text: string | null };

/** Rows read in list order per step of the walk, before a rarer query goes to the trigram index. */
export const ORDERED_WINDOW = 1000;
/**
 * Matches a window of {@link ORDERED_WINDOW} rows must hold for the walk to go on window by
 * window (1%: a query that common has too many matches to sort); with fewer, the trigram index
 * finds the rest wherever they are, and sorting them is cheap.
 */
export const WALK_MIN_HITS = 10;

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
  const trigram = db.prepare(
    `SELECT ${COLUMNS} FROM message_search_fts f CROSS JOIN message_search s ON s.id = f.rowid
       JOIN threads t ON t.id = s.thread_id
     WHERE message_search_fts MATCH @phrase AND s.text IS NOT NULL AND ${SEARCHABLE_MESSAGES}
       AND ${AFTER}
     ${ORDER} LIMIT @limit`,
  );
  // Threads in list order (their index), each thread's rows in order: no sort.
  const NEXT = `SELECT ${COLUMNS} FROM threads t INDEXED BY threads_listed
       JOIN message_search s ON s.thread_id = t.id
     WHERE ${SEARCHABLE_MESSAGES} AND ${AFTER}
     ${ORDER}`;
  const next = db.prepare(`${NEXT} LIMIT @limit`);
  // A common query is found by walking the rows in list order, a window at a time, with an
  // exact filter (the text comes back only for a row that contains the query); the trigram
  // index would find every match in every thread and sort them all.
  const windowed = (filter: string) =>
    db.prepare(
      `SELECT key, messageId, role, threadId, threadUpdatedAt,
         CASE WHEN w.text IS NOT NULL AND ${filter} THEN w.text END AS text
       FROM (${NEXT} LIMIT @window) AS w`,
    );
  const window = {
    instr: windowed("instr(w.text, @query) > 0"),
    like: windowed("w.text LIKE @like ESCAPE '\\'"),
    fold: windowed(`${FOLD_CONTAINS}(w.text, @folded) = 1`),
  };
  const positionOf = (row: Row): CrossThreadCandidates["last"] => ({
    threadUpdatedAt: row.threadUpdatedAt,
    threadId: row.threadId,
    key: row.key,
  });
  const result = (rows: Row[], limit: number): CrossThreadCandidates => {
    const last = rows.at(-1);
    return {
      candidates: rows.filter((row): row is CrossThreadCandidate => row.text !== null),
      last: last ? positionOf(last) : null,
      exhausted: rows.length < limit,
    };
  };
  return {
    searchAllCandidates(input: CrossThreadCandidateQuery): CrossThreadCandidates {
      const params = {
        updatedAt: input.after?.threadUpdatedAt ?? NEWEST_THREAD_BOUND,
        threadId: input.after?.threadId ?? "",
        key: input.after?.key ?? 0,
        limit: input.limit,
      };
      if (!usesTrigrams(input.query)) return result(next.all(params) as Row[], input.limit);
      // `instr` when matching case, an ASCII `LIKE` when no other code point folds into the
      // query's letters, else the fold itself: every one exact, so a window's hits are matches
      // of the substring (whole word and ranges are the caller's).
      const filter = shortQueryPrefilter(input.query, input.caseSensitive) ?? "fold";
      const rows = window[filter].all({
        ...params,
        window: ORDERED_WINDOW,
        query: input.query,
        like: likeContains(input.query),
        folded: foldedSearchText(input.query),
      }) as Row[];
      const hits = rows.filter((row): row is CrossThreadCandidate => row.text !== null);
      if (hits.length >= input.limit) {
        // A full batch: the next one starts right after its last candidate.
        const candidates = hits.slice(0, input.limit);
        return { candidates, last: positionOf(candidates.at(-1)!), exhausted: false };
      }
      const end = rows.at(-1);
      // The end of the list, or a common query: the walk goes on after this window.
      if (rows.length < ORDERED_WINDOW || hits.length >= WALK_MIN_HITS) {
        return {
          candidates: hits,
          last: end ? positionOf(end) : null,
          exhausted: rows.length < ORDERED_WINDOW,
        };
      }
      const phrase = ftsQuery(foldedSearchText(input.query));
      return result(trigram.all({ ...params, phrase }) as Row[], input.limit);
    },
  };
}
