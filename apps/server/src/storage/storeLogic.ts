/**
 * The store logic both stores share, free of SQL and I/O: each store runs its own queries and
 * hands the rows here, so SQLite (`repository.ts`) and PostgreSQL (`postgres/pgQueries.ts`)
 * page, cut history and rebuild streaming text the same way.
 */
import type { Message, ServerEvent } from "@app/protocol";
import type { HistoryBudget } from "./chatStore.ts";

/**
 * How many turns of the history fit `budget`, given their sizes newest first (input plus
 * answer, in UTF-8 bytes; at most `budget.maxTurns` of them). The first turn that does not fit
 * ends the history, so it is always an unbroken run up to the new turn.
 */
export function turnsWithinBudget(
  sizesNewestFirst: readonly number[],
  budget: HistoryBudget,
): number {
  let used = 0;
  let count = 0;
  for (const size of sizesNewestFirst.slice(0, budget.maxTurns)) {
    used += size;
    if (used > budget.maxChars) break;
    count++;
  }
  return count;
}

/**
 * A streaming message's text: its stored text continued by its delta rows (their stored JSON, in
 * id order). Only a row that starts where the text ends continues it.
 */
export function withDeltas(message: Message, deltaRows: readonly string[]): Message {
  if (message.status !== "streaming") return message;
  let text = message.text;
  for (const data of deltaRows) {
    const event = JSON.parse(data) as ServerEvent;
    if (event.type === "message.delta" && event.offset === text.length) text += event.delta;
  }
  return text === message.text ? message : { ...message, text };
}

/**
 * A page read with `limit + 1` rows: the first `limit` of them, and whether another existed.
 */
export function pageOf<T>(rows: readonly T[], limit: number): { page: T[]; more: boolean } {
  return { page: rows.slice(0, limit), more: rows.length > limit };
}

/**
 * The rows around an anchor for a window of `limit` messages: about half older, the rest newer,
 * shifted when one side runs out so the window stays full where the thread allows it. `older`
 * is oldest first and `newer` oldest first, each up to `limit` rows next to the anchor.
 */
export function aroundWindow<T>(
  older: readonly T[],
  newer: readonly T[],
  limit: number,
): { older: T[]; newer: T[]; hasOlder: boolean; hasNewer: boolean } {
  const olderWanted = Math.floor((limit - 1) / 2);
  let olderTake = Math.min(olderWanted, older.length);
  const newerTake = Math.min(newer.length, limit - 1 - olderTake);
  olderTake = Math.min(older.length, limit - 1 - newerTake);
  return {
    older: older.slice(older.length - olderTake),
    newer: newer.slice(0, newerTake),
    hasOlder: older.length > olderTake,
    hasNewer: newer.length > newerTake,
  };
}
