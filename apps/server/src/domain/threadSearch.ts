/**
 * Find in thread (issue 23): `GET /api/threads/:threadId/search`. The store finds candidate
 * messages through its index (`ChatQueries.searchCandidates`); each is checked here with the
 * shared matcher of `@app/markdown`, which also gives the offsets into the message's rendered
 * text, so SQLite and PostgreSQL answer alike. Pages follow thread order and end at a message.
 */
import { isWellFormedUtf16 } from "@app/citations";
import { findTextMatches } from "@app/markdown";
import type { ThreadSearchMatch, ThreadSearchResponse } from "@app/protocol";
import type { ChatQueries } from "../storage/chatStore.ts";
import { SEARCH_QUERY_MAX_CHARS } from "../storage/searchPieces.ts";
import { DomainError } from "./errors.ts";
import { yieldToEventLoop } from "./searchTurns.ts";

/** Longest query, in UTF-16 units (the overlap of the index's pieces depends on it). */
export const MAX_SEARCH_QUERY = SEARCH_QUERY_MAX_CHARS;
/** Ranges per page when the client gives no `limit`, and the most it may ask for. */
export const DEFAULT_SEARCH_LIMIT = 200;
export const MAX_SEARCH_LIMIT = 1000;
/**
 * Candidates read from the store at a time: 8 at first, doubling up to 64, so a page that fills
 * with its first messages (long ones, many ranges each) does not read dozens it never checks;
 * and never more than {@link SLICE_CHARS} of text at the length of the longest seen so far.
 */
const FIRST_CANDIDATE_BATCH = 8;
const MAX_CANDIDATE_BATCH = 64;
/**
 * Characters of candidate text read and checked between two yields to the event loop (issue
 * 33). SQLite answers synchronously, so without them one request over long messages (a thread
 * of 600,000-character replies) held the event loop for its whole scan budget; with them a
 * slice holds about this much text (a millisecond or two of CPU), and other requests go first.
 */
export const SLICE_CHARS = 1_000_000;

/** Lets the event loop run what is waiting (I/O, timers) before going on: `searchTurns.ts`. */
export { yieldToEventLoop };
/**
 * Characters of candidate text one request checks at most (issue 29): past it the page ends
 * early, with `nextCursor` where the next page goes on, so no query, however bad, holds the
 * event loop for long; the client follows `nextCursor` as for a full page.
 */
export const SEARCH_SCAN_BUDGET_CHARS = 4_000_000;

/** A search request, validated by {@link checkSearchQuery} and the route. */
export interface ThreadSearchRequest {
  query: string;
  caseSensitive: boolean;
  wholeWord: boolean;
  cursor?: string | undefined;
  /** Ranges per page (default {@link DEFAULT_SEARCH_LIMIT}). */
  limit?: number | undefined;
  /** Characters of candidate text this page may check (default {@link SEARCH_SCAN_BUDGET_CHARS}). */
  scanBudgetChars?: number | undefined;
}

/** Throws `invalid_query` unless `query` is 1..200 UTF-16 units of well-formed text without NUL. */
export function checkSearchQuery(query: string | undefined): string {
  const invalid = (why: string) => new DomainError("invalid_query", `The search query ${why}.`);
  if (query === undefined || query === "") throw invalid("is empty: give q=<text>");
  if (query.length > MAX_SEARCH_QUERY) {
    throw invalid(`is ${query.length} characters long; the most is ${MAX_SEARCH_QUERY}`);
  }
  if (query.includes("\u0000")) throw invalid("contains NUL (U+0000)");
  if (!isWellFormedUtf16(query)) throw invalid("is not valid text (a lone surrogate)");
  return query;
}

function parseCursor(cursor: string): number {
  if (!/^\d{1,15}$/.test(cursor)) {
    throw new DomainError(
      "invalid_cursor",
      `"${cursor.slice(0, 40)}" is not a valid cursor. Use nextCursor from a previous page.`,
    );
  }
  return Number(cursor);
}

/**
 * One page of matches: whole messages, oldest first, until `limit` ranges are reached (at least
 * one message) or the scan budget is spent. `nextCursor` is set when a later message matches
 * too, or when the budget ended the page before the thread's end.
 */
export async function searchThread(
  store: Pick<ChatQueries, "searchCandidates">,
  threadId: string,
  request: ThreadSearchRequest,
): Promise<ThreadSearchResponse> {
  const query = checkSearchQuery(request.query);
  const limit = Math.min(request.limit ?? DEFAULT_SEARCH_LIMIT, MAX_SEARCH_LIMIT);
  const options = { caseSensitive: request.caseSensitive, wholeWord: request.wholeWord };
  let afterKey = request.cursor === undefined ? 0 : parseCursor(request.cursor);
  const matches: ThreadSearchMatch[] = [];
  let ranges = 0;
  let lastKey = afterKey;
  let budget = request.scanBudgetChars ?? SEARCH_SCAN_BUDGET_CHARS;
  let longest = 0;
  let sliced = 0;
  // The first slice waits for its turn too: searches running at once take one slice per turn.
  await yieldToEventLoop();
  for (
    let doubling = FIRST_CANDIDATE_BATCH;
    ;
    doubling = Math.min(doubling * 2, MAX_CANDIDATE_BATCH)
  ) {
    if (sliced >= SLICE_CHARS) {
      await yieldToEventLoop();
      sliced = 0;
    }
    const batch = Math.max(1, Math.min(doubling, Math.floor(SLICE_CHARS / Math.max(longest, 1))));
    const candidates = await store.searchCandidates({
      threadId,
      query,
      caseSensitive: options.caseSensitive,
      afterKey,
      limit: batch,
      maxChars: SLICE_CHARS,
    });
    let read = 0;
    for (const candidate of candidates) read += candidate.text.length;
    for (const candidate of candidates) {
      // Spent: the next page starts at this candidate (the cursor is the key before it).
      if (budget <= 0) return { matches, nextCursor: String(afterKey) };
      if (sliced >= SLICE_CHARS) {
        await yieldToEventLoop();
        sliced = 0;
      }
      budget -= candidate.text.length;
      sliced += candidate.text.length;
      longest = Math.max(longest, candidate.text.length);
      afterKey = candidate.key;
      const found = findTextMatches(candidate.text, query, options);
      if (found.ranges.length === 0) continue;
      // The page is full and another message matches: it starts the next page.
      if (ranges >= limit) return { matches, nextCursor: String(lastKey) };
      matches.push({
        messageId: candidate.messageId,
        role: candidate.role,
        ranges: found.ranges,
        ...(found.truncated ? { truncated: true as const } : {}),
      });
      ranges += found.ranges.length;
      lastKey = candidate.key;
    }
    // Fewer than asked for, and not cut at the slice's characters: the thread's end.
    if (candidates.length < batch && read < SLICE_CHARS) return { matches, nextCursor: null };
  }
}
