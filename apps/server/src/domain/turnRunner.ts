/**
 * The run loop of {@link ProviderService}: runs one claimed turn through the adapter under its
 * deadlines, follows its thread for an end recorded elsewhere, assembles its history, and
 * records how it ended (now, or once storage accepts it). It keeps the turns running in this
 * process, so Stop and shutdown can reach them.
 */
import { isTurnRunning, type ServerEvent } from "@app/protocol";
import type { Logger } from "../logger.ts";
import type {
  ProviderAdapter,
  ProviderHistoryEntry,
  ProviderTurnContext,
} from "../providers/types.ts";
import type { ChatStore, HistoryBudget, HistoryTurn } from "../storage/chatStore.ts";
import { isStorageFault } from "../storage/storageErrors.ts";
import type { Clock } from "./clock.ts";
import type { ThreadEventLog } from "./events.ts";
import { storableWriter } from "./providerText.ts";
import type { StorageRetry } from "./storageRetry.ts";
import { TurnDeadlines } from "./turnDeadlines.ts";
import { guardTurn } from "./turnLease.ts";
import {
  COMPLETED,
  deadlineStop,
  failureOutcome,
  recordOutcome,
  stopOutcome,
  type TurnOutcome,
} from "./turnOutcome.ts";
import type { TurnQueue } from "./turnQueue.ts";
import { TurnStop } from "./turnStop.ts";
import { TurnWriter } from "./turnWriter.ts";
import type { UserInputRequests } from "./userInputRequests.ts";

/** What the run loop is given by {@link ProviderService}. */
export interface TurnRunnerOptions {
  store: ChatStore;
  events: ThreadEventLog;
  adapter: ProviderAdapter;
  now: () => string;
  /** The deadlines' and the writer's timers. */
  clock: Clock;
  history: HistoryBudget;
  idleTimeoutMs: number;
  turnTimeoutMs: number;
  maxReplyChars: number;
  retry: StorageRetry;
  logger: Logger;
  questions: UserInputRequests;
  /** The thread queues (leases, and the next turn once one ends). */
  queue: () => Pick<TurnQueue, "holdLease" | "pump" | "owner">;
  /** True once the service has closed: final writes still waiting are dropped. */
  closed: () => boolean;
}

/** A turn that is running in this process. */
type RunningTurn = {
  threadId: string;
  stop(reason: TurnStop): void;
  /** Another process ended the turn (Stop sent there, or our lease was taken over). */
  endedElsewhere(): void;
  /** Resolves once the turn's end is handled (recorded, or waiting for storage). */
  settled: Promise<void>;
};

export class TurnRunner {
  readonly #o: TurnRunnerOptions;
  readonly #running = new Map<string, RunningTurn>();

  constructor(options: TurnRunnerOptions) {
    this.#o = options;
  }

  /**
   * Stops a turn running in this process and waits until its end is handled; false when it
   * does not run here.
   */
  async stop(turnId: string, reason: TurnStop): Promise<boolean> {
    const running = this.#running.get(turnId);
    if (!running) return false;
    running.stop(reason);
    await running.settled;
    return true;
  }

  /** Stops every turn running in this process (shutdown); does not wait. */
  stopAll(reason: TurnStop): void {
    for (const running of this.#running.values()) running.stop(reason);
  }

  /** Runs one claimed turn through the adapter. Never rejects: every ending is recorded. */
  async run(threadId: string, turnId: string, input: string): Promise<void> {
    const o = this.#o;
    const controller = new AbortController();
    const stop = (reason: TurnStop) => {
      if (!controller.signal.aborted) controller.abort(reason);
    };
    const deadlines = new TurnDeadlines({
      idleMs: o.idleTimeoutMs,
      turnMs: o.turnTimeoutMs,
      onExpire: (which) => stop(deadlineStop(which, o.idleTimeoutMs, o.turnTimeoutMs)),
      clock: o.clock,
    });
    const writer = new TurnWriter({
      threadId,
      turnId,
      events: o.events,
      now: o.now,
      maxReplyChars: o.maxReplyChars,
      clock: o.clock,
      onActivity: () => deadlines.touch(),
      onStop: stop,
      guard: (w) => guardTurn(w, turnId, o.queue().owner),
      onLeaseLost: () => endedElsewhere(),
    });
    let settle: () => void = () => {};
    const settled = new Promise<void>((resolve) => {
      settle = resolve;
    });
    const endedElsewhere = () => {
      writer.abandon();
      stop(new TurnStop("cancelled_by_user", "Ended elsewhere."));
    };
    this.#running.set(turnId, { threadId, stop, endedElsewhere, settled });
    const releaseLease = o.queue().holdLease(turnId, endedElsewhere);
    let unwatch = () => {};
    let outcome: TurnOutcome;
    try {
      // Another process may stop this turn or answer its questions: follow the thread.
      if (o.store.shared) {
        unwatch = (
          await o.events.subscribe(threadId, null, (live) =>
            this.#onOwnThreadEvent(turnId, live.event),
          )
        ).unsubscribe;
      }
      const ctx: ProviderTurnContext = {
        threadId,
        turnId,
        input,
        history: await this.#historyFor(threadId, turnId),
        signal: controller.signal,
        startMessage: (kind) => storableWriter(writer.startMessage(kind)),
        requestUserInput: (questions) =>
          o.questions.request(threadId, turnId, questions, deadlines, controller.signal, (w) =>
            guardTurn(w, turnId, o.queue().owner),
          ),
      };
      deadlines.start();
      // Never wait on an adapter that ignores its signal: a stop settles the turn at once.
      await Promise.race([o.adapter.runTurn(ctx), rejectWhenAborted(controller.signal)]);
      outcome = controller.signal.aborted ? stopOutcome(controller.signal) : COMPLETED;
    } catch (error) {
      outcome = controller.signal.aborted
        ? stopOutcome(controller.signal)
        : failureOutcome(error, isStorageFault(error));
    } finally {
      deadlines.stop();
      writer.close();
    }
    try {
      await this.#finishTurn(threadId, turnId, writer, outcome);
    } finally {
      releaseLease();
      unwatch();
      this.#running.delete(turnId);
      o.questions.cancelWaitersOfTurn(turnId);
      settle();
    }
  }

  /** Events of a thread this process runs a turn of, from any process. */
  #onOwnThreadEvent(turnId: string, event: ServerEvent): void {
    if (event.type === "turn.updated" && event.turn.id === turnId && !isTurnRunning(event.turn)) {
      // Recorded as ended by another process (Stop there, or our lease expired).
      this.#running.get(turnId)?.endedElsewhere();
    }
    if (event.type === "user_input.resolved") {
      this.#o.questions.resolvedElsewhere(turnId, event.requestId);
    }
  }

  /** History for a turn, as the adapter contract names it (user inputs and final answers). */
  async #historyFor(threadId: string, turnId: string): Promise<ProviderHistoryEntry[]> {
    const { store, history } = this.#o;
    const promptSeq = (await store.getTurnPromptSeq(turnId)) ?? Number.MAX_SAFE_INTEGER;
    return (await store.historyBefore(threadId, promptSeq, history)).flatMap(toHistoryEntries);
  }

  /**
   * Records the turn's end now, or as soon as storage accepts it, then lets the thread's next
   * turn start.
   */
  async #finishTurn(
    threadId: string,
    turnId: string,
    writer: TurnWriter | null,
    outcome: TurnOutcome,
  ): Promise<void> {
    const o = this.#o;
    if (outcome.status === "failed") {
      o.logger.warn(
        `Turn ${turnId} of thread ${threadId} failed (${outcome.error?.code}): ${outcome.error?.message}`,
      );
    }
    await writer?.flushBeforeFinish();
    await o.retry.run(async () => {
      if (o.closed()) return;
      await o.events.atomically(async (w) => {
        // Lost to another process (or ended there): that process records the turn.
        if (!(await w.tx.holdsTurn(turnId, o.queue().owner))) return;
        await recordOutcome(w, { threadId, turnId }, writer, outcome, o.now);
      });
      writer?.markFinished();
      o.queue().pump(threadId);
    });
  }
}

function toHistoryEntries(turn: HistoryTurn): ProviderHistoryEntry[] {
  const entries: ProviderHistoryEntry[] = [{ role: "user", text: turn.input }];
  if (turn.answer !== null) entries.push({ role: "assistant", text: turn.answer });
  return entries;
}

/** Rejects once `signal` aborts (never resolves), to race an adapter that ignores it. */
function rejectWhenAborted(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    if (signal.aborted) reject(signal.reason);
    else signal.addEventListener("abort", () => reject(signal.reason), { once: true });
  });
}
