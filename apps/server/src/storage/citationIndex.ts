/**
 * The citation index (issue 24, backlinks), free of SQL: which rows a prompt adds, and how a
 * page's backlinks are summed up from the rows read. Both stores (and both backfill
 * migrations) use it, so SQLite and PostgreSQL index and count the same way.
 */
import { ASSISTANT_CITATION_LINK_OPENER, collectAssistantCitations } from "@app/citations";
import type { CitedBy, CitedRange } from "@app/protocol";

/** A prompt holds a citation only if it holds this text (a cheap SQL pre-filter for backfills). */
export const CITATION_LINK_MARKER = ASSISTANT_CITATION_LINK_OPENER;

/** One distinct citation held by a prompt: one row of `message_citations`. */
export interface CitationIndexEntry {
  citingMessageId: string;
  citingThreadId: string;
  citingTurnId: string;
  sourceEnvironmentId: string;
  sourceThreadId: string;
  sourceMessageId: string;
  quote: CitedRange;
  /** Null when the citation has no comment. */
  comment: string | null;
  createdAt: string;
}

/** A prompt as the index sees it. */
export interface IndexedPrompt {
  messageId: string;
  threadId: string;
  turnId: string;
  text: string;
  createdAt: string;
}

/**
 * The distinct citations of a prompt, in the order they first appear (the kernel's
 * `collectAssistantCitations`). Two links that cite the same words of the same message with the
 * same comment are one citation. Citations of other environments are kept (never shown).
 */
export function citationEntriesOf(prompt: IndexedPrompt): CitationIndexEntry[] {
  const seen = new Set<string>();
  const entries: CitationIndexEntry[] = [];
  for (const { citation } of collectAssistantCitations(prompt.text)) {
    const comment = citation.comment ?? null;
    const key = JSON.stringify([
      citation.environmentId,
      citation.threadId,
      citation.messageId,
      citation.start,
      citation.end,
      citation.prefix,
      citation.suffix,
      citation.text,
      comment,
    ]);
    if (seen.has(key)) continue;
    seen.add(key);
    entries.push({
      citingMessageId: prompt.messageId,
      citingThreadId: prompt.threadId,
      citingTurnId: prompt.turnId,
      sourceEnvironmentId: citation.environmentId,
      sourceThreadId: citation.threadId,
      sourceMessageId: citation.messageId,
      quote: {
        text: citation.text,
        start: citation.start,
        end: citation.end,
        prefix: citation.prefix,
        suffix: citation.suffix,
      },
      comment,
      createdAt: prompt.createdAt,
    });
  }
  return entries;
}

/** A row read for a page's backlinks, in index order (oldest citation first). */
export interface CitedByRow {
  sourceMessageId: string;
  citingMessageId: string;
  quote: CitedRange;
}

export const NOT_CITED: CitedBy = Object.freeze({ count: 0, ranges: [] }) as CitedBy;

/**
 * A message's backlinks after adding `rows` (all citing it, none of their citing messages
 * counted before): the count grows by their distinct citing messages, and each selector not yet
 * among the ranges is appended. The stores keep this sum per cited message
 * (`message_backlinks`), so a page reads one row per cited message however often it is cited.
 */
export function addCitedBy(existing: CitedBy | undefined, rows: readonly CitedByRow[]): CitedBy {
  const ranges = [...(existing?.ranges ?? [])];
  const keys = new Set(ranges.map(rangeKey));
  const citing = new Set<string>();
  for (const row of rows) {
    citing.add(row.citingMessageId);
    const key = rangeKey(row.quote);
    if (keys.has(key)) continue;
    keys.add(key);
    const { text, start, end, prefix, suffix } = row.quote;
    ranges.push({ text, start, end, prefix, suffix });
  }
  return { count: (existing?.count ?? 0) + citing.size, ranges };
}

function rangeKey(range: CitedRange): string {
  return JSON.stringify([range.start, range.end, range.prefix, range.suffix, range.text]);
}

/** Backlinks per cited message from index rows (oldest first): {@link addCitedBy} from nothing. */
export function summarizeCitedBy(rows: readonly CitedByRow[]): Map<string, CitedBy> {
  const bySource = new Map<string, CitedByRow[]>();
  for (const row of rows) {
    const list = bySource.get(row.sourceMessageId);
    if (list) list.push(row);
    else bySource.set(row.sourceMessageId, [row]);
  }
  const result = new Map<string, CitedBy>();
  for (const [id, list] of bySource) result.set(id, addCitedBy(undefined, list));
  return result;
}

/** The entries that are backlinks of this environment, grouped per cited message (sorted). */
export function backlinkGroups(
  entries: readonly CitationIndexEntry[],
  environmentId: string,
): { sourceMessageId: string; sourceThreadId: string; rows: CitedByRow[] }[] {
  const groups = new Map<
    string,
    { sourceMessageId: string; sourceThreadId: string; rows: CitedByRow[] }
  >();
  for (const entry of entries) {
    if (entry.sourceEnvironmentId !== environmentId) continue;
    const key = JSON.stringify([entry.sourceMessageId, entry.sourceThreadId]);
    let group = groups.get(key);
    if (!group) {
      group = {
        sourceMessageId: entry.sourceMessageId,
        sourceThreadId: entry.sourceThreadId,
        rows: [],
      };
      groups.set(key, group);
    }
    group.rows.push({
      sourceMessageId: entry.sourceMessageId,
      citingMessageId: entry.citingMessageId,
      quote: entry.quote,
    });
  }
  // A fixed order, so concurrent writers lock backlink rows in the same order.
  return [...groups.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, g]) => g);
}

/** One citation of a message as `GET .../cited-by` lists it (before the thread-title rule). */
export interface CitingRecord {
  /** Index row id: the page cursor. */
  id: number;
  messageId: string;
  threadId: string;
  threadTitle: string;
  createdAt: string;
  comment: string | null;
  quote: CitedRange;
}

/**
 * Cited messages without repeats, in a fixed order (PostgreSQL locks their backlink rows in it,
 * so two writers never wait on each other in a circle).
 */
export function uniqueSourcesInOrder<T extends { messageId: string; threadId: string }>(
  sources: readonly T[],
): T[] {
  const byKey = new Map<string, T>();
  for (const source of sources)
    byKey.set(JSON.stringify([source.messageId, source.threadId]), source);
  return [...byKey.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, s]) => s);
}
