import type { ChatQueries } from "../storage/chatStore.ts";

/**
 * Stores a turn as a running one leaves it (call inside a transaction): its prompt, then its
 * answer still streaming (empty), as the search index tests set up a thread before they finish
 * or interrupt that answer.
 */
export async function storeTurnWithStreamingReply(
  tx: ChatQueries,
  turn: {
    threadId: string;
    turnId: string;
    promptId: string;
    prompt: string;
    providerInput: string;
    replyId: string;
    now: string;
  },
): Promise<void> {
  await tx.insertTurnWithPrompt({
    threadId: turn.threadId,
    turnId: turn.turnId,
    messageId: turn.promptId,
    text: turn.prompt,
    providerInput: turn.providerInput,
    now: turn.now,
  });
  await tx.insertAssistantMessage({
    id: turn.replyId,
    threadId: turn.threadId,
    turnId: turn.turnId,
    kind: "answer",
    text: "",
    status: "streaming",
    now: turn.now,
  });
}
