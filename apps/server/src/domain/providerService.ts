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
 */
import { randomUUID } from "node:crypto";
import { checkProviderInput, PROVIDER_INPUT_MAX_CHARS } from "@app/citations";
import type { SendTurnResponse, ServerEvent, Turn, TurnErrorCode, TurnStatus } from "@app/protocol";
import { UserInputQuestionSchema } from "@app/protocol";
import { z } from "zod";
import { type Logger, silentLogger } from "../logger.ts";
import type {
  ProviderAdapter,
  ProviderHistoryEntry,
  ProviderTurnContext,
  UserInputQuestion,
} from "../providers/types.ts";
import type { ChatStore, HistoryBudget, HistoryTurn } from "../storage/chatStore.ts";
import { isStorageFault } from "../storage/storageErrors.ts";
import { deriveThreadNames } from "../titles.ts";
import { DomainError, threadNotFound } from "./errors.ts";
import type { EventTx, ThreadEventLog } from "./events.ts";
import { StorageRetry } from "./storageRetry.ts";
import { TurnDeadlines } from "./turnDeadlines.ts";
import { TurnQueue } from "./turnQueue.ts";
import { TurnStop } from "./turnStop.ts";
import { TurnWriter } from "./turnWriter.ts";

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

/** Result of answering a pending user-input request. */
export interface UserInputAnswerResult {
  requestId: string;
  turn: Turn;
}

/** How a turn ended. */
type TurnOutcome = {
  status: Extract<TurnStatus, "completed" | "failed" | "cancelled">;
  error: { code: TurnErrorCode; message: string } | null;
};
/** A turn that is running in this process. */
type RunningTurn = {
  threadId: string;
  stop(reason: TurnStop): void;
  /** Another process ended the turn (Stop sent there, or our lease was taken over). */
  endedElsewhere(): void;
  /** Resolves once the turn's end is handled (recorded, or waiting for storage). */
  settled: Promise<void>;
};
type Waiter = {
  threadId: string;
  turnId: string;
  /** This process is recording the answers (so the event that follows is not news). */
  answeredHere: boolean;
  resolve: (answers: Record<string, string>) => void;
  reject: (reason: unknown) => void;
};

const QuestionsSchema = z.array(UserInputQuestionSchema).min(1);
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
  readonly #waiters = new Map<string, Waiter>();
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
    const leaseMs = options.turnLeaseMs ?? DEFAULT_TURN_LEASE_MS;
    this.#queue = new TurnQueue({
      store: this.#store,
      events: this.#events,
      leaseMs,
      run: (threadId, turnId, input) => this.#runTurn(threadId, turnId, input),
      interrupt: (w, turn) => this.#recordInterrupted(w, turn),
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
    const result = await this.#events.atomically(async (w) => {
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
   * Answers a pending user-input request. The answers reach the adapter exactly as given,
   * in whichever process runs the turn.
   * Throws `thread_not_found`, `user_input_request_not_found` (404),
   * `user_input_request_resolved` (409) or `invalid_request` (400, unknown question ids).
   */
  async answerUserInput(
    threadId: string,
    requestId: string,
    answers: Record<string, string>,
  ): Promise<UserInputAnswerResult> {
    if (this.#closing) throw shuttingDown();
    if (!(await this.#store.getThread(threadId))) throw threadNotFound(threadId);
    const record = await this.#store.getUserInputRequest(requestId);
    if (!record || record.request.threadId !== threadId) {
      throw new DomainError(
        "user_input_request_not_found",
        `No user-input request "${requestId}" exists on this thread.`,
      );
    }
    const waiter = this.#waiters.get(requestId);
    // Without a waiter here, the turn must be running in another process that waits for it.
    const waitedElsewhere =
      !waiter &&
      this.#store.shared &&
      isUnfinished(await this.#store.getTurn(record.request.turnId));
    if (record.status !== "pending" || (!waiter && !waitedElsewhere)) {
      throw resolvedAlready(requestId);
    }
    // Own properties only, into an object without a prototype: an answer keyed "constructor"
    // or "toString" is just an answer, and a missing one never reads Object.prototype.
    const own: Record<string, string> = Object.create(null);
    for (const key of Object.keys(answers)) own[key] = answers[key]!;
    answers = own;
    const questionIds = new Set(record.request.questions.map((q) => q.id));
    const unknown = Object.keys(answers).filter((key) => !questionIds.has(key));
    if (unknown.length > 0) {
      throw new DomainError(
        "invalid_request",
        `Answers name unknown questions: ${unknown.map((k) => JSON.stringify(k)).join(", ")}.`,
      );
    }
    const now = this.#now();
    if (waiter) waiter.answeredHere = true;
    let turn: Turn;
    try {
      turn = await this.#events.atomically(async (w) => {
        const resolved = await w.tx.resolveUserInputRequest({
          id: requestId,
          status: "answered",
          answers,
          now,
        });
        if (!resolved) throw resolvedAlready(requestId);
        await w.publish(threadId, { type: "user_input.resolved", requestId });
        const updated = await w.tx.updateTurn({ id: record.request.turnId, status: "running" });
        await w.publish(threadId, { type: "turn.updated", turn: updated });
        return updated;
      });
    } catch (error) {
      if (waiter) waiter.answeredHere = false;
      throw error;
    }
    if (waiter) {
      this.#waiters.delete(requestId);
      waiter.resolve({ ...answers });
    }
    return { requestId, turn };
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
        await this.#finishStoredMessages(w, threadId, turnId, "complete");
        await this.#recordOutcome(w, threadId, turnId, null, CANCELLED);
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
   * Stops accepting turns, aborts running ones (they fail with `cancelled`), and waits briefly
   * for them to be recorded. Turns still unsettled are marked interrupted on the next start
   * (SQLite) or once their lease expires (a shared database, where queued turns are left to
   * the other processes).
   */
  async close(): Promise<void> {
    if (this.#closing) return;
    this.#closing = true;
    if (this.#store.shared) this.#queue.stopClaiming();
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
    this.#closed = true;
  }

  /** Runs one claimed turn through the adapter. Never rejects: every ending is recorded. */
  async #runTurn(threadId: string, turnId: string, input: string): Promise<void> {
    if (this.#closed) return;
    if (this.#closing) {
      await this.#finishTurn(threadId, turnId, null, {
        status: "failed",
        error: { code: "cancelled", message: "The server shut down before this turn ran." },
      });
      return;
    }
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
        startMessage: (kind) => writer.startMessage(kind),
        requestUserInput: (questions) =>
          this.#requestUserInput(threadId, turnId, questions, deadlines, controller.signal),
      };
      deadlines.start();
      // Never wait on an adapter that ignores its signal: a stop settles the turn at once.
      await Promise.race([this.#adapter.runTurn(ctx), rejectWhenAborted(controller.signal)]);
      outcome = controller.signal.aborted ? stopOutcome(controller.signal) : COMPLETED;
    } catch (error) {
      outcome = controller.signal.aborted
        ? stopOutcome(controller.signal)
        : isStorageFault(error)
          ? (new TurnStop("storage_unavailable", storageMessage(error)).outcome() as TurnOutcome)
          : {
              status: "failed",
              error: { code: "provider_error", message: providerErrorMessage(error) },
            };
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
      this.#cancelWaitersOfTurn(turnId);
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
      const waiter = this.#waiters.get(event.requestId);
      if (!waiter || waiter.turnId !== turnId || waiter.answeredHere) return;
      // Answered through another process: the answers are in the database.
      void this.#store.getUserInputRequest(event.requestId).then(
        (record) => {
          if (record?.status !== "answered" || this.#waiters.get(event.requestId) !== waiter) {
            return;
          }
          this.#waiters.delete(event.requestId);
          waiter.resolve({ ...record.answers });
        },
        (error: unknown) => this.#logger.error("Reading answers failed:", error),
      );
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
        this.#recordOutcome(w, threadId, turnId, writer, outcome),
      );
      writer?.markFinished();
      this.#queue.pump(threadId);
    });
  }

  /**
   * Inside a transaction: messages finished, questions cancelled, error notice, turn status.
   * Does nothing for a turn that has already ended (e.g. stopped through another process).
   */
  async #recordOutcome(
    w: EventTx,
    threadId: string,
    turnId: string,
    writer: TurnWriter | null,
    outcome: TurnOutcome,
  ): Promise<void> {
    if (!isUnfinished(await w.tx.getTurn(turnId))) return;
    await writer?.finishAll(w, outcome.status === "failed" ? "error" : "complete");
    await this.#cancelPendingRequests(w, threadId, turnId);
    const now = this.#now();
    if (outcome.error !== null) {
      const notice = await w.tx.insertAssistantMessage({
        id: randomUUID(),
        threadId,
        turnId,
        kind: "error",
        text: outcome.error.message,
        status: "complete",
        now,
      });
      await w.publish(threadId, { type: "message.created", message: notice });
    }
    const turn = await w.tx.updateTurn({
      id: turnId,
      status: outcome.status,
      error: outcome.error,
      completedAt: now,
    });
    await w.publish(threadId, { type: "turn.updated", turn });
  }

  #requestUserInput(
    threadId: string,
    turnId: string,
    questions: UserInputQuestion[],
    deadlines: TurnDeadlines,
    signal: AbortSignal,
  ): Promise<Record<string, string>> {
    const parsed = QuestionsSchema.safeParse(questions);
    if (!parsed.success) {
      return Promise.reject(
        new TypeError(`requestUserInput: invalid questions (${parsed.error.issues[0]?.message}).`),
      );
    }
    const questionIds = new Set(parsed.data.map((q) => q.id));
    if (questionIds.size !== parsed.data.length) {
      return Promise.reject(new TypeError("requestUserInput: question ids must be unique."));
    }
    if (signal.aborted || this.#closed) {
      return Promise.reject(new Error("requestUserInput: the turn has finished."));
    }
    const requestId = randomUUID();
    return new Promise<Record<string, string>>((resolve, reject) => {
      // Waiting before the request is stored, so an answer can never arrive unheard.
      deadlines.pause();
      this.#waiters.set(requestId, {
        threadId,
        turnId,
        answeredHere: false,
        resolve: (answers) => {
          deadlines.start();
          resolve(answers);
        },
        reject,
      });
      signal.addEventListener(
        "abort",
        () => {
          const waiter = this.#waiters.get(requestId);
          if (!waiter) return;
          this.#waiters.delete(requestId);
          waiter.reject(signal.reason);
        },
        { once: true },
      );
      this.#events
        .atomically(async (w) => {
          const request = await w.tx.insertUserInputRequest({
            id: requestId,
            threadId,
            turnId,
            questions: parsed.data,
            now: this.#now(),
          });
          await w.publish(threadId, { type: "user_input.requested", request });
          const turn = await w.tx.updateTurn({ id: turnId, status: "waiting_for_input" });
          await w.publish(threadId, { type: "turn.updated", turn });
        })
        .catch((error: unknown) => {
          this.#waiters.delete(requestId);
          deadlines.start();
          reject(error);
        });
    });
  }

  /** Rejects in-memory waiters of a finished turn; their rows are cancelled by the final record. */
  #cancelWaitersOfTurn(turnId: string): void {
    for (const [id, waiter] of this.#waiters) {
      if (waiter.turnId !== turnId) continue;
      this.#waiters.delete(id);
      waiter.reject(new Error("The turn finished before the question was answered."));
    }
  }

  async #cancelPendingRequests(w: EventTx, threadId: string, turnId: string): Promise<void> {
    for (const requestId of await w.tx.pendingUserInputIdsOfTurn(turnId)) {
      await w.tx.resolveUserInputRequest({
        id: requestId,
        status: "cancelled",
        answers: null,
        now: this.#now(),
      });
      await w.publish(threadId, { type: "user_input.resolved", requestId });
    }
  }

  /** A turn's streaming messages end with their stored text (deltas up to the last flush). */
  async #finishStoredMessages(
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
  async #recordInterrupted(w: EventTx, turn: Turn): Promise<void> {
    await this.#finishStoredMessages(w, turn.threadId, turn.id, "error");
    await this.#recordOutcome(w, turn.threadId, turn.id, null, INTERRUPTED);
  }

  /** SQLite: the previous process stopped mid-turn; fail every turn it left unfinished. */
  async #failInterruptedTurns(): Promise<void> {
    await this.#events.atomically(async (w) => {
      for (const turn of await w.tx.unfinishedTurns()) await this.#recordInterrupted(w, turn);
    });
  }
}

function isUnfinished(turn: Turn | null): boolean {
  return turn !== null && (turn.status === "running" || turn.status === "waiting_for_input");
}

function resolvedAlready(requestId: string): DomainError {
  return new DomainError(
    "user_input_request_resolved",
    `The user-input request "${requestId}" is no longer waiting for answers.`,
  );
}

const INTERRUPTED: TurnOutcome = {
  status: "failed",
  error: {
    code: "interrupted",
    message: "The server stopped before this turn finished. Send the message again to retry.",
  },
};
const COMPLETED: TurnOutcome = { status: "completed", error: null };
const CANCELLED: TurnOutcome = { status: "cancelled", error: null };

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

function stopOutcome(signal: AbortSignal): TurnOutcome {
  const reason: unknown = signal.reason;
  if (reason instanceof TurnStop) return reason.outcome() as TurnOutcome;
  return { status: "failed", error: { code: "cancelled", message: "The turn was aborted." } };
}

function deadlineStop(which: "idle" | "turn", idleMs: number, turnMs: number): TurnStop {
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

function shuttingDown(): DomainError {
  return new DomainError("shutting_down", "The server is shutting down. Try again shortly.");
}

function storageMessage(error: unknown): string {
  const detail = error instanceof Error ? ` ${error.message}` : "";
  return `The server could not read or save this turn, so it was stopped.${detail}`;
}

function providerErrorMessage(error: unknown): string {
  const detail = error instanceof Error ? error.message : String(error);
  return `The provider failed: ${detail || "unknown error"}`;
}
