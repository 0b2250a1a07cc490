/**
 * The citation index (issue 24, backlinks), free of SQL: which rows a prompt adds, and how a
 * page's backlinks are summed up from the rows read. Both stores (and both backfill
 * migrations) use it, so SQLite and PostgreSQL index and count the same way.
 */
import { ASSISTANT_CITATION_LABEL, collectAssistantCitations } from "@app/citations";
import type { CitedBy, CitedRange } from "@app/protocol";

/** A prompt holds a citation only if it holds this text (a cheap SQL pre-filter for backfills). */
export const CITATION_LINK_MARKER = `[${ASSISTANT_CITATION_LABEL}](`;

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

/** Backlinks per cited message: distinct citing messages, distinct selectors (first cited first). */
export function summarizeCitedBy(rows: readonly CitedByRow[]): Map<string, CitedBy> {
  const acc = new Map<string, { citing: Set<string>; keys: Set<string>; ranges: CitedRange[] }>();
  for (const row of rows) {
    let entry = acc.get(row.sourceMessageId);
    if (!entry) {
      entry = { citing: new Set(), keys: new Set(), ranges: [] };
      acc.set(row.sourceMessageId, entry);
    }
    entry.citing.add(row.citingMessageId);
    const { text, start, end, prefix, suffix } = row.quote;
    const key = JSON.stringify([start, end, prefix, suffix, text]);
    if (!entry.keys.has(key)) {
      entry.keys.add(key);
      entry.ranges.push({ text, start, end, prefix, suffix });
    }
  }
  const result = new Map<string, CitedBy>();
  for (const [id, entry] of acc) result.set(id, { count: entry.citing.size, ranges: entry.ranges });
  return result;
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
