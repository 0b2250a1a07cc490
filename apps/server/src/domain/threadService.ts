/**
 * Read side and thread creation: thread lists and details, history pages and around windows,
 * provider inputs and Markdown export. Cursors are opaque to clients; here they are the `seq`
 * of a message written in decimal.
 */

import type {
  AllThreadsSearchResponse,
  CitedByPage,
  Message,
  MessagePage,
  Thread,
  ThreadDetail,
  ThreadList,
  ThreadSearchResponse,
  Turn,
} from "@app/protocol";
import { isTurnFinished } from "@app/protocol";
import type { ChatStore, MessageWindow, ThreadListCursor } from "../storage/chatStore.ts";
import { NOT_CITED } from "../storage/citationIndex.ts";
import { type AllThreadsSearchRequest, searchAllThreads } from "./crossThreadSearch.ts";
import { DomainError, threadDeleted, threadNotFound } from "./errors.ts";
import { renderExportHeader, renderExportMessage } from "./exportMarkdown.ts";
import { newId } from "./ids.ts";
import { checkSearchQuery, searchThread, type ThreadSearchRequest } from "./threadSearch.ts";

/** Page size when the client gives none, and the largest it may ask for. */
export const DEFAULT_PAGE_LIMIT = 50;
export const MAX_PAGE_LIMIT = 200;
/** Threads per list page when the client gives none, and the most it may ask for. */
export const DEFAULT_THREAD_PAGE = 50;
export const MAX_THREAD_PAGE = 200;

/** Thread list cursors are opaque: base64url of `[updatedAt, id]`. */
export function formatThreadCursor(cursor: ThreadListCursor): string {
  return Buffer.from(JSON.stringify([cursor.updatedAt, cursor.id])).toString("base64url");
}

function parseThreadCursor(raw: string): ThreadListCursor {
  const invalid = new DomainError(
    "invalid_cursor",
    `"${raw.slice(0, 40)}" is not a valid cursor. Use nextCursor from a previous page.`,
  );
  if (!/^[A-Za-z0-9_-]{1,800}$/.test(raw)) throw invalid;
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(raw, "base64url").toString("utf8"));
  } catch {
    throw invalid;
  }
  if (
    !Array.isArray(value) ||
    value.length !== 2 ||
    typeof value[0] !== "string" ||
    typeof value[1] !== "string"
  ) {
    throw invalid;
  }
  return { updatedAt: value[0], id: value[1] };
}

/** One of the three ways to ask for messages (none set: the newest page). */
export interface MessagePageQuery {
  before?: string | undefined;
  after?: string | undefined;
  around?: string | undefined;
  limit?: number | undefined;
}

export class ThreadService {
  readonly #repo: ChatStore;
  readonly #now: () => string;

  constructor(repo: ChatStore, now: () => string = () => new Date().toISOString()) {
    this.#repo = repo;
    this.#now = now;
  }

  get environmentId(): string {
    return this.#repo.environmentId;
  }

  /** Creates an empty thread; a blank or missing title keeps "New thread" until the first prompt. */
  createThread(title?: string): Promise<Thread> {
    const trimmed = title?.replace(/\s+/g, " ").trim() ?? "";
    return this.#repo.transaction((tx) =>
      tx.createThread({
        id: newId(),
        title: trimmed === "" ? null : trimmed,
        now: this.#now(),
      }),
    );
  }

  /**
   * A page of listed threads, newest first, after `cursor` (none: the newest page). Throws
   * `invalid_cursor` (400) for a cursor no page gave.
   */
  async listThreads(query: {
    cursor?: string | undefined;
    limit?: number | undefined;
  }): Promise<ThreadList> {
    const limit = Math.min(query.limit ?? DEFAULT_THREAD_PAGE, MAX_THREAD_PAGE);
    const after = query.cursor === undefined ? null : parseThreadCursor(query.cursor);
    // One more than asked tells whether another page exists.
    const threads = await this.#repo.listThreads({ after, limit: limit + 1 });
    const page = threads.slice(0, limit);
    const last = page.at(-1);
    return {
      threads: page,
      nextCursor:
        threads.length > limit && last
          ? formatThreadCursor({ updatedAt: last.updatedAt, id: last.id })
          : null,
    };
  }

  /** Search all threads (`crossThreadSearch.ts`). */
  searchAllThreads(request: AllThreadsSearchRequest): Promise<AllThreadsSearchResponse> {
    return searchAllThreads(this.#repo, request);
  }

  /** Throws `thread_not_found` for an unknown id, `thread_deleted` for a deleted one. */
  async requireThread(threadId: string): Promise<Thread> {
    const record = await this.#repo.getThread(threadId);
    if (!record) throw await this.#missing(threadId);
    if (record.deletedAt !== null) throw threadDeleted(threadId, false);
    return record.thread;
  }

  /** `thread_deleted` for a purged thread's id, else `thread_not_found`. */
  async #missing(threadId: string): Promise<DomainError> {
    return (await this.#repo.threadWasPurged(threadId))
      ? threadDeleted(threadId, true)
      : threadNotFound(threadId);
  }

  async getThreadDetail(threadId: string): Promise<ThreadDetail> {
    const detail = await this.#repo.threadDetail(threadId);
    if (!detail) throw await this.#missing(threadId);
    if (detail.record.deletedAt !== null) throw threadDeleted(threadId, false);
    return {
      thread: detail.record.thread,
      activeTurn: detail.activeTurn,
      pendingUserInput: detail.pendingUserInput,
      lastEventId: detail.record.lastEventId,
    };
  }

  /**
   * `before` (or nothing): the page just older than the cursor (the newest page without one).
   * `after`: the page just newer than the cursor. `around`: a window holding that message.
   * Throws `invalid_request`, `invalid_cursor` (400) or `message_not_found` (404).
   */
  async getMessagePage(threadId: string, query: MessagePageQuery): Promise<MessagePage> {
    const given = [query.before, query.after, query.around].filter((v) => v !== undefined);
    if (given.length > 1) {
      throw new DomainError("invalid_request", "Use at most one of before, after and around.");
    }
    const limit = query.limit ?? DEFAULT_PAGE_LIMIT;
    // Cursors are checked first; the thread check then runs alongside the page query (one
    // round trip less on PostgreSQL).
    const after = query.after === undefined ? undefined : parseCursor(query.after);
    const before = query.before === undefined ? null : parseCursor(query.before);
    let window: MessageWindow;
    if (query.around !== undefined) {
      const [, anchor] = await Promise.all([
        this.requireThread(threadId),
        this.#repo.getMessage(query.around),
      ]);
      if (!anchor || anchor.threadId !== threadId) {
        throw new DomainError(
          "message_not_found",
          `Message "${query.around}" is not in this thread.`,
        );
      }
      // Another version is shown there: the client shows this one first (`POST .../show`).
      if (!(await this.#repo.messageShown(anchor.id))) {
        throw new DomainError(
          "message_not_shown",
          `Message "${query.around}" is a version that is not shown. Show it first.`,
          { messageId: anchor.id },
        );
      }
      window = await this.#repo.messagesAround(anchor, limit);
    } else if (after !== undefined) {
      [, window] = await Promise.all([
        this.requireThread(threadId),
        this.#repo.messagesAfter(threadId, after, limit),
      ]);
    } else {
      [, window] = await Promise.all([
        this.requireThread(threadId),
        this.#repo.messagesBefore(threadId, before, limit),
      ]);
    }
    const first = window.messages[0];
    const last = window.messages.at(-1);
    const turnIds = [...new Set(window.messages.map((m) => m.turnId))];
    const answerIds = window.messages.filter((m) => m.role === "assistant").map((m) => m.id);
    const [turns, citedBy] = await Promise.all([
      this.#repo.turnsByIds(turnIds),
      this.#repo.citedByOf(threadId, answerIds),
    ]);
    const messages = await this.#settledMessages(window.messages, turns);
    return {
      messages: messages.map((m) =>
        m.role === "assistant" ? { ...m, citedBy: citedBy.get(m.id) ?? NOT_CITED } : m,
      ),
      nextCursor: window.hasOlder && first ? formatCursor(first) : null,
      newerCursor:
        query.before === undefined && window.hasNewer && last ? formatCursor(last) : null,
      turns,
    };
  }

  /**
   * The window is read before its turns, so a turn that ended in between shows as ended while
   * its messages were still read streaming. A turn's end and its messages' final text commit in
   * one transaction, so reading those few messages again gives their final state: a page never
   * pairs an ended turn with a streaming message.
   */
  async #settledMessages(messages: Message[], turns: Turn[]): Promise<Message[]> {
    const ended = new Set(turns.filter(isTurnFinished).map((t) => t.id));
    const stale = messages.filter((m) => m.status === "streaming" && ended.has(m.turnId));
    if (stale.length === 0) return messages;
    const fresh = new Map<string, Message>();
    for (const m of await Promise.all(stale.map((m) => this.#repo.getMessage(m.id)))) {
      if (m) fresh.set(m.id, m);
    }
    return messages.map((m) => fresh.get(m.id) ?? m);
  }

  /**
   * The citations of a message of this thread by later prompts (any thread of this
   * environment), oldest first, a page at a time. Throws `thread_not_found`,
   * `message_not_found` (404) or `invalid_cursor` (400).
   */
  async getCitedBy(
    threadId: string,
    messageId: string,
    query: { cursor?: string | undefined; limit?: number | undefined },
  ): Promise<CitedByPage> {
    const afterId = query.cursor === undefined ? 0 : parseCursor(query.cursor);
    const limit = query.limit ?? DEFAULT_PAGE_LIMIT;
    const [, message, rows] = await Promise.all([
      this.requireThread(threadId),
      this.#repo.getMessage(messageId),
      this.#repo.citingMessagesOf(threadId, messageId, afterId, limit + 1),
    ]);
    if (!message || message.threadId !== threadId) {
      throw new DomainError("message_not_found", `Message "${messageId}" is not in this thread.`);
    }
    const page = rows.slice(0, limit);
    return {
      citations: page.map((row) => ({
        messageId: row.messageId,
        threadId: row.threadId,
        threadTitle: row.threadId === threadId ? null : row.threadTitle,
        createdAt: row.createdAt,
        comment: row.comment,
        quote: row.quote,
      })),
      nextCursor: rows.length > limit ? String(page.at(-1)!.id) : null,
    };
  }

  /**
   * Find in thread (`threadSearch.ts`): matching messages in thread order with their ranges.
   * Throws `invalid_query`/`invalid_cursor` (400) or `thread_not_found` (404).
   */
  async searchThread(
    threadId: string,
    request: ThreadSearchRequest,
  ): Promise<ThreadSearchResponse> {
    checkSearchQuery(request.query);
    await this.requireThread(threadId);
    return searchThread(this.#repo, threadId, request);
  }

  /** Exactly what the provider received for a turn. Throws `thread_not_found`/`turn_not_found`. */
  async getProviderInput(
    threadId: string,
    turnId: string,
  ): Promise<{ turnId: string; input: string; length: number }> {
    await this.requireThread(threadId);
    const input = await this.#repo.getProviderInput(threadId, turnId);
    if (input === null) {
      throw new DomainError("turn_not_found", `Turn "${turnId}" is not in this thread.`);
    }
    return { turnId, input, length: input.length };
  }

  /**
   * The thread as readable Markdown (citations rendered as quotes), produced lazily in parts:
   * messages are read a page at a time, so memory stays flat on a 100,000-message thread. The
   * document holds the messages that existed when the export started.
   */
  async exportMarkdown(
    threadId: string,
  ): Promise<{ thread: Thread; parts: AsyncIterable<string> }> {
    const thread = await this.requireThread(threadId);
    const untilSeq = await this.#repo.lastSeq(threadId);
    const repo = this.#repo;
    async function* parts(): AsyncGenerator<string> {
      yield renderExportHeader(thread);
      let afterSeq = 0;
      for (;;) {
        const page = await repo.messagesBetween(threadId, afterSeq, untilSeq, EXPORT_PAGE);
        if (page.length === 0) return;
        let text = "";
        for (const message of page) text += renderExportMessage(message);
        yield text;
        afterSeq = page.at(-1)!.seq;
      }
    }
    return { thread, parts: parts() };
  }
}

const EXPORT_PAGE = 200;

function formatCursor(message: Message): string {
  return String(message.seq);
}

function parseCursor(cursor: string): number {
  if (!/^\d{1,15}$/.test(cursor)) {
    throw new DomainError(
      "invalid_cursor",
      `"${cursor.slice(0, 40)}" is not a valid cursor. Use nextCursor/newerCursor from a previous page.`,
    );
  }
  return Number(cursor);
}
