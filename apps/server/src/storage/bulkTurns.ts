/**
 * The rows of finished turns appended in bulk (`appendFinishedTurns`, the seed), free of SQL:
 * both stores lay them out here, so they write the same seqs, parents and times as the
 * one-at-a-time queries would.
 */
import type { FinishedTurnInput } from "./chatStore.ts";
import type { CitationIndexEntry } from "./citationIndex.ts";

export interface BulkTurnRow {
  id: string;
  promptSeq: number;
  providerInput: string;
  createdAt: string;
  completedAt: string;
}

export interface BulkMessageRow {
  id: string;
  turnId: string;
  seq: number;
  role: "user" | "assistant";
  kind: "prompt" | "progress" | "answer";
  text: string;
  searchText: string;
  createdAt: string;
  /** The message before it: the last one shown before a prompt, the turn's previous one. */
  parentId: string | null;
}

export interface BulkRows {
  turns: BulkTurnRow[];
  /** In seq order. */
  messages: BulkMessageRow[];
  /** Every prompt's citations, in turn order. */
  citations: CitationIndexEntry[];
}

/** Messages the turns hold. */
export function bulkMessageCount(turns: readonly FinishedTurnInput[]): number {
  let count = 0;
  for (const turn of turns) count += 1 + turn.replies.length;
  return count;
}

/**
 * Lays out `turns` from seq `firstSeq` on, the first prompt's parent being `lastShownId` (the
 * thread's last message shown, or null): every message is shown and chosen.
 */
export function bulkRowsOf(
  turns: readonly FinishedTurnInput[],
  firstSeq: number,
  lastShownId: string | null,
): BulkRows {
  const rows: BulkRows = { turns: [], messages: [], citations: [] };
  let seq = firstSeq;
  let parentId = lastShownId;
  for (const turn of turns) {
    const { prompt } = turn;
    rows.turns.push({
      id: turn.turnId,
      promptSeq: seq,
      providerInput: prompt.providerInput,
      createdAt: prompt.now,
      completedAt: turn.replies.at(-1)?.now ?? prompt.now,
    });
    rows.messages.push({
      id: prompt.id,
      turnId: turn.turnId,
      seq: seq++,
      role: "user",
      kind: "prompt",
      text: prompt.text,
      searchText: prompt.searchText,
      createdAt: prompt.now,
      parentId,
    });
    parentId = prompt.id;
    for (const reply of turn.replies) {
      rows.messages.push({
        id: reply.id,
        turnId: turn.turnId,
        seq: seq++,
        role: "assistant",
        kind: reply.kind,
        text: reply.text,
        searchText: reply.searchText,
        createdAt: reply.now,
        parentId,
      });
      parentId = reply.id;
    }
    rows.citations.push(...turn.citations);
  }
  return rows;
}
