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
 * It sends, stops and queues turns; the run loop (deadlines, history, recording the end) is
 * {@link TurnRunner}'s, questions to the user are {@link UserInputRequests}', and the record of
 * how a turn ended is `turnOutcome.ts`'s. Options and defaults: `providerOptions.ts`.
 */

import { checkProviderInput, PROVIDER_INPUT_MAX_CHARS } from "@app/citations";
import { isTurnRunning, type SendTurnResponse, type Turn } from "@app/protocol";
import { type Logger, silentLogger } from "../logger.ts";
import type { ProviderAdapter } from "../providers/types.ts";
import type { ChatStore } from "../storage/chatStore.ts";
import { deriveThreadNames } from "../titles.ts";
import { recordCitations, threadsWrittenBy } from "./backlinks.ts";
import { checkCitationText } from "./citationText.ts";
import { type Clock, type ClockTimer, realClock } from "./clock.ts";
import { DomainError, threadNotFound } from "./errors.ts";
import type { ThreadEventLog } from "./events.ts";
import { newId } from "./ids.ts";
import {
  DEFAULT_HISTORY_BUDGET,
  DEFAULT_MAX_REPLY_CHARS,
  DEFAULT_PROVIDER_IDLE_TIMEOUT_MS,
  DEFAULT_PROVIDER_TURN_TIMEOUT_MS,
  DEFAULT_TURN_LEASE_MS,
  type ProviderServiceOptions,
  STORAGE_RETRY_MS,
} from "./providerOptions.ts";
import { StorageRetry } from "./storageRetry.ts";
import {
  CANCELLED,
  finishStoredMessages,
  recordInterrupted,
  recordOutcome,
} from "./turnOutcome.ts";
import { TurnQueue } from "./turnQueue.ts";
import { TurnRunner } from "./turnRunner.ts";
import { TurnStop } from "./turnStop.ts";
import { type UserInputAnswerResult, UserInputRequests } from "./userInputRequests.ts";

export {
  DEFAULT_HISTORY_BUDGET,
  DEFAULT_MAX_REPLY_CHARS,
  DEFAULT_PROVIDER_IDLE_TIMEOUT_MS,
  DEFAULT_PROVIDER_TURN_TIMEOUT_MS,
  DEFAULT_TURN_LEASE_MS,
  type ProviderServiceOptions,
} from "./providerOptions.ts";
export type { UserInputAnswerResult };

const SHUTDOWN_GRACE_MS = 2_000;

export class ProviderService {
  readonly #store: ChatStore;
  readonly #events: ThreadEventLog;
  readonly #adapter: ProviderAdapter;
  readonly #now: () => string;
  readonly #retry: StorageRetry;
  readonly #queue: TurnQueue;
  readonly #runner: TurnRunner;
  readonly #questions: UserInputRequests;
  readonly #logger: Logger;
  readonly #clock: Clock;
  readonly #ready: Promise<void>;
  #closing = false;
  #closed = false;

  constructor(options: ProviderServiceOptions) {
    this.#store = options.store;
    this.#events = options.events;
    this.#adapter = options.adapter;
    this.#now = options.now ?? (() => new Date().toISOString());
    const logger = options.logger ?? silentLogger;
    this.#logger = logger;
    const clock = options.clock ?? realClock;
    this.#clock = clock;
    this.#retry = new StorageRetry(options.storageRetryMs ?? STORAGE_RETRY_MS, logger, clock);
    this.#questions = new UserInputRequests({
      store: this.#store,
      events: this.#events,
      now: this.#now,
      logger,
    });
    this.#runner = new TurnRunner({
      store: this.#store,
      events: this.#events,
      adapter: this.#adapter,
      now: this.#now,
      clock,
      history: options.history ?? DEFAULT_HISTORY_BUDGET,
      idleTimeoutMs: options.idleTimeoutMs ?? DEFAULT_PROVIDER_IDLE_TIMEOUT_MS,
      turnTimeoutMs: options.turnTimeoutMs ?? DEFAULT_PROVIDER_TURN_TIMEOUT_MS,
      maxReplyChars: options.maxReplyChars ?? DEFAULT_MAX_REPLY_CHARS,
      retry: this.#retry,
      logger,
      questions: this.#questions,
      queue: () => this.#queue,
      closed: () => this.#closed,
    });
    const leaseMs = options.turnLeaseMs ?? DEFAULT_TURN_LEASE_MS;
    this.#queue = new TurnQueue({
      store: this.#store,
      events: this.#events,
      leaseMs,
      clock,
      run: (threadId, turnId, input) => this.#runner.run(threadId, turnId, input),
      interrupt: async (w, turn) => {
        await recordInterrupted(w, turn, this.#now);
        logInterrupted(logger, turn);
      },
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
  async sendTurn(
    threadId: string,
    input: string,
    options: { versionOf?: string } = {},
  ): Promise<SendTurnResponse> {
    if (this.#closing) throw shuttingDown();
    const record = await this.#store.getThread(threadId);
    if (!record) throw threadNotFound(threadId);
    const trimmed = input.trim();
    if (trimmed === "") {
      throw new DomainError("empty_input", "The message is empty. Type something to send.");
    }
    checkCitationText(trimmed);
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
        turnId: newId(),
        messageId: newId(),
        text: input,
        providerInput,
        now,
        ...options,
      });
      await w.publish(threadId, { type: "message.created", message: stored.message });
      // An edit: the path shown now goes through the new version.
      if (options.versionOf) {
        await w.publish(threadId, { type: "thread.path", messageId: stored.message.id });
      }
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
   * Queues a turn that regenerates an answer (`conversationChanges.ts` checked it): its first
   * message becomes a new version of `regeneratesId`. Streams like any turn.
   */
  async regenerate(
    threadId: string,
    input: { sourceTurnId: string; regeneratesId: string; providerInput: string },
  ): Promise<Turn> {
    if (this.#closing) throw shuttingDown();
    const now = this.#now();
    const turn = await this.#events.atomically(async (w) => {
      const queued = await w.tx.insertRegenerateTurn({
        threadId,
        turnId: newId(),
        ...input,
        now,
      });
      await w.publish(threadId, { type: "turn.updated", turn: queued });
      return queued;
    });
    this.#queue.pump(threadId);
    return turn;
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
    if (!isTurnRunning(turn)) {
      throw new DomainError(
        "turn_not_running",
        `Turn "${turnId}" has already ended (${turn.status}); there is nothing to stop.`,
      );
    }
    const stopped = await this.#runner.stop(
      turnId,
      new TurnStop("cancelled_by_user", "Stopped by the user."),
    );
    if (!stopped) {
      await this.#events.atomically(async (w) => {
        // Under the queue lock, so no process claims it meanwhile.
        await w.tx.lockTurnQueue(threadId);
        // Before any other row: the process running it locks the turn first too (turnLease.ts).
        await w.tx.lockTurn(turnId);
        if (!isTurnRunning(await w.tx.getTurn(turnId))) return;
        await finishStoredMessages(w, threadId, turnId, "complete");
        await recordOutcome(w, { threadId, turnId }, null, CANCELLED, this.#now);
      });
      this.#queue.pump(threadId);
    }
    const after = (await this.#store.getTurn(turnId))!;
    if (isTurnRunning(after)) {
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
    this.#runner.stopAll(
      new TurnStop("shutdown", "The turn was cancelled because the server shut down."),
    );
    let timer: ClockTimer | undefined;
    await Promise.race([
      this.#ready.then(() => this.whenIdle()),
      new Promise<void>((resolve) => {
        timer = this.#clock.setTimeout(resolve, SHUTDOWN_GRACE_MS);
      }),
    ]);
    this.#clock.clearTimeout(timer);
    this.#queue.stopClaiming();
    this.#retry.close();
    this.#questions.close();
    this.#closed = true;
  }

  /**
   * SQLite: the previous process stopped mid-turn; fail every turn it had started. Turns it
   * never started stay queued and run in order once claiming starts.
   */
  async #failInterruptedTurns(): Promise<void> {
    const interrupted = await this.#events.atomically(async (w) => {
      const turns = await w.tx.startedUnfinishedTurns();
      for (const turn of turns) await recordInterrupted(w, turn, this.#now);
      return turns;
    });
    for (const turn of interrupted) logInterrupted(this.#logger, turn);
  }
}

/** Every failed turn is logged (README), interrupted ones too (issue 29). */
function logInterrupted(logger: Logger, turn: Turn): void {
  logger.warn(
    `Turn ${turn.id} of thread ${turn.threadId} failed (interrupted): the process running it stopped before it finished.`,
  );
}

function shuttingDown(): DomainError {
  return new DomainError("shutting_down", "The server is shutting down. Try again shortly.");
}
