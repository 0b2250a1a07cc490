/**
 * The find-in-thread index (issue 23), the part both stores share, pure: what is indexed for a
 * message (its rendered text, as the browser shows it, and its case fold), and how a query
 * becomes candidate filters. The stores only find candidates; `domain/threadSearch.ts` checks
 * each with `findTextMatches` and computes the offsets.
 */
import { foldCase, renderedTextOfMarkdown } from "@app/markdown";

/** A message that may contain the query: its search key (thread order), id, role and text. */
export interface SearchCandidate {
  /** Increases with `seq` within a thread; the cursor of the page ending at this message. */
  key: number;
  messageId: string;
  role: "user" | "assistant";
  /** The indexed rendered text. */
  text: string;
}

/**
 * Messages up to this many characters of Markdown are indexed in the transaction that stores or
 * finishes them (about 1 ms of rendering per 1,000 characters). Longer ones are queued there and
 * indexed right after by the store's background indexer (`searchIndexer.ts`), off the event loop,
 * so a long reply never stalls other requests; a crash in between leaves them queued. Since
 * issue 33 this is 0: only empty messages are indexed inline, every other one is rendered off the
 * turn path (inline rendering of short messages was about a third of a turn's CPU).
 */
export const SEARCH_INLINE_MAX_CHARS = 0;

/** A finished message queued for indexing: its Markdown, to render. */
export interface QueuedSearchText {
  messageId: string;
  role: "user" | "assistant";
  markdown: string;
}

/** What a store searches for: `query` as typed, matched case-insensitively unless asked. */
export interface SearchCandidateQuery {
  threadId: string;
  query: string;
  caseSensitive: boolean;
  /** Only candidates with a key above this one (0: from the start of the thread). */
  afterKey: number;
  /** At most this many candidates. */
  limit: number;
  /**
   * Stop after the candidate whose text brings the total to this many characters (issue 33,
   * SQLite, whose reads hold the event loop; PostgreSQL reads every candidate): fewer than
   * `limit` candidates whose texts reach it do not mean the thread's end.
   */
  maxChars?: number | undefined;
}

/** A position in the order of cross-thread search: thread (newest first), then message key. */
export interface CrossThreadCursor {
  threadUpdatedAt: string;
  threadId: string;
  key: number;
}

/** A cross-thread candidate: a message that may contain the query, with its thread's place. */
export interface CrossThreadCandidate extends SearchCandidate, CrossThreadCursor {}

/** What a store searches all threads for (see `ChatQueries.searchAllCandidates`). */
export interface CrossThreadCandidateQuery {
  query: string;
  caseSensitive: boolean;
  /** Only candidates after this position (null: from the newest thread). */
  after: CrossThreadCursor | null;
  limit: number;
  /**
   * How a query of three or more characters finds its candidates: `"auto"` (the default, the
   * store chooses: storage README, "Search all threads"), or only the walk in list order or
   * only the trigram index (tests: both must give the same answers).
   */
  plan?: CrossThreadPlan | undefined;
}

export type CrossThreadPlan = "auto" | "walk" | "index";

/**
 * Candidates, and where the store stopped reading: the last row read (a short query reads rows
 * that are not candidates too) and whether nothing is left after it.
 */
export interface CrossThreadCandidates {
  candidates: CrossThreadCandidate[];
  last: CrossThreadCursor | null;
  exhausted: boolean;
}

/**
 * Search all threads walks the list (newest thread first) this many rows at a time with an
 * exact SQL filter, for a query of three or more characters; the rows are read in index order,
 * no sort.
 */
export const ORDERED_WINDOW = 1000;

/**
 * The trigram index serves a query with fewer matching rows than this at once (a rare query:
 * finding and sorting them all is cheaper than walking to them). SQLite counts them first (FTS5
 * counts up to the bound and stops, in well under a millisecond); PostgreSQL after a first
 * window with too few matches (its GIN index builds the whole bitmap of a common query, so it
 * is asked only once the common ones have left).
 */
export const INDEX_FIRST_BELOW = 1000;

/**
 * Windows one batch walks at most before it asks the trigram index instead. A window sends back
 * only its matching rows and its last row, so walking a row costs about what the trigram path
 * costs per match it finds (1.3 against 1.1 µs on SQLite); 6 windows (6,000 rows) is what the
 * index path costs for a query with about 7,000 matches, the most it risks for one whose
 * matches are all far down the list.
 */
export const WALK_WINDOWS = 6;

/**
 * Matches the walk must find in a batch's windows to hand them over and go on walking (a query
 * that common has too many matches for the trigram index to find them all and sort them);
 * with fewer, the trigram index finds the batch wherever its matches are.
 */
export const WALK_MIN_HITS = 10;

/**
 * A row of a window: its place in the order, with its text only when it holds the query. A
 * window sends back its matching rows and, when it read {@link ORDERED_WINDOW} rows, its last
 * row (where the next window starts), matching or not.
 */
export type WindowRow = Omit<CrossThreadCandidate, "text"> & { text: string | null };

/** The place of a row in the order, as a cursor. */
export function positionOf(row: WindowRow): CrossThreadCursor {
  return { threadUpdatedAt: row.threadUpdatedAt, threadId: row.threadId, key: row.key };
}

/**
 * What a batch of the walk does after its windows so far (`rows`: what they sent back, in
 * order, see {@link WindowRow}; `windows`: how many were read; `lastWindowFull`: the last one
 * read {@link ORDERED_WINDOW} rows): a result, `"next"` (read the window after the last row)
 * or `"index"` (too few matches: ask the trigram index from where the batch began). `walkOnly`:
 * never `"index"` (the plan `"walk"`).
 */
export function walkStep(
  rows: readonly WindowRow[],
  windows: number,
  lastWindowFull: boolean,
  limit: number,
  walkOnly = false,
): CrossThreadCandidates | "next" | "index" {
  const hits = rows.filter((row): row is CrossThreadCandidate => row.text !== null);
  if (hits.length >= limit) {
    // A full batch: the next one starts right after its last candidate.
    const candidates = hits.slice(0, limit);
    return { candidates, last: positionOf(candidates.at(-1)!), exhausted: false };
  }
  const end = rows.at(-1);
  // The end of the list, or a common query: the walk goes on after the last row read.
  if (!lastWindowFull || hits.length >= WALK_MIN_HITS) {
    return { candidates: hits, last: end ? positionOf(end) : null, exhausted: !lastWindowFull };
  }
  return walkOnly || windows < WALK_WINDOWS ? "next" : "index";
}

/** Rows read in order (candidates are those with a text), and where they end. */
export function rowsResult(rows: readonly WindowRow[], limit: number): CrossThreadCandidates {
  const last = rows.at(-1);
  return {
    candidates: rows.filter((row): row is CrossThreadCandidate => row.text !== null),
    last: last ? positionOf(last) : null,
    exhausted: rows.length < limit,
  };
}

/** Sorts after every ISO timestamp: a cursor before the newest thread. */
export const NEWEST_THREAD_BOUND = "\uffff";

/**
 * The rendered text indexed for a message (stored Markdown, complete). Markdown nested deeper
 * than the parser's call stack (thousands of `>`) cannot be rendered at all: such a message is
 * indexed as its source text rather than refused, so storing it never fails.
 */
export function searchTextOf(role: "user" | "assistant", markdown: string): string {
  try {
    return renderedTextOfMarkdown(markdown, role);
  } catch (error) {
    if (error instanceof RangeError) return markdown;
    throw error;
  }
}

/** The text the trigram indexes hold: the case fold of the rendered text (same length). */
export const foldedSearchText = foldCase;

/**
 * True when a trigram index can serve `query`: it needs at least three characters (code
 * points). Shorter queries scan the thread's texts.
 */
export function usesTrigrams(query: string): boolean {
  let count = 0;
  for (const _ of query) if (++count >= 3) return true;
  return false;
}

/** A LIKE pattern finding `text` anywhere, with `\` as the escape character. */
export function likeContains(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** An FTS5 phrase matching `text` literally (a trigram table finds it as a substring). */
export function ftsPhrase(text: string): string {
  return `"${text.replaceAll('"', '""')}"`;
}

/**
 * The FTS5 query that finds candidates for `text` (folded, three code points or more). As a
 * phrase when its trigrams are all different; otherwise as each distinct trigram once, ANDed
 * (issue 29): FTS5 checks a phrase against every position of each of its tokens, so 200 × "x"
 * (198 times the trigram "xxx") against rows of 120,000 × "x" did 198 × 120,000 position steps
 * per row, seconds on the event loop. Every candidate is checked against the text itself
 * afterwards (`threadSearch.ts`), so a looser filter never changes an answer.
 */
export function ftsQuery(text: string): string {
  const points = [...text];
  const trigrams = new Set<string>();
  for (let i = 0; i + 3 <= points.length; i++) trigrams.add(points.slice(i, i + 3).join(""));
  if (trigrams.size === points.length - 2) return ftsPhrase(text);
  return [...trigrams].map(ftsPhrase).join(" AND ");
}

// ASCII letters that non-ASCII code points fold to (U+212A KELVIN SIGN to "k", U+017F LONG S to
// "s", U+0131 DOTLESS I to "i"): SQLite's ASCII-only LIKE would miss those texts.
const FOLDS_FROM_NON_ASCII = /[iks]/i;
const ASCII = /^[\u0000-\u007f]*$/;

/**
 * A SQLite `LIKE` pattern (ASCII case-insensitive, `\` as the escape character) that every text
 * whose case fold contains `folded` (a folded query) matches: a letter that another code point
 * folds into becomes `_` (U+017F LONG S, U+212A KELVIN SIGN, U+0131 DOTLESS I: one character
 * each) and a non-ASCII code point `%` (any run). A superset: the exact check comes after it.
 */
export function likeFoldSuperset(folded: string): string {
  let pattern = "%";
  let anyRun = true;
  for (const char of folded) {
    if (!ASCII.test(char)) {
      if (!anyRun) pattern += "%";
      anyRun = true;
      continue;
    }
    anyRun = false;
    pattern += FOLDS_FROM_NON_ASCII.test(char) ? "_" : char.replace(/[\\%_]/g, (c) => `\\${c}`);
  }
  return anyRun ? pattern : `${pattern}%`;
}

/**
 * How SQLite narrows a short (non-trigram) query to candidates with plain SQL: `instr` when
 * matching case (exact), `LIKE` (ASCII case-insensitive) when every text that folds to the
 * query is caught by it, else nothing (every indexed text of the thread is checked).
 */
export function shortQueryPrefilter(
  query: string,
  caseSensitive: boolean,
): "instr" | "like" | null {
  if (caseSensitive) return "instr";
  if (ASCII.test(query) && !FOLDS_FROM_NON_ASCII.test(query)) return "like";
  return null;
}
