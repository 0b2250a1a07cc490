/**
 * How a turn ends, and the one record of it: messages finished, pending questions cancelled, a
 * visible error notice when it failed, and the turn's final status, in the caller's
 * transaction. A turn that has already ended (stopped through another process, or taken over
 * after its lease expired) is left as it is.
 */

import { isTurnRunning, type Turn, type TurnErrorCode, type TurnStatus } from "@app/protocol";
import type { EventTx } from "./events.ts";
import { newId } from "./ids.ts";
import { publishCreated } from "./messageCreated.ts";
import { storableProviderText } from "./providerText.ts";
import { TurnStop } from "./turnStop.ts";
import type { TurnWriter } from "./turnWriter.ts";

/** How a turn ended. */
export type TurnOutcome = {
  status: Extract<TurnStatus, "completed" | "failed" | "cancelled">;
  error: { code: TurnErrorCode; message: string } | null;
};

export const COMPLETED: TurnOutcome = { status: "completed", error: null };
export const CANCELLED: TurnOutcome = { status: "cancelled", error: null };
/** A process stopped mid-turn (crash, or its lease expired). */
export const INTERRUPTED: TurnOutcome = {
  status: "failed",
  error: {
    code: "interrupted",
    message: "The server stopped before this turn finished. Send the message again to retry.",
  },
};

/**
 * Inside a transaction: the turn's messages finished (the writer's, whole), its pending
 * questions cancelled, an error notice, then its status. Does nothing for a turn that has
 * already ended.
 */
export async function recordOutcome(
  w: EventTx,
  turn: { threadId: string; turnId: string },
  writer: TurnWriter | null,
  outcome: TurnOutcome,
  now: () => string,
): Promise<void> {
  const { threadId, turnId } = turn;
  if (!isTurnRunning(await w.tx.getTurn(turnId))) return;
  await writer?.finishAll(w, outcome.status === "failed" ? "error" : "complete");
  await cancelPendingRequests(w, threadId, turnId, now);
  const at = now();
  if (outcome.error !== null) {
    const notice = await w.tx.insertAssistantMessage({
      id: newId(),
      threadId,
      turnId,
      kind: "error",
      text: outcome.error.message,
      status: "complete",
      now: at,
    });
    await publishCreated(w, threadId, notice);
  }
  const updated = await w.tx.updateTurn({
    id: turnId,
    status: outcome.status,
    error: outcome.error,
    completedAt: at,
  });
  await w.publish(threadId, { type: "turn.updated", turn: updated });
}

/** A turn's streaming messages end with their stored text (deltas up to the last flush). */
export async function finishStoredMessages(
  w: EventTx,
  threadId: string,
  turnId: string,
  status: "complete" | "error",
): Promise<void> {
  for (const message of await w.tx.streamingMessagesOfTurn(turnId)) {
    const finished = await w.tx.finishMessage(message.id, message.text, status);
    await w.publish(threadId, { type: "message.completed", message: finished });
    await w.tx.deleteDeltaEvents(message.id);
  }
}

/** A process stopped mid-turn: the turn is visibly failed, never silently stuck. */
export async function recordInterrupted(w: EventTx, turn: Turn, now: () => string): Promise<void> {
  await finishStoredMessages(w, turn.threadId, turn.id, "error");
  await recordOutcome(w, { threadId: turn.threadId, turnId: turn.id }, null, INTERRUPTED, now);
}

/** Inside a turn's final record: its pending questions end `cancelled`. */
async function cancelPendingRequests(
  w: EventTx,
  threadId: string,
  turnId: string,
  now: () => string,
): Promise<void> {
  for (const requestId of await w.tx.pendingUserInputIdsOfTurn(turnId)) {
    await w.tx.resolveUserInputRequest({
      id: requestId,
      status: "cancelled",
      answers: null,
      now: now(),
    });
    await w.publish(threadId, { type: "user_input.resolved", requestId });
  }
}

/** The outcome of a turn its signal stopped (Stop, a deadline, a limit, storage, shutdown). */
export function stopOutcome(signal: AbortSignal): TurnOutcome {
  const reason: unknown = signal.reason;
  if (reason instanceof TurnStop) return reason.outcome() as TurnOutcome;
  return { status: "failed", error: { code: "cancelled", message: "The turn was aborted." } };
}

/** The outcome of a turn whose adapter threw `error` (not stopped). */
export function failureOutcome(error: unknown, storageFault: boolean): TurnOutcome {
  if (storageFault) {
    const detail = error instanceof Error ? ` ${error.message}` : "";
    return new TurnStop(
      "storage_unavailable",
      `The server could not read or save this turn, so it was stopped.${detail}`,
    ).outcome() as TurnOutcome;
  }
  const detail = error instanceof Error ? error.message : String(error);
  return {
    status: "failed",
    error: {
      code: "provider_error",
      message: storableProviderText(`The provider failed: ${detail || "unknown error"}`),
    },
  };
}

/** The stop for an expired deadline, naming its variable. */
export function deadlineStop(which: "idle" | "turn", idleMs: number, turnMs: number): TurnStop {
  if (which === "idle") {
    return new TurnStop(
      "idle_timeout",
      `The provider sent nothing for ${seconds(idleMs)}, so the turn was stopped (PROVIDER_IDLE_TIMEOUT_MS).`,
    );
  }
  return new TurnStop(
    "turn_timeout",
    `The turn ran longer than ${seconds(turnMs)}, so it was stopped (PROVIDER_TURN_TIMEOUT_MS).`,
  );
}

function seconds(ms: number): string {
  const s = ms / 1000;
  return `${Number.isInteger(s) ? s : s.toFixed(1)} s`;
}
