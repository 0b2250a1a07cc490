/**
 * Questions an adapter asks the user during a turn (`ctx.requestUserInput`), and their answers.
 *
 * - A waiter is registered before the request is stored, so an answer can never arrive unheard;
 *   the turn's deadlines pause while it waits.
 * - Answers reach the adapter exactly as given (no expansion, no limit), in whichever process
 *   runs the turn: an answer recorded by another process arrives through the thread's events
 *   ({@link UserInputRequests.resolvedElsewhere}) and is read back from the database.
 * - A request is answered once; when its turn ends, pending ones are cancelled
 *   (`cancelPendingRequests` in `turnOutcome.ts`, inside the turn's final record).
 */

import type { Turn } from "@app/protocol";
import { isTurnRunning, UserInputQuestionSchema } from "@app/protocol";
import { z } from "zod";
import type { Logger } from "../logger.ts";
import type { UserInputQuestion } from "../providers/types.ts";
import type { ChatStore } from "../storage/chatStore.ts";
import { DomainError, threadNotFound } from "./errors.ts";
import type { EventTx, ThreadEventLog } from "./events.ts";
import { newId } from "./ids.ts";
import { storableQuestions } from "./providerText.ts";
import type { TurnDeadlines } from "./turnDeadlines.ts";

/** Result of answering a pending user-input request. */
export interface UserInputAnswerResult {
  requestId: string;
  turn: Turn;
}

type Waiter = {
  threadId: string;
  turnId: string;
  /** This process is recording the answers (so the event that follows is not news). */
  answeredHere: boolean;
  resolve: (answers: Record<string, string>) => void;
  reject: (reason: unknown) => void;
};

const QuestionsSchema = z.array(UserInputQuestionSchema).min(1);

export interface UserInputRequestsOptions {
  store: ChatStore;
  events: ThreadEventLog;
  now: () => string;
  logger: Logger;
}

export class UserInputRequests {
  readonly #o: UserInputRequestsOptions;
  /** Requests of turns running in this process, by request id. */
  readonly #waiters = new Map<string, Waiter>();
  #closed = false;

  constructor(options: UserInputRequestsOptions) {
    this.#o = options;
  }

  /** Asks nothing more (shutdown). */
  close(): void {
    this.#closed = true;
  }

  /**
   * Answers a pending request. Throws `thread_not_found`, `user_input_request_not_found` (404),
   * `user_input_request_resolved` (409) or `invalid_request` (400, unknown question ids).
   */
  async answer(
    threadId: string,
    requestId: string,
    answers: Record<string, string>,
  ): Promise<UserInputAnswerResult> {
    const { store, events } = this.#o;
    if (!(await store.getThread(threadId))) throw threadNotFound(threadId);
    const record = await store.getUserInputRequest(requestId);
    if (!record || record.request.threadId !== threadId) {
      throw new DomainError(
        "user_input_request_not_found",
        `No user-input request "${requestId}" exists on this thread.`,
      );
    }
    const waiter = this.#waiters.get(requestId);
    // Without a waiter here, the turn must be running in another process that waits for it.
    const waitedElsewhere =
      !waiter && store.shared && isTurnRunning(await store.getTurn(record.request.turnId));
    if (record.status !== "pending" || (!waiter && !waitedElsewhere)) {
      throw resolvedAlready(requestId);
    }
    // Own properties only, into an object without a prototype: an answer keyed "constructor"
    // or "toString" is just an answer, and a missing one never reads Object.prototype.
    const own: Record<string, string> = Object.create(null);
    for (const key of Object.keys(answers)) own[key] = answers[key]!;
    const questionIds = new Set(record.request.questions.map((q) => q.id));
    const unknown = Object.keys(own).filter((key) => !questionIds.has(key));
    if (unknown.length > 0) {
      throw new DomainError(
        "invalid_request",
        `Answers name unknown questions: ${unknown.map((k) => JSON.stringify(k)).join(", ")}.`,
      );
    }
    const now = this.#o.now();
    if (waiter) waiter.answeredHere = true;
    let turn: Turn;
    try {
      turn = await events.atomically(async (w) => {
        // Before any other row: the process running the turn locks it first too (turnLease.ts).
        await w.tx.lockTurn(record.request.turnId);
        const resolved = await w.tx.resolveUserInputRequest({
          id: requestId,
          status: "answered",
          answers: own,
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
      waiter.resolve({ ...own });
    }
    return { requestId, turn };
  }

  /**
   * Stores a request of a running turn and resolves with the user's answers. Rejects on invalid
   * questions, when the turn is stopped (`signal`) or ends, and when the request cannot be stored.
   */
  request(
    threadId: string,
    turnId: string,
    questions: UserInputQuestion[],
    deadlines: TurnDeadlines,
    signal: AbortSignal,
    /** Run first in the write's transaction: the turn's lease (`turnLease.ts`). */
    guard: (w: EventTx) => Promise<void> = async () => {},
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
    const requestId = newId();
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
      this.#o.events
        .atomically(async (w) => {
          await guard(w);
          const request = await w.tx.insertUserInputRequest({
            id: requestId,
            threadId,
            turnId,
            questions: storableQuestions(parsed.data),
            now: this.#o.now(),
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

  /** A request of `turnId` was resolved, maybe by another process: its answers are stored. */
  resolvedElsewhere(turnId: string, requestId: string): void {
    const waiter = this.#waiters.get(requestId);
    if (!waiter || waiter.turnId !== turnId || waiter.answeredHere) return;
    void this.#o.store.getUserInputRequest(requestId).then(
      (record) => {
        if (record?.status !== "answered" || this.#waiters.get(requestId) !== waiter) return;
        this.#waiters.delete(requestId);
        waiter.resolve({ ...record.answers });
      },
      (error: unknown) => this.#o.logger.error("Reading answers failed:", error),
    );
  }

  /** Rejects in-memory waiters of a finished turn; their rows are cancelled by the final record. */
  cancelWaitersOfTurn(turnId: string): void {
    for (const [id, waiter] of this.#waiters) {
      if (waiter.turnId !== turnId) continue;
      this.#waiters.delete(id);
      waiter.reject(new Error("The turn finished before the question was answered."));
    }
  }
}

function resolvedAlready(requestId: string): DomainError {
  return new DomainError(
    "user_input_request_resolved",
    `The user-input request "${requestId}" is no longer waiting for answers.`,
  );
}
