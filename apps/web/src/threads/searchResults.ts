/**
 * Search all threads' results as the dialog lists them, pure: one entry per matching message,
 * in the server's order (threads newest first), with its thread, and the pieces of its snippet
 * (plain and matched text) for rendering.
 */
import type {
  AllThreadsSearchGroup,
  AllThreadsSearchMatch,
  AllThreadsSearchResponse,
  Thread,
} from "@app/protocol";

export type SearchResult = { key: string; thread: Thread; match: AllThreadsSearchMatch };

/** The entries of every page received, in order (a message listed twice is kept once). */
export function flattenSearchPages(pages: readonly AllThreadsSearchResponse[]): SearchResult[] {
  const seen = new Set<string>();
  const results: SearchResult[] = [];
  for (const page of pages) {
    for (const group of page.groups as AllThreadsSearchGroup[]) {
      for (const match of group.matches) {
        const key = `${group.thread.id}/${match.messageId}`;
        if (seen.has(key)) continue;
        seen.add(key);
        results.push({ key, thread: group.thread, match });
      }
    }
  }
  return results;
}

/** A snippet cut into plain and matched pieces. */
export function snippetPieces(
  snippet: AllThreadsSearchMatch["snippet"],
): { text: string; matched: boolean }[] {
  const pieces: { text: string; matched: boolean }[] = [];
  let at = 0;
  for (const [start, end] of snippet.ranges) {
    if (start > at) pieces.push({ text: snippet.text.slice(at, start), matched: false });
    pieces.push({ text: snippet.text.slice(start, end), matched: true });
    at = end;
  }
  if (at < snippet.text.length) pieces.push({ text: snippet.text.slice(at), matched: false });
  return pieces;
}
