/**
 * ProviderService: the one path from a user's prompt to a model provider.
 *
 * Rules it enforces (spec "Provider input and titles", DESIGN.md section 5):
 * - the stored user message is the input exactly as sent, citation links intact;
 * - `expandAssistantCitationsForProvider` runs once per turn, before any adapter sees the input,
 *   so adapters only ever see markers plus one `<assistant_citations>` block;
 * - the raw (trimmed) and the expanded input are both checked against the 120,000-character
 *   limit; over it, nothing is stored and no adapter is called;
 * - user-input answers reach the adapter raw: no expansion, no limit;
 * - turns of one thread run one at a time, in the order they were sent;
 * - an adapter failure becomes a failed turn plus a visible error message.
 */
import { randomUUID } from "node:crypto";
import {
  expandAssistantCitationsForProvider,
  PROVIDER_INPUT_MAX_CHARS,
  validateProviderInput,
} from "@app/citations";
import type { SendTurnResponse, Turn } from "@app/protocol";
import { UserInputQuestionSchema } from "@app/protocol";
import { z } from "zod";
import type {
  ProviderAdapter,
  ProviderMessageWriter,
  ProviderTurnContext,
  UserInputQuestion,
} from "../providers/types.ts";
import type { ChatRepository } from "../storage/repository.ts";
import { deriveBranchName, deriveThreadTitle } from "../titles.ts";
import { DomainError, threadNotFound } from "./errors.ts";
import type { ThreadEventLog } from "./events.ts";

/** Construction options of {@link ProviderService}. */
export interface ProviderServiceOptions {
  repo: ChatRepository;
  events: ThreadEventLog;
  adapter: ProviderAdapter;
  /** Clock for stored timestamps (ISO-8601). */
  now?: () => string;
  /** How many earlier turns an adapter receives as history (bounds work on very long threads). */
  historyTurns?: number;
}

/** Result of answering a pending user-input request. */
export interface UserInputAnswerResult {
  requestId: string;
  turn: Turn;
}

type TurnError = { code: string; message: string };
/** Per-turn state shared by the context's writers; flushers store text not yet written. */
type TurnState = { finished: boolean; flushers: Set<() => void> };
type Waiter = {
  threadId: string;
  turnId: string;
  questionIds: Set<string>;
  resolve: (answers: Record<string, string>) => void;
  reject: (reason: unknown) => void;
};

const QuestionsSchema = z.array(UserInputQuestionSchema).min(1);
const SHUTDOWN_GRACE_MS = 2_000;

export class ProviderService {
  readonly #repo: ChatRepository;
  readonly #events: ThreadEventLog;
  readonly #adapter: ProviderAdapter;
  readonly #now: () => string;
  readonly #historyTurns: number;
  /** Tail of each thread's turn queue. */
  readonly #queues = new Map<string, Promise<void>>();
  readonly #running = new Map<string, AbortController>();
  readonly #waiters = new Map<string, Waiter>();
  #closing = false;
  #closed = false;

  constructor(options: ProviderServiceOptions) {
    this.#repo = options.repo;
    this.#events = options.events;
    this.#adapter = options.adapter;
    this.#now = options.now ?? (() => new Date().toISOString());
    this.#historyTurns = options.historyTurns ?? 50;
    this.#failInterruptedTurns();
  }

  /** Name of the adapter turns are routed to (`demo`, `openai`, ...). */
  get providerName(): string {
    return this.#adapter.name;
  }

  /**
   * Validates, stores and queues a turn. Resolves as soon as the prompt is stored; the reply
   * arrives through the thread's events. Throws {@link DomainError} (`thread_not_found`,
   * `empty_input`, `input_too_long`, `shutting_down`) without storing anything.
   */
  sendTurn(threadId: string, input: string): SendTurnResponse {
    if (this.#closing) throw shuttingDown();
    const record = this.#repo.getThread(threadId);
    if (!record) throw threadNotFound(threadId);
    const trimmed = input.trim();
    if (trimmed === "") {
      throw new DomainError(400, "empty_input", "The message is empty. Type something to send.");
    }
    const rawCheck = validateProviderInput(trimmed);
    const providerInput = expandAssistantCitationsForProvider(trimmed);
    const expandedCheck = validateProviderInput(providerInput);
    // Report the larger of the two lengths, as the composer does.
    const failed = [rawCheck, expandedCheck]
      .filter((check) => !check.ok)
      .sort((a, b) => b.length - a.length)[0];
    if (failed && !failed.ok) {
      throw new DomainError(
        400,
        "input_too_long",
        `The message is ${failed.excess.toLocaleString("en-US")} characters over the ` +
          `${PROVIDER_INPUT_MAX_CHARS.toLocaleString("en-US")}-character limit` +
          (failed === expandedCheck && rawCheck.ok ? " once its quotes are included." : "."),
        { length: failed.length, excess: failed.excess, limit: PROVIDER_INPUT_MAX_CHARS },
      );
    }

    const now = this.#now();
    const result = this.#events.atomically(() => {
      const isFirstPrompt = !this.#repo.hasTurns(threadId);
      const stored = this.#repo.insertTurnWithPrompt({
        threadId,
        turnId: randomUUID(),
        messageId: randomUUID(),
        text: input,
        providerInput,
        now,
      });
      this.#events.publish(threadId, { type: "message.created", message: stored.message });
      this.#events.publish(threadId, { type: "turn.updated", turn: stored.turn });
      if (isFirstPrompt) {
        const named = record.titleSource === "default";
        const thread = this.#repo.setThreadTitle({
          id: threadId,
          title: named ? deriveThreadTitle(trimmed) : record.thread.title,
          titleSource: named ? "prompt" : "custom",
          branchName: deriveBranchName(trimmed),
          now,
        });
        this.#events.publish(threadId, { type: "thread.updated", thread });
      }
      return stored;
    });
    this.#enqueue(threadId, result.turn.id, providerInput);
    return result;
  }

  /**
   * Answers a pending user-input request. The answers reach the adapter exactly as given.
   * Throws `thread_not_found`, `user_input_request_not_found` (404),
   * `user_input_request_resolved` (409) or `invalid_request` (400, unknown question ids).
   */
  answerUserInput(
    threadId: string,
    requestId: string,
    answers: Record<string, string>,
  ): UserInputAnswerResult {
    if (this.#closing) throw shuttingDown();
    if (!this.#repo.getThread(threadId)) throw threadNotFound(threadId);
    const record = this.#repo.getUserInputRequest(requestId);
    if (!record || record.request.threadId !== threadId) {
      throw new DomainError(
        404,
        "user_input_request_not_found",
        `No user-input request "${requestId}" exists on this thread.`,
      );
    }
    const waiter = this.#waiters.get(requestId);
    if (record.status !== "pending" || !waiter) {
      throw new DomainError(
        409,
        "user_input_request_resolved",
        `The user-input request "${requestId}" is no longer waiting for answers.`,
      );
    }
    const unknown = Object.keys(answers).filter((key) => !waiter.questionIds.has(key));
    if (unknown.length > 0) {
      throw new DomainError(
        400,
        "invalid_request",
        `Answers name unknown questions: ${unknown.map((k) => JSON.stringify(k)).join(", ")}.`,
      );
    }
    const now = this.#now();
    const turn = this.#events.atomically(() => {
      this.#repo.resolveUserInputRequest({ id: requestId, status: "answered", answers, now });
      this.#events.publish(threadId, { type: "user_input.resolved", requestId });
      const updated = this.#repo.updateTurn({ id: waiter.turnId, status: "running" });
      this.#events.publish(threadId, { type: "turn.updated", turn: updated });
      return updated;
    });
    this.#waiters.delete(requestId);
    waiter.resolve({ ...answers });
    return { requestId, turn };
  }

  /** Resolves when no turn is queued or running (tests, benchmarks, shutdown). */
  async whenIdle(): Promise<void> {
    while (this.#queues.size > 0) {
      await Promise.all([...this.#queues.values()]);
    }
  }

  /**
   * Stops accepting turns, aborts running ones (they fail with `cancelled`), and waits briefly
   * for adapters to settle. Turns still unsettled are marked interrupted on the next start.
   */
  async close(): Promise<void> {
    if (this.#closing) return;
    this.#closing = true;
    for (const controller of this.#running.values()) controller.abort(new Error("Server shutdown"));
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      this.whenIdle(),
      new Promise((resolve) => {
        timer = setTimeout(resolve, SHUTDOWN_GRACE_MS);
      }),
    ]);
    clearTimeout(timer);
    this.#closed = true;
  }

  #enqueue(threadId: string, turnId: string, input: string): void {
    const previous = this.#queues.get(threadId) ?? Promise.resolve();
    const next = previous.then(() => this.#runTurn(threadId, turnId, input));
    this.#queues.set(threadId, next);
    void next.then(() => {
      if (this.#queues.get(threadId) === next) this.#queues.delete(threadId);
    });
  }

  /** Runs one turn through the adapter. Never rejects: every failure is recorded on the turn. */
  async #runTurn(threadId: string, turnId: string, input: string): Promise<void> {
    if (this.#closed) return;
    if (this.#closing) {
      this.#failTurn(threadId, turnId, {
        code: "cancelled",
        message: "The server shut down before this turn ran.",
      });
      return;
    }
    const controller = new AbortController();
    this.#running.set(turnId, controller);
    const state: TurnState = { finished: false, flushers: new Set() };
    try {
      const promptSeq = this.#repo.getTurnPromptSeq(turnId) ?? Number.MAX_SAFE_INTEGER;
      const ctx: ProviderTurnContext = {
        threadId,
        turnId,
        input,
        history: this.#repo.historyBefore(threadId, promptSeq, this.#historyTurns),
        signal: controller.signal,
        startMessage: (kind) => this.#startMessage(threadId, turnId, kind, state),
        requestUserInput: (questions) =>
          this.#requestUserInput(threadId, turnId, questions, state, controller.signal),
      };
      await this.#adapter.runTurn(ctx);
      flushAll(state);
      state.finished = true;
      if (!this.#closed) this.#completeTurn(threadId, turnId);
    } catch (error) {
      if (!this.#closed) flushAll(state);
      state.finished = true;
      if (!this.#closed) this.#failTurn(threadId, turnId, toTurnError(error, controller.signal));
    } finally {
      this.#running.delete(turnId);
      this.#cancelWaitersOfTurn(turnId);
    }
  }

  #startMessage(
    threadId: string,
    turnId: string,
    kind: "progress" | "answer",
    state: TurnState,
  ): ProviderMessageWriter {
    if (kind !== "progress" && kind !== "answer") {
      throw new TypeError(
        `startMessage: kind must be "progress" or "answer", got ${String(kind)}.`,
      );
    }
    if (state.finished || this.#closed) throw new Error("startMessage: the turn has finished.");
    const message = this.#events.atomically(() => {
      const created = this.#repo.insertAssistantMessage({
        id: randomUUID(),
        threadId,
        turnId,
        kind,
        text: "",
        status: "streaming",
        now: this.#now(),
      });
      this.#events.publish(threadId, { type: "message.created", message: created });
      return created;
    });
    // Chunks appended in one synchronous burst are stored as one delta event (one transaction):
    // the offset/delta pair stays exact, and a fast adapter does not pay a commit per chunk.
    let stored = 0;
    let pending = "";
    let scheduled = false;
    let done = false;
    const live = () => !state.finished && !this.#closed;
    const flush = () => {
      scheduled = false;
      if (pending === "" || this.#closed) return;
      const delta = pending;
      pending = "";
      this.#events.atomically(() => {
        this.#repo.appendMessageText(message.id, delta);
        this.#events.publish(threadId, {
          type: "message.delta",
          messageId: message.id,
          offset: stored,
          delta,
        });
      });
      stored += delta.length;
    };
    state.flushers.add(flush);
    return {
      append: (chunk: string) => {
        if (typeof chunk !== "string") throw new TypeError("append: chunk must be a string.");
        if (done) throw new Error("append: the message is already complete.");
        // Writes after the turn ended (an adapter that ignored the abort signal) are dropped.
        if (!live() || chunk === "") return;
        pending += chunk;
        if (!scheduled) {
          scheduled = true;
          queueMicrotask(() => {
            if (live()) flush();
          });
        }
      },
      complete: () => {
        if (done) return;
        done = true;
        if (!live()) return;
        flush();
        state.flushers.delete(flush);
        this.#events.atomically(() => this.#finishMessage(threadId, message.id, "complete"));
      },
    };
  }

  /** Marks a streaming message finished, publishes it whole and compacts its delta events. */
  #finishMessage(threadId: string, messageId: string, status: "complete" | "error"): void {
    const finished = this.#repo.setMessageStatus(messageId, status);
    this.#events.publish(threadId, { type: "message.completed", message: finished });
    this.#repo.deleteDeltaEvents(messageId);
  }

  #requestUserInput(
    threadId: string,
    turnId: string,
    questions: UserInputQuestion[],
    state: TurnState,
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
    if (state.finished || this.#closed) {
      return Promise.reject(new Error("requestUserInput: the turn has finished."));
    }
    if (signal.aborted) return Promise.reject(signal.reason);
    const requestId = randomUUID();
    return new Promise((resolve, reject) => {
      this.#events.atomically(() => {
        const request = this.#repo.insertUserInputRequest({
          id: requestId,
          threadId,
          turnId,
          questions: parsed.data,
          now: this.#now(),
        });
        this.#events.publish(threadId, { type: "user_input.requested", request });
        const turn = this.#repo.updateTurn({ id: turnId, status: "waiting_for_input" });
        this.#events.publish(threadId, { type: "turn.updated", turn });
      });
      this.#waiters.set(requestId, { threadId, turnId, questionIds, resolve, reject });
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
    });
  }

  /** Rejects in-memory waiters of a finished turn; their rows are cancelled by complete/fail. */
  #cancelWaitersOfTurn(turnId: string): void {
    for (const [id, waiter] of this.#waiters) {
      if (waiter.turnId !== turnId) continue;
      this.#waiters.delete(id);
      waiter.reject(new Error("The turn finished before the question was answered."));
    }
  }

  #completeTurn(threadId: string, turnId: string): void {
    this.#events.atomically(() => {
      for (const message of this.#repo.streamingMessagesOfTurn(turnId)) {
        this.#finishMessage(threadId, message.id, "complete");
      }
      this.#cancelPendingRequests(threadId, turnId);
      const turn = this.#repo.updateTurn({
        id: turnId,
        status: "completed",
        completedAt: this.#now(),
      });
      this.#events.publish(threadId, { type: "turn.updated", turn });
    });
  }

  /** Records a visible failure: partial messages marked error, an error notice, turn failed. */
  #failTurn(threadId: string, turnId: string, error: TurnError): void {
    this.#events.atomically(() => {
      for (const message of this.#repo.streamingMessagesOfTurn(turnId)) {
        this.#finishMessage(threadId, message.id, "error");
      }
      this.#cancelPendingRequests(threadId, turnId);
      const now = this.#now();
      const notice = this.#repo.insertAssistantMessage({
        id: randomUUID(),
        threadId,
        turnId,
        kind: "error",
        text: error.message,
        status: "complete",
        now,
      });
      this.#events.publish(threadId, { type: "message.created", message: notice });
      const turn = this.#repo.updateTurn({ id: turnId, status: "failed", error, completedAt: now });
      this.#events.publish(threadId, { type: "turn.updated", turn });
    });
  }

  #cancelPendingRequests(threadId: string, turnId: string): void {
    for (const requestId of this.#repo.pendingUserInputIdsOfTurn(turnId)) {
      this.#repo.resolveUserInputRequest({
        id: requestId,
        status: "cancelled",
        answers: null,
        now: this.#now(),
      });
      this.#events.publish(threadId, { type: "user_input.resolved", requestId });
    }
  }

  /** A previous process stopped mid-turn: make those turns visibly failed, never silently stuck. */
  #failInterruptedTurns(): void {
    for (const turn of this.#repo.unfinishedTurns()) {
      this.#failTurn(turn.threadId, turn.id, {
        code: "interrupted",
        message: "The server stopped before this turn finished. Send the message again to retry.",
      });
    }
  }
}

/** Writes every writer's buffered text, so a finished or failed turn keeps all of it. */
function flushAll(state: TurnState): void {
  for (const flush of state.flushers) flush();
  state.flushers.clear();
}

function shuttingDown(): DomainError {
  return new DomainError(503, "shutting_down", "The server is shutting down. Try again shortly.");
}

function toTurnError(error: unknown, signal: AbortSignal): TurnError {
  if (signal.aborted) {
    return { code: "cancelled", message: "The turn was cancelled because the server shut down." };
  }
  const detail = error instanceof Error ? error.message : String(error);
  return {
    code: "provider_error",
    message: `The provider failed: ${detail || "unknown error"}`,
  };
}
