/**
 * Backlinks (issue 24), the write side: when a prompt is accepted, its distinct citations go
 * into the citation index and every message of this environment it cites gets a
 * `message.cited` event in its own thread's log, all in the prompt's transaction (so open views
 * on every process update, and nothing is written if the prompt is not).
 */
import { collectAssistantCitations } from "@app/citations";
import type { Message } from "@app/protocol";
import { citationEntriesOf } from "../storage/citationIndex.ts";
import type { EventTx } from "./events.ts";

export async function recordCitations(
  w: EventTx,
  prompt: Message,
  environmentId: string,
): Promise<void> {
  const entries = citationEntriesOf({
    messageId: prompt.id,
    threadId: prompt.threadId,
    turnId: prompt.turnId,
    text: prompt.text,
    createdAt: prompt.createdAt,
  });
  if (entries.length === 0) return;
  await w.tx.insertCitations(entries);
  // One event per cited message that exists where the citation says, in citation order.
  const cited = new Map<string, string>();
  for (const entry of entries) {
    if (entry.sourceEnvironmentId !== environmentId) continue;
    if (!cited.has(entry.sourceMessageId)) cited.set(entry.sourceMessageId, entry.sourceThreadId);
  }
  for (const [messageId, threadId] of cited) {
    const source = await w.tx.getMessage(messageId);
    if (!source || source.threadId !== threadId || source.role !== "assistant") continue;
    const citedBy = (await w.tx.citedByOf(threadId, [messageId])).get(messageId);
    if (citedBy) await w.publish(threadId, { type: "message.cited", messageId, citedBy });
  }
}

/**
 * The threads a prompt in `threadId` will write to: its own, and those of this environment it
 * cites (their `message.cited` events). Lock them first, together (`ChatQueries.lockThreads`).
 */
export function threadsWrittenBy(threadId: string, text: string, environmentId: string): string[] {
  const threads = new Set([threadId]);
  for (const { citation } of collectAssistantCitations(text)) {
    if (citation.environmentId === environmentId) threads.add(citation.threadId);
  }
  return [...threads];
}
