/**
 * Search all threads on SQLite (issue 31), on the find-in-thread index (`sqliteSearch.ts`): the
 * trigram FTS table finds candidates of a query of three or more characters in every thread; a
 * shorter query reads the next messages in order, newest thread first (the caller caps how
 * many). Order: thread `updated_at` descending, thread id, then the message's row id (thread
 * order), the same keyset the cursor carries.
 *
 * Which messages take part is said once, in {@link SEARCHABLE_MESSAGES}: every cross-thread
 * query reads through it, so a rule such as "only the versions on the thread's path" is one
 * predicate added there.
 */
import type Database from "better-sqlite3";
import type { SyncQueries } from "./chatStore.ts";
import {
  type CrossThreadCandidate,
  type CrossThreadCandidateQuery,
  type CrossThreadCandidates,
  foldedSearchText,
  ftsPhrase,
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
export const SEARCHABLE_MESSAGES = "t.deleted_at IS NULL AND t.message_count > 0";

const COLUMNS = `s.id AS key, s.message_id AS messageId, s.role, s.text, t.id AS threadId,
  t.updated_at AS threadUpdatedAt`;
const AFTER = `(t.updated_at < @updatedAt OR (t.updated_at = @updatedAt
  AND (t.id > @threadId OR (t.id = @threadId AND s.id > @key))))`;
const ORDER = "ORDER BY t.updated_at DESC, t.id, s.id";

type Row = Omit<CrossThreadCandidate, "text"> & { text: string | null };

/** Rows read in list order before a rarer query goes to the trigram index instead. */
export const ORDERED_WINDOW = 1000;

export function sqliteCrossThreadSearch(
  db: Database.Database,
): Pick<SyncQueries, "searchAllCandidates"> {
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
  // A common query fills a batch from the next rows in order; the trigram index would find
  // every match in every thread and sort them all.
  const windowed = (filter: string) =>
    db.prepare(
      `SELECT * FROM (${NEXT} LIMIT @window) AS w WHERE w.text IS NOT NULL AND ${filter}
       LIMIT @limit`,
    );
  const window = {
    instr: windowed("instr(w.text, @query) > 0"),
    like: windowed("w.text LIKE @like ESCAPE '\\'"),
  };
  const result = (rows: Row[], limit: number): CrossThreadCandidates => {
    const last = rows.at(-1);
    return {
      candidates: rows.filter((row): row is CrossThreadCandidate => row.text !== null),
      last: last
        ? { threadUpdatedAt: last.threadUpdatedAt, threadId: last.threadId, key: last.key }
        : null,
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
      // The window needs an exact SQL filter (`instr`, or an ASCII `LIKE` no other code point
      // folds into); without one it would hand over every row, so the trigram index serves.
      const prefilter = shortQueryPrefilter(input.query, input.caseSensitive);
      if (prefilter !== null) {
        const ordered = window[prefilter].all({
          ...params,
          window: ORDERED_WINDOW,
          query: input.query,
          like: likeContains(input.query),
        }) as Row[];
        // Not exhausted (limit 0): more rows follow the window.
        if (ordered.length >= input.limit) return result(ordered, 0);
      }
      const phrase = ftsPhrase(foldedSearchText(input.query));
      return result(trigram.all({ ...params, phrase }) as Row[], input.limit);
    },
  };
}
