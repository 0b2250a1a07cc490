/**
 * Finding a query in a message's rendered text exactly as the search endpoint does: the find
 * bar's options over `@app/markdown`'s `findTextMatches` (literal text, spaces count; a simple
 * per-code-point case fold that keeps UTF-16 length, so offsets stay exact; whole words = no
 * letter, digit, mark or underscore right before or after; left to right, never overlapping).
 * Pure: no DOM.
 *
 * The client uses it only as a check and a fallback: the server's offsets are verified against
 * the text the browser shows, and when they disagree the n-th occurrence is located here.
 */
import { findTextMatches, foldCase } from "@app/markdown";

/** The search options the find bar offers (`case=1`, `word=1` on the wire). */
export type FindOptions = { matchCase: boolean; wholeWords: boolean };

/** Case-insensitive, anywhere (the endpoint's defaults). */
export const DEFAULT_FIND_OPTIONS: FindOptions = { matchCase: false, wholeWords: false };

/** Every occurrence of `query` in `text` as `[start, end)`, left to right, non-overlapping. */
export function findOccurrences(
  text: string,
  query: string,
  options: FindOptions,
): Array<[number, number]> {
  return findTextMatches(text, query, {
    caseSensitive: options.matchCase,
    wholeWord: options.wholeWords,
    limit: Number.POSITIVE_INFINITY,
  }).ranges;
}

/** True when `shown` (text on the page) is what `query` matches under `options`. */
export function textMatchesQuery(shown: string, query: string, options: FindOptions): boolean {
  return options.matchCase ? shown === query : foldCase(shown) === foldCase(query);
}
