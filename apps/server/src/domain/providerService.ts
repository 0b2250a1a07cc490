/**
 * ProviderService: the one path from a user's prompt to a model provider.
 *
 * Rules it enforces (spec "Provider input and titles", DESIGN.md sections 5 and 7):
 * - the stored user message is the input exactly as sent, citation links intact;
 * - `expandAssistantCitationsForProvider` runs once per turn, before any adapter sees the input,
 *   so adapters only ever see markers plus one `<assistant_citations>` block;
 * - the raw (trimmed) and the expanded input are both checked against the 120,000-character
 *   limit; over it, nothing is stored and no adapter is called;
 * - user-input answers reach the adapter raw: no expansion, no limit;
 * - turns of one thread run one at a time, in the order they were sent, whichever process
 *   stored them: the queue is the database's (see {@link TurnQueue}); a process runs a turn
 *   under a lease it renews, and a turn whose lease expires is ended `failed` (interrupted);
 * - a turn ends `completed`, `cancelled` (Stop; its partial reply is kept) or `failed` with a
 *   visible error: the adapter failed, went silent (PROVIDER_IDLE_TIMEOUT_MS), ran too long
 *   (PROVIDER_TURN_TIMEOUT_MS), wrote too much (MAX_REPLY_CHARS) or storage failed;
 * - a stopped turn never waits for its adapter: the next queued turn starts at once;
 * - storage faults never end the process: a final state that cannot be written waits in
 *   {@link StorageRetry} until it can.
 *
 * It sends and runs turns; questions to the user are {@link UserInputRequests}', and the record
 * of how a turn ended is `turnOutcome.ts`'s.
 */
import { randomUUID } from "node:crypto";
import { checkProviderInput, PROVIDER_INPUT_MAX_CHARS } from "@app/citations";
import type { SendTurnResponse, ServerEvent, Turn } from "@app/protocol";
import { type Logger, silentLogger } from "../logger.ts";
import type {
  ProviderAdapter,
  ProviderHistoryEntry,
  ProviderTurnContext,
} from "../providers/types.ts";
import type { ChatStore, HistoryBudget, HistoryTurn } from "../storage/chatStore.ts";
import { isStorageFault } from "../storage/storageErrors.ts";
import { deriveThreadNames } from "../titles.ts";
import { recordCitations, threadsWrittenBy } from "./backlinks.ts";
import { DomainError, threadNotFound } from "./errors.ts";
import type { ThreadEventLog } from "./events.ts";
import { storableWriter } from "./providerText.ts";
import { StorageRetry } from "./storageRetry.ts";
import { TurnDeadlines } from "./turnDeadlines.ts";
import {
  CANCELLED,
  COMPLETED,
  deadlineStop,
  failureOutcome,
  finishStoredMessages,
  isUnfinished,
  recordInterrupted,
  recordOutcome,
  stopOutcome,
  type TurnOutcome,
} from "./turnOutcome.ts";
import { TurnQueue } from "./turnQueue.ts";
import { TurnStop } from "./turnStop.ts";
import { TurnWriter } from "./turnWriter.ts";
import { type UserInputAnswerResult, UserInputRequests } from "./userInputRequests.ts";

export type { UserInputAnswerResult };

/** Defaults of the limits (DESIGN.md section 7; env vars of the same names in config.ts). */
export const DEFAULT_PROVIDER_IDLE_TIMEOUT_MS = 60_000;
export const DEFAULT_PROVIDER_TURN_TIMEOUT_MS = 600_000;
export const DEFAULT_MAX_REPLY_CHARS = 1_000_000;
/**
 * History policy: the newest earlier turns, whole, at most 50 of them and at most 480,000
 * characters (4 x the input limit) of inputs plus answers together.
 */
export const DEFAULT_HISTORY_BUDGET: HistoryBudget = {
  maxTurns: 50,
  maxChars: 4 * PROVIDER_INPUT_MAX_CHARS,
};
const STORAGE_RETRY_MS = 2_000;
/** TURN_LEASE_MS default: a turn whose process stops renewing is taken over after this. */
export const DEFAULT_TURN_LEASE_MS = 30_000;

/** Construction options of {@link ProviderService}. */
export interface ProviderServiceOptions {
  store: ChatStore;
  events: ThreadEventLog;
  adapter: ProviderAdapter;
  /** Clock for stored timestamps (ISO-8601). */
  now?: () => string;
  /** Which earlier turns an adapter receives as history (default {@link DEFAULT_HISTORY_BUDGET}). */
  history?: HistoryBudget;
  /** A turn whose provider sends nothing for this long fails (default 60,000 ms). */
  idleTimeoutMs?: number;
  /** A turn running longer than this fails (default 600,000 ms; time waiting for the user excluded). */
  turnTimeoutMs?: number;
  /** Characters one turn's reply may hold (default 1,000,000). */
  maxReplyChars?: number;
  /** How often writes that hit a storage fault are tried again (default 2,000 ms). */
  storageRetryMs?: number;
  /** TURN_LEASE_MS: lease on a running turn, renewed every third of it (default 30,000 ms). */
  turnLeaseMs?: number;
  /** Where failed turns are logged (default: silent). */
  logger?: Logger;
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
const SHUTDOWN_GRACE_MS = 2_000;

export class ProviderService {
  readonly #store: ChatStore;
  readonly #events: ThreadEventLog;
  readonly #adapter: ProviderAdapter;
  readonly #now: () => string;
  readonly #history: HistoryBudget;
  readonly #idleTimeoutMs: number;
  readonly #turnTimeoutMs: number;
  readonly #maxReplyChars: number;
  readonly #retry: StorageRetry;
  readonly #queue: TurnQueue;
  readonly #logger: Logger;
  readonly #running = new Map<string, RunningTurn>();
  readonly #questions: UserInputRequests;
  readonly #ready: Promise<void>;
  #closing = false;
  #closed = false;

  constructor(options: ProviderServiceOptions) {
    this.#store = options.store;
    this.#events = options.events;
    this.#adapter = options.adapter;
    this.#now = options.now ?? (() => new Date().toISOString());
    this.#history = options.history ?? DEFAULT_HISTORY_BUDGET;
    this.#idleTimeoutMs = options.idleTimeoutMs ?? DEFAULT_PROVIDER_IDLE_TIMEOUT_MS;
    this.#turnTimeoutMs = options.turnTimeoutMs ?? DEFAULT_PROVIDER_TURN_TIMEOUT_MS;
    this.#maxReplyChars = options.maxReplyChars ?? DEFAULT_MAX_REPLY_CHARS;
    this.#logger = options.logger ?? silentLogger;
    this.#retry = new StorageRetry(options.storageRetryMs ?? STORAGE_RETRY_MS, this.#logger);
    this.#questions = new UserInputRequests({
      store: this.#store,
      events: this.#events,
      now: this.#now,
      logger: this.#logger,
    });
    const leaseMs = options.turnLeaseMs ?? DEFAULT_TURN_LEASE_MS;
    this.#queue = new TurnQueue({
      store: this.#store,
      events: this.#events,
      leaseMs,
      run: (threadId, turnId, input) => this.#runTurn(threadId, turnId, input),
      interrupt: (w, turn) => recordInterrupted(w, turn, this.#now),
    });
    // SQLite: this process owns the file, so every unfinished turn was cut off by the last one
    // (on a full disk this waits in the retry queue instead of failing the start). A shared
    // database: other processes may be running turns right now; expired leases tell.
    // Turns are claimed only once that recovery is recorded, never before.
    const startClaiming = () => {
      if (!this.#closing) this.#queue.startClaiming(Math.min(leaseMs / 3, 5_000));
    };
    this.#ready = this.#store.shared
      ? Promise.resolve().then(startClaiming)
      : this.#retry.run(async () => {
          await this.#failInterruptedTurns();
          startClaiming();
        });
  }

  /** Resolves once turns left by a previous process are recovered (or waiting for storage). */
  ready(): Promise<void> {
    return this.#ready;
  }

  /** Name of the adapter turns are routed to (`demo`, `openai`, ...). */
  get providerName(): string {
    return this.#adapter.name;
  }

  /** Number of final writes waiting for storage to come back (diagnostics and tests). */
  get writesWaitingForStorage(): number {
    return this.#retry.waiting;
  }

  /** Tries the writes waiting for storage now instead of at the next retry (tests). */
  retryStorageNow(): Promise<void> {
    return this.#retry.retryNow();
  }

  /**
   * Validates, stores and queues a turn. Resolves as soon as the prompt is stored; the reply
   * arrives through the thread's events. Throws {@link DomainError} (`thread_not_found`,
   * `empty_input`, `input_too_long`, `shutting_down`) without storing anything.
   */
  async sendTurn(threadId: string, input: string): Promise<SendTurnResponse> {
    if (this.#closing) throw shuttingDown();
    const record = await this.#store.getThread(threadId);
    if (!record) throw threadNotFound(threadId);
    const trimmed = input.trim();
    if (trimmed === "") {
      throw new DomainError("empty_input", "The message is empty. Type something to send.");
    }
    // The kernel owns the limit and its message, and expands once.
    const check = checkProviderInput(trimmed);
    if (!check.ok) {
      const { length, excess } = check;
      throw new DomainError("input_too_long", check.message, {
        length,
        excess,
        limit: PROVIDER_INPUT_MAX_CHARS,
      });
    }
    const providerInput = check.providerInput;

    const now = this.#now();
    const threads = threadsWrittenBy(threadId, input, this.#store.environmentId);
    const result = await this.#events.atomically(async (w) => {
      // Only a prompt citing other threads writes to more than its own.
      if (threads.length > 1) await w.tx.lockThreads(threads);
      const isFirstPrompt = !(await w.tx.hasTurns(threadId));
      const stored = await w.tx.insertTurnWithPrompt({
        threadId,
        turnId: randomUUID(),
        messageId: randomUUID(),
        text: input,
        providerInput,
        now,
      });
      await w.publish(threadId, { type: "message.created", message: stored.message });
      await w.publish(threadId, { type: "turn.updated", turn: stored.turn });
      await recordCitations(w, stored.message, this.#store.environmentId);
      if (isFirstPrompt) {
        const named = record.titleSource === "default";
        const names = deriveThreadNames(trimmed);
        const thread = await w.tx.setThreadTitle({
          id: threadId,
          title: named ? names.title : record.thread.title,
          titleSource: named ? "prompt" : "custom",
          branchName: names.branchName,
          now,
        });
        await w.publish(threadId, { type: "thread.updated", thread });
      }
      return stored;
    });
    this.#queue.pump(threadId);
    return result;
  }

  /**
   * Answers a pending user-input request ({@link UserInputRequests.answer}). The answers reach
   * the adapter exactly as given, in whichever process runs the turn. Throws `shutting_down`,
   * `thread_not_found`, `user_input_request_not_found` (404),
   * `user_input_request_resolved` (409) or `invalid_request` (400, unknown question ids).
   */
  async answerUserInput(
    threadId: string,
    requestId: string,
    answers: Record<string, string>,
  ): Promise<UserInputAnswerResult> {
    if (this.#closing) throw shuttingDown();
    return this.#questions.answer(threadId, requestId, answers);
  }

  /**
   * Stops a turn (the **Stop** button): a running one has its adapter aborted and keeps its
   * partial reply; a queued one never runs. Either way it ends `cancelled` and the thread's
   * next turn starts. A turn running in another process is recorded `cancelled` here (with
   * its reply as stored so far) and that process stops it. Stopping a cancelled turn again
   * returns it unchanged.
   * Throws `thread_not_found`, `turn_not_found` (404) or `turn_not_running` (409).
   */
  async cancelTurn(threadId: string, turnId: string): Promise<Turn> {
    if (!(await this.#store.getThread(threadId))) throw threadNotFound(threadId);
    const turn = await this.#store.getTurn(turnId);
    if (!turn || turn.threadId !== threadId) {
      throw new DomainError("turn_not_found", `Turn "${turnId}" is not in this thread.`);
    }
    if (turn.status === "cancelled") return turn;
    if (!isUnfinished(turn)) {
      throw new DomainError(
        "turn_not_running",
        `Turn "${turnId}" has already ended (${turn.status}); there is nothing to stop.`,
      );
    }
    const running = this.#running.get(turnId);
    if (running) {
      running.stop(new TurnStop("cancelled_by_user", "Stopped by the user."));
      await running.settled;
    } else {
      await this.#events.atomically(async (w) => {
        // Under the queue lock, so no process claims it meanwhile.
        await w.tx.lockTurnQueue(threadId);
        if (!isUnfinished(await w.tx.getTurn(turnId))) return;
        await finishStoredMessages(w, threadId, turnId, "complete");
        await recordOutcome(w, { threadId, turnId }, null, CANCELLED, this.#now);
      });
      this.#queue.pump(threadId);
    }
    const after = (await this.#store.getTurn(turnId))!;
    if (isUnfinished(after)) {
      throw new DomainError(
        "storage_unavailable",
        "The turn was stopped, but storage is unavailable; its state is saved once it is back.",
      );
    }
    return after;
  }

  /** Resolves when no turn of this process is queued or running (tests, benchmarks, shutdown). */
  whenIdle(): Promise<void> {
    return this.#queue.whenIdle();
  }

  /**
   * Stops accepting and claiming turns, aborts running ones (they fail with `cancelled`), and
   * waits briefly for them to be recorded. Queued turns stay queued, for the next start or
   * another process. Turns still unsettled are marked interrupted on the next start (SQLite)
   * or once their lease expires (a shared database).
   */
  async close(): Promise<void> {
    if (this.#closing) return;
    this.#closing = true;
    this.#queue.stopClaiming();
    for (const running of this.#running.values()) {
      running.stop(
        new TurnStop("shutdown", "The turn was cancelled because the server shut down."),
      );
    }
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      this.#ready.then(() => this.whenIdle()),
      new Promise((resolve) => {
        timer = setTimeout(resolve, SHUTDOWN_GRACE_MS);
      }),
    ]);
    clearTimeout(timer);
    this.#queue.stopClaiming();
    this.#retry.close();
    this.#questions.close();
    this.#closed = true;
  }

  /** Runs one claimed turn through the adapter. Never rejects: every ending is recorded. */
  async #runTurn(threadId: string, turnId: string, input: string): Promise<void> {
    const controller = new AbortController();
    const stop = (reason: TurnStop) => {
      if (!controller.signal.aborted) controller.abort(reason);
    };
    const deadlines = new TurnDeadlines({
      idleMs: this.#idleTimeoutMs,
      turnMs: this.#turnTimeoutMs,
      onExpire: (which) => stop(deadlineStop(which, this.#idleTimeoutMs, this.#turnTimeoutMs)),
    });
    const writer = new TurnWriter({
      threadId,
      turnId,
      events: this.#events,
      now: this.#now,
      maxReplyChars: this.#maxReplyChars,
      onActivity: () => deadlines.touch(),
      onStop: stop,
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
    const releaseLease = this.#queue.holdLease(turnId, endedElsewhere);
    let unwatch = () => {};
    let outcome: TurnOutcome;
    try {
      // Another process may stop this turn or answer its questions: follow the thread.
      if (this.#store.shared) {
        unwatch = (
          await this.#events.subscribe(threadId, null, (live) =>
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
          this.#questions.request(threadId, turnId, questions, deadlines, controller.signal),
      };
      deadlines.start();
      // Never wait on an adapter that ignores its signal: a stop settles the turn at once.
      await Promise.race([this.#adapter.runTurn(ctx), rejectWhenAborted(controller.signal)]);
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
      this.#questions.cancelWaitersOfTurn(turnId);
      settle();
    }
  }

  /** Events of a thread this process runs a turn of, from any process. */
  #onOwnThreadEvent(turnId: string, event: ServerEvent): void {
    if (event.type === "turn.updated" && event.turn.id === turnId && !isUnfinished(event.turn)) {
      // Recorded as ended by another process (Stop there, or our lease expired).
      this.#running.get(turnId)?.endedElsewhere();
    }
    if (event.type === "user_input.resolved") {
      this.#questions.resolvedElsewhere(turnId, event.requestId);
    }
  }

  /** History for a turn, as the adapter contract names it (user inputs and final answers). */
  async #historyFor(threadId: string, turnId: string): Promise<ProviderHistoryEntry[]> {
    const promptSeq = (await this.#store.getTurnPromptSeq(turnId)) ?? Number.MAX_SAFE_INTEGER;
    return (await this.#store.historyBefore(threadId, promptSeq, this.#history)).flatMap(
      toHistoryEntries,
    );
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
    if (outcome.status === "failed") {
      this.#logger.warn(
        `Turn ${turnId} of thread ${threadId} failed (${outcome.error?.code}): ${outcome.error?.message}`,
      );
    }
    await writer?.settled();
    await this.#retry.run(async () => {
      if (this.#closed) return;
      await this.#events.atomically((w) =>
        recordOutcome(w, { threadId, turnId }, writer, outcome, this.#now),
      );
      writer?.markFinished();
      this.#queue.pump(threadId);
    });
  }

  /**
   * SQLite: the previous process stopped mid-turn; fail every turn it had started. Turns it
   * never started stay queued and run in order once claiming starts.
   */
  async #failInterruptedTurns(): Promise<void> {
    await this.#events.atomically(async (w) => {
      for (const turn of await w.tx.startedUnfinishedTurns()) {
        await recordInterrupted(w, turn, this.#now);
      }
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

function shuttingDown(): DomainError {
  return new DomainError("shutting_down", "The server is shutting down. Try again shortly.");
}
