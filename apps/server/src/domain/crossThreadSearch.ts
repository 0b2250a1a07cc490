/**
 * Search all threads (issue 31): `GET /api/search`. The store finds candidates in every thread
 * (`ChatQueries.searchAllCandidates`, on the find-in-thread indexes), newest thread first; each
 * is checked here with the shared matcher of `@app/markdown`, as find in thread does
 * (`threadSearch.ts`), so substring, case and whole-word behave alike. Matches come grouped by
 * thread, each with a snippet around its first range (`searchSnippet.ts`).
 *
 * A query of one or two characters cannot use the trigram indexes: one page reads at most
 * {@link SHORT_QUERY_SCAN} messages and says so (`limited`), and `nextCursor` reads on.
 */
import { createAssistantCitationSelector } from "@app/citations";
import { findTextMatches } from "@app/markdown";
import type {
  AllThreadsSearchGroup,
  AllThreadsSearchMatch,
  AllThreadsSearchResponse,
  SearchRange,
} from "@app/protocol";
import type { ChatQueries } from "../storage/chatStore.ts";
import type {
  CrossThreadCandidate,
  CrossThreadCursor,
  CrossThreadPlan,
} from "../storage/searchText.ts";
import { DomainError } from "./errors.ts";
import { snippetOf } from "./searchSnippet.ts";
import { checkSearchQuery, yieldToEventLoop } from "./threadSearch.ts";

/** Messages per page. */
export const ALL_THREADS_PAGE = 30;
/** Candidates read from the store at a time. */
const CANDIDATE_BATCH = 100;
/** Candidates checked per page at most (a common word that rarely matches as a whole word). */
const MAX_CHECKED = 5_000;
/** Messages a 1-2 character query reads per page. */
export const SHORT_QUERY_SCAN = 2_000;

export interface AllThreadsSearchRequest {
  query: string;
  caseSensitive: boolean;
  wholeWord: boolean;
  cursor?: string | undefined;
  /** The store's plan (`CrossThreadCandidateQuery.plan`); tests force one, HTTP never does. */
  plan?: CrossThreadPlan | undefined;
}

type Store = Pick<ChatQueries, "searchAllCandidates" | "getThread">;

export async function searchAllThreads(
  store: Store,
  request: AllThreadsSearchRequest,
): Promise<AllThreadsSearchResponse> {
  const query = checkSearchQuery(request.query);
  const options = { caseSensitive: request.caseSensitive, wholeWord: request.wholeWord };
  let after = request.cursor === undefined ? null : parseCursor(request.cursor);
  const found: { candidate: CrossThreadCandidate; ranges: SearchRange[]; truncated: boolean }[] =
    [];
  let checked = 0;
  let nextCursor: CrossThreadCursor | null = null;
  let limited: AllThreadsSearchResponse["limited"] = null;
  const short = [...query].length < 3;
  for (let first = true; ; first = false) {
    // SQLite answers synchronously: let other requests run between two batches (issue 33).
    if (!first) await yieldToEventLoop();
    const batch = await store.searchAllCandidates({
      query,
      caseSensitive: options.caseSensitive,
      after,
      limit: short ? SHORT_QUERY_SCAN : CANDIDATE_BATCH,
      plan: request.plan,
    });
    let full = false;
    for (const candidate of batch.candidates) {
      const match = findTextMatches(candidate.text, query, options);
      if (match.ranges.length === 0) continue;
      if (found.length >= ALL_THREADS_PAGE) {
        full = true;
        break;
      }
      found.push({ candidate, ranges: match.ranges, truncated: match.truncated });
    }
    checked += batch.candidates.length;
    if (full) {
      const last = found.at(-1)!.candidate;
      nextCursor = {
        threadUpdatedAt: last.threadUpdatedAt,
        threadId: last.threadId,
        key: last.key,
      };
      break;
    }
    after = batch.last;
    if (batch.exhausted || after === null) break;
    if (short) {
      limited = { reason: "short_query", scannedMessages: SHORT_QUERY_SCAN };
      nextCursor = after;
      break;
    }
    if (checked >= MAX_CHECKED) {
      nextCursor = after;
      break;
    }
  }
  return {
    groups: await groupByThread(store, found),
    nextCursor: nextCursor === null ? null : formatCursor(nextCursor),
    limited,
  };
}

async function groupByThread(
  store: Store,
  found: { candidate: CrossThreadCandidate; ranges: SearchRange[]; truncated: boolean }[],
): Promise<AllThreadsSearchGroup[]> {
  const ids = [...new Set(found.map((f) => f.candidate.threadId))];
  const records = await Promise.all(ids.map((id) => store.getThread(id)));
  const threads = new Map(ids.map((id, i) => [id, records[i]?.thread] as const));
  const groups: AllThreadsSearchGroup[] = [];
  for (const { candidate, ranges, truncated } of found) {
    const thread = threads.get(candidate.threadId);
    if (!thread) continue;
    const match: AllThreadsSearchMatch = {
      messageId: candidate.messageId,
      role: candidate.role,
      ranges,
      ...(truncated ? { truncated: true as const } : {}),
      snippet: snippetOf(candidate.text, ranges),
      quote:
        candidate.role === "assistant" && ranges[0]
          ? createAssistantCitationSelector(candidate.text, ranges[0][0], ranges[0][1])
          : null,
    };
    const group = groups.at(-1);
    if (group && group.thread.id === thread.id) group.matches.push(match);
    else groups.push({ thread, matches: [match] });
  }
  return groups;
}

/** Cursors are opaque: base64url of `[threadUpdatedAt, threadId, key]`. */
export function formatCursor(cursor: CrossThreadCursor): string {
  return Buffer.from(
    JSON.stringify([cursor.threadUpdatedAt, cursor.threadId, cursor.key]),
  ).toString("base64url");
}

function parseCursor(raw: string): CrossThreadCursor {
  const invalid = () =>
    new DomainError(
      "invalid_cursor",
      `"${raw.slice(0, 40)}" is not a valid cursor. Use nextCursor from a previous page.`,
    );
  if (!/^[A-Za-z0-9_-]{1,800}$/.test(raw)) throw invalid();
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(raw, "base64url").toString("utf8"));
  } catch {
    throw invalid();
  }
  if (
    !Array.isArray(value) ||
    value.length !== 3 ||
    typeof value[0] !== "string" ||
    typeof value[1] !== "string" ||
    !Number.isSafeInteger(value[2]) ||
    (value[2] as number) < 0
  ) {
    throw invalid();
  }
  return { threadUpdatedAt: value[0], threadId: value[1], key: value[2] as number };
}
