/**
 * The PostgreSQL queries of the store contract (`../chatStore.ts`), run on a pool (outside
 * transactions) or on one client (inside one). Statements are named, so each connection
 * prepares them once. Only SQL lives here: paging windows, the history budget and the delta
 * replay are `../storeLogic.ts`, shared with SQLite.
 */
import type {
  CitedBy,
  Message,
  ServerEvent,
  Thread,
  Turn,
  TurnStatus,
  UserInputQuestion,
  UserInputRequest,
} from "@app/protocol";
import type pg from "pg";
import type {
  ChatQueries,
  HistoryBudget,
  HistoryTurn,
  MessageWindow,
  QueueHead,
  StoredEvent,
  ThreadDetailRecord,
  ThreadRecord,
  UserInputRecord,
} from "../chatStore.ts";
import { DEFAULT_THREAD_TITLE } from "../chatStore.ts";
import type { CitationIndexEntry, CitingRecord } from "../citationIndex.ts";
import {
  MESSAGE_COLUMNS,
  type MessageRow,
  THREAD_COLUMNS,
  type ThreadRow,
  TURN_COLUMNS,
  type TurnRow,
  toMessage,
  toThreadRecord,
  toTurn,
  toUserInput,
  USER_INPUT_COLUMNS,
  type UserInputRow,
} from "../rows.ts";
import { aroundWindow, pageOf, turnsWithinBudget, withDeltas } from "../storeLogic.ts";
import { LOCK_NAMESPACE } from "./migrations.ts";
import { writeCitations } from "./pgCitations.ts";

/** Runs one statement (pool or client). */
export type Run = <R extends pg.QueryResultRow>(
  name: string,
  text: string,
  values: unknown[],
) => Promise<pg.QueryResult<R>>;

const UNFINISHED = "status IN ('running', 'waiting_for_input')";
const TURN_QUEUE_LOCKS = 2;

export class PgQueries implements ChatQueries {
  readonly #run: Run;
  readonly #environmentId: () => string;

  constructor(run: Run, environmentId: () => string) {
    this.#run = run;
    this.#environmentId = environmentId;
  }

  async #rows<R extends pg.QueryResultRow>(name: string, text: string, values: unknown[]) {
    return (await this.#run<R>(name, text, values)).rows;
  }

  // Threads

  async createThread(input: { id: string; title: string | null; now: string }): Promise<Thread> {
    const [row] = await this.#rows<ThreadRow>(
      "createThread",
      `INSERT INTO threads (id, title, title_source, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $4) RETURNING ${THREAD_COLUMNS}`,
      [
        input.id,
        input.title ?? DEFAULT_THREAD_TITLE,
        input.title === null ? "default" : "custom",
        input.now,
      ],
    );
    return toThreadRecord(row!, this.#environmentId()).thread;
  }

  async getThread(id: string): Promise<ThreadRecord | null> {
    const [row] = await this.#rows<ThreadRow>(
      "getThread",
      `SELECT ${THREAD_COLUMNS} FROM threads WHERE id = $1`,
      [id],
    );
    return row ? toThreadRecord(row, this.#environmentId()) : null;
  }

  /** Threads with at least one message (an opened, never-sent thread is not listed). */
  async listThreads(limit = 500): Promise<Thread[]> {
    const rows = await this.#rows<ThreadRow>(
      "listThreads",
      `SELECT ${THREAD_COLUMNS} FROM threads WHERE message_count > 0
       ORDER BY updated_at DESC, id LIMIT $1`,
      [limit],
    );
    return rows.map((row) => toThreadRecord(row, this.#environmentId()).thread);
  }

  async setThreadTitle(input: {
    id: string;
    title: string;
    titleSource: "custom" | "prompt";
    branchName: string | null;
    now: string;
  }): Promise<Thread> {
    const [row] = await this.#rows<ThreadRow>(
      "setThreadTitle",
      `UPDATE threads SET title = $1, title_source = $2, branch_name = $3, updated_at = $4
       WHERE id = $5 RETURNING ${THREAD_COLUMNS}`,
      [input.title, input.titleSource, input.branchName, input.now, input.id],
    );
    return toThreadRecord(row!, this.#environmentId()).thread;
  }

  // Turns

  async hasTurns(threadId: string): Promise<boolean> {
    const rows = await this.#rows("hasTurns", "SELECT 1 FROM turns WHERE thread_id = $1 LIMIT 1", [
      threadId,
    ]);
    return rows.length > 0;
  }

  async insertTurnWithPrompt(input: {
    threadId: string;
    turnId: string;
    messageId: string;
    text: string;
    providerInput: string;
    now: string;
  }): Promise<{ turn: Turn; message: Message }> {
    const seq = await this.#nextSeq(input.threadId, input.now);
    const [turn] = await this.#rows<TurnRow>(
      "insertTurn",
      `INSERT INTO turns (id, thread_id, prompt_seq, status, provider_input, created_at)
       VALUES ($1, $2, $3, 'running', $4, $5) RETURNING ${TURN_COLUMNS}`,
      [input.turnId, input.threadId, seq, input.providerInput, input.now],
    );
    const message = await this.#insertMessage([
      input.messageId,
      input.threadId,
      input.turnId,
      seq,
      "user",
      "prompt",
      input.text,
      "complete",
      input.now,
    ]);
    return { turn: toTurn(turn!), message };
  }

  async getTurn(id: string): Promise<Turn | null> {
    const [row] = await this.#rows<TurnRow>(
      "getTurn",
      `SELECT ${TURN_COLUMNS} FROM turns WHERE id = $1`,
      [id],
    );
    return row ? toTurn(row) : null;
  }

  async getTurnPromptSeq(id: string): Promise<number | null> {
    const [row] = await this.#rows<{ prompt_seq: number }>(
      "getTurnPromptSeq",
      "SELECT prompt_seq FROM turns WHERE id = $1",
      [id],
    );
    return row ? row.prompt_seq : null;
  }

  async updateTurn(input: {
    id: string;
    status: TurnStatus;
    error?: { code: string; message: string } | null;
    completedAt?: string | null;
  }): Promise<Turn> {
    const [row] = await this.#rows<TurnRow>(
      "updateTurn",
      `UPDATE turns SET status = $1, error_code = $2, error_message = $3, completed_at = $4
       WHERE id = $5 RETURNING ${TURN_COLUMNS}`,
      [
        input.status,
        input.error?.code ?? null,
        input.error?.message ?? null,
        input.completedAt ?? null,
        input.id,
      ],
    );
    return toTurn(row!);
  }

  async activeTurn(threadId: string): Promise<Turn | null> {
    const [row] = await this.#rows<TurnRow>(
      "activeTurn",
      `SELECT ${TURN_COLUMNS} FROM turns WHERE thread_id = $1 AND ${UNFINISHED}
       ORDER BY prompt_seq LIMIT 1`,
      [threadId],
    );
    return row ? toTurn(row) : null;
  }

  async threadDetail(threadId: string): Promise<ThreadDetailRecord | null> {
    // One statement, so one snapshot: the turn and the question always match.
    const [row] = await this.#rows<{
      thread: ThreadRow | null;
      turn: TurnRow | null;
      request: UserInputRow | null;
    }>(
      "threadDetail",
      `SELECT
         (SELECT row_to_json(x) FROM (SELECT ${THREAD_COLUMNS} FROM threads WHERE id = $1) x) AS thread,
         (SELECT row_to_json(x) FROM (SELECT ${TURN_COLUMNS} FROM turns
            WHERE thread_id = $1 AND ${UNFINISHED} ORDER BY prompt_seq LIMIT 1) x) AS turn,
         (SELECT row_to_json(x) FROM (SELECT ${USER_INPUT_COLUMNS} FROM user_input_requests
            WHERE thread_id = $1 AND status = 'pending' ORDER BY created_at LIMIT 1) x) AS request`,
      [threadId],
    );
    if (!row?.thread) return null;
    return {
      record: toThreadRecord(row.thread, this.#environmentId()),
      activeTurn: row.turn ? toTurn(row.turn) : null,
      pendingUserInput: row.request ? toUserInput(row.request).request : null,
    };
  }

  async startedUnfinishedTurns(): Promise<Turn[]> {
    const rows = await this.#rows<TurnRow>(
      "startedUnfinishedTurns",
      `SELECT ${TURN_COLUMNS} FROM turns WHERE ${UNFINISHED} AND lease_owner IS NOT NULL
       ORDER BY created_at, prompt_seq`,
      [],
    );
    return rows.map(toTurn);
  }

  async turnsByIds(ids: readonly string[]): Promise<Turn[]> {
    if (ids.length === 0) return [];
    const rows = await this.#rows<TurnRow>(
      "turnsByIds",
      `SELECT ${TURN_COLUMNS} FROM turns WHERE id = ANY($1::text[])`,
      [ids],
    );
    const byId = new Map(rows.map((row) => [row.id, toTurn(row)]));
    return ids.flatMap((id) => byId.get(id) ?? []);
  }

  async getProviderInput(threadId: string, turnId: string): Promise<string | null> {
    const [row] = await this.#rows<{ provider_input: string }>(
      "getProviderInput",
      "SELECT provider_input FROM turns WHERE id = $1 AND thread_id = $2",
      [turnId, threadId],
    );
    return row ? row.provider_input : null;
  }

  async historyBefore(
    threadId: string,
    beforeSeq: number,
    budget: HistoryBudget,
  ): Promise<HistoryTurn[]> {
    // Sizes first, texts only for the turns that fit the budget (see the SQLite version).
    const rows = await this.#rows<{
      turn_id: string;
      input_bytes: number;
      answer_id: string | null;
      answer_bytes: number;
    }>(
      "historySizes",
      `SELECT t.id AS turn_id, octet_length(t.provider_input) AS input_bytes,
         a.id AS answer_id, coalesce(octet_length(a.text), 0) AS answer_bytes
       FROM turns t
       LEFT JOIN LATERAL (
         SELECT m.id, m.text FROM messages m
         WHERE m.turn_id = t.id AND m.kind = 'answer' AND m.status = 'complete'
         ORDER BY m.seq DESC LIMIT 1
       ) a ON true
       WHERE t.thread_id = $1 AND t.prompt_seq < $2
       ORDER BY t.prompt_seq DESC LIMIT $3`,
      [threadId, beforeSeq, budget.maxTurns],
    );
    const chosen = rows.slice(
      0,
      turnsWithinBudget(
        rows.map((row) => row.input_bytes + row.answer_bytes),
        budget,
      ),
    );
    if (chosen.length === 0) return [];
    const texts = await this.#rows<{ turn_id: string; input: string; answer: string | null }>(
      "historyTexts",
      `SELECT t.id AS turn_id, t.provider_input AS input, m.text AS answer
       FROM unnest($1::text[], $2::text[]) AS c(turn_id, answer_id)
       JOIN turns t ON t.id = c.turn_id
       LEFT JOIN messages m ON m.id = c.answer_id`,
      [chosen.map((row) => row.turn_id), chosen.map((row) => row.answer_id)],
    );
    const byTurn = new Map(texts.map((row) => [row.turn_id, row]));
    return chosen.reverse().map((row) => {
      const text = byTurn.get(row.turn_id)!;
      return { input: text.input, answer: text.answer };
    });
  }

  // Messages

  async #nextSeq(threadId: string, now: string): Promise<number> {
    const [row] = await this.#rows<{ last_seq: number }>(
      "bumpThreadSeq",
      `UPDATE threads SET last_seq = last_seq + 1, message_count = message_count + 1, updated_at = $1
       WHERE id = $2 RETURNING last_seq`,
      [now, threadId],
    );
    if (!row) throw new Error(`Thread ${threadId} does not exist.`);
    return row.last_seq;
  }

  async #insertMessage(values: unknown[]): Promise<Message> {
    const [row] = await this.#rows<MessageRow>(
      "insertMessage",
      `INSERT INTO messages (id, thread_id, turn_id, seq, role, kind, text, status, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING ${MESSAGE_COLUMNS}`,
      values,
    );
    return this.#toMessage(row!);
  }

  async insertAssistantMessage(input: {
    id: string;
    threadId: string;
    turnId: string;
    kind: "progress" | "answer" | "error";
    text: string;
    status: "streaming" | "complete" | "error";
    now: string;
  }): Promise<Message> {
    const seq = await this.#nextSeq(input.threadId, input.now);
    return this.#insertMessage([
      input.id,
      input.threadId,
      input.turnId,
      seq,
      "assistant",
      input.kind,
      input.text,
      input.status,
      input.now,
    ]);
  }

  async getMessage(id: string): Promise<Message | null> {
    const [row] = await this.#rows<MessageRow>(
      "getMessage",
      `SELECT ${MESSAGE_COLUMNS} FROM messages WHERE id = $1`,
      [id],
    );
    return row ? this.#toMessage(row) : null;
  }

  async finishMessage(id: string, text: string, status: "complete" | "error"): Promise<Message> {
    // The text is not read back (up to MAX_REPLY_CHARS): the caller's is the stored one.
    const [row] = await this.#rows<MessageRow>(
      "finishMessage",
      `UPDATE messages SET text = $1, status = $2 WHERE id = $3 RETURNING ${MESSAGE_COLUMNS.replace("text", "'' AS text")}`,
      [text, status, id],
    );
    return toMessage({ ...row!, text });
  }

  async streamingMessagesOfTurn(turnId: string): Promise<Message[]> {
    const rows = await this.#rows<MessageRow>(
      "streamingMessagesOfTurn",
      `SELECT ${MESSAGE_COLUMNS} FROM messages WHERE turn_id = $1 AND status = 'streaming' ORDER BY seq`,
      [turnId],
    );
    return this.#toMessages(rows);
  }

  /** A streaming message's text is its stored text plus its stored delta rows, in order. */
  async #toMessage(row: MessageRow): Promise<Message> {
    const message = toMessage(row);
    if (row.status !== "streaming") return message;
    const deltas = await this.#rows<{ data: string }>(
      "deltaRows",
      "SELECT data FROM events WHERE message_id = $1 ORDER BY thread_id, id",
      [row.id],
    );
    return withDeltas(
      message,
      deltas.map((delta) => delta.data),
    );
  }

  async #toMessages(rows: MessageRow[]): Promise<Message[]> {
    const messages: Message[] = [];
    for (const row of rows) messages.push(await this.#toMessage(row));
    return messages;
  }

  #pageBefore(threadId: string, beforeSeq: number, limit: number): Promise<MessageRow[]> {
    return this.#rows<MessageRow>(
      "pageBefore",
      `SELECT ${MESSAGE_COLUMNS} FROM messages WHERE thread_id = $1 AND seq < $2
       ORDER BY seq DESC LIMIT $3`,
      [threadId, beforeSeq, limit],
    );
  }

  #pageAfter(threadId: string, afterSeq: number, limit: number): Promise<MessageRow[]> {
    return this.#rows<MessageRow>(
      "pageAfter",
      `SELECT ${MESSAGE_COLUMNS} FROM messages WHERE thread_id = $1 AND seq > $2
       ORDER BY seq LIMIT $3`,
      [threadId, afterSeq, limit],
    );
  }

  async messagesBefore(
    threadId: string,
    beforeSeq: number | null,
    limit: number,
  ): Promise<MessageWindow> {
    const rows = await this.#pageBefore(threadId, beforeSeq ?? Number.MAX_SAFE_INTEGER, limit + 1);
    const { page, more } = pageOf(rows, limit);
    return { messages: await this.#toMessages(page.reverse()), hasOlder: more, hasNewer: false };
  }

  async messagesAfter(threadId: string, afterSeq: number, limit: number): Promise<MessageWindow> {
    const rows = await this.#pageAfter(threadId, afterSeq, limit + 1);
    const { page, more } = pageOf(rows, limit);
    const first = page[0];
    const hasOlder = first
      ? (await this.#pageBefore(threadId, first.seq, 1)).length > 0
      : afterSeq > 0;
    return { messages: await this.#toMessages(page), hasOlder, hasNewer: more };
  }

  async messagesAround(anchor: Message, limit: number): Promise<MessageWindow> {
    const [olderDesc, newer] = await Promise.all([
      this.#pageBefore(anchor.threadId, anchor.seq, limit),
      this.#pageAfter(anchor.threadId, anchor.seq, limit),
    ]);
    const window = aroundWindow(olderDesc.reverse(), newer, limit);
    return {
      messages: [
        ...(await this.#toMessages(window.older)),
        anchor,
        ...(await this.#toMessages(window.newer)),
      ],
      hasOlder: window.hasOlder,
      hasNewer: window.hasNewer,
    };
  }

  async messagesBetween(
    threadId: string,
    afterSeq: number,
    untilSeq: number,
    limit: number,
  ): Promise<Message[]> {
    const rows = await this.#rows<MessageRow>(
      "pageBetween",
      `SELECT ${MESSAGE_COLUMNS} FROM messages WHERE thread_id = $1 AND seq > $2 AND seq <= $3
       ORDER BY seq LIMIT $4`,
      [threadId, afterSeq, untilSeq, limit],
    );
    return this.#toMessages(rows);
  }

  async lastSeq(threadId: string): Promise<number> {
    const [row] = await this.#rows<{ last_seq: number }>(
      "lastSeq",
      "SELECT last_seq FROM threads WHERE id = $1",
      [threadId],
    );
    return row?.last_seq ?? 0;
  }

  // The citation index

  async lockThreads(threadIds: readonly string[]): Promise<void> {
    if (threadIds.length === 0) return;
    // Rows are locked in the order the sort returns them; NO KEY keeps foreign-key checks free.
    await this.#run(
      "lockThreads",
      "SELECT id FROM threads WHERE id = ANY($1::text[]) ORDER BY id FOR NO KEY UPDATE",
      [[...new Set(threadIds)]],
    );
  }

  async insertCitations(entries: readonly CitationIndexEntry[]): Promise<void> {
    await writeCitations(this.#run, entries, this.#environmentId());
  }

  async citedByOf(threadId: string, messageIds: readonly string[]): Promise<Map<string, CitedBy>> {
    const result = new Map<string, CitedBy>();
    if (messageIds.length === 0) return result;
    // One row per cited message of the page, however often it is cited.
    const rows = await this.#rows<{ id: string; count: number; ranges: string }>(
      "citedBy",
      `SELECT source_message_id AS id, citing_count AS count, ranges FROM message_backlinks
       WHERE source_message_id = ANY($1::text[]) AND source_thread_id = $2`,
      [messageIds, threadId],
    );
    for (const row of rows) {
      result.set(row.id, { count: row.count, ranges: JSON.parse(row.ranges) as CitedBy["ranges"] });
    }
    return result;
  }

  async citingMessagesOf(
    threadId: string,
    messageId: string,
    afterId: number,
    limit: number,
  ): Promise<CitingRecord[]> {
    const rows = await this.#rows<Omit<CitingRecord, "quote"> & CitingRecord["quote"]>(
      "citingMessages",
      `SELECT c.id, c.citing_message_id AS "messageId", c.citing_thread_id AS "threadId",
         t.title AS "threadTitle", c.created_at AS "createdAt", c.comment, c.quote AS text,
         c.quote_start::int AS start, c.quote_end::int AS "end", c.prefix, c.suffix
       FROM message_citations c JOIN threads t ON t.id = c.citing_thread_id
       WHERE c.source_message_id = $1 AND c.source_thread_id = $2
         AND c.source_environment_id = $3 AND c.id > $4
       ORDER BY c.id LIMIT $5`,
      [messageId, threadId, this.#environmentId(), afterId, limit],
    );
    return rows.map(({ text, start, end, prefix, suffix, ...rest }) => ({
      ...rest,
      quote: { text, start, end, prefix, suffix },
    }));
  }

  // User-input requests

  async insertUserInputRequest(input: {
    id: string;
    threadId: string;
    turnId: string;
    questions: UserInputQuestion[];
    now: string;
  }): Promise<UserInputRequest> {
    const [row] = await this.#rows<UserInputRow>(
      "insertUserInput",
      `INSERT INTO user_input_requests (id, thread_id, turn_id, questions, status, created_at)
       VALUES ($1, $2, $3, $4, 'pending', $5) RETURNING ${USER_INPUT_COLUMNS}`,
      [input.id, input.threadId, input.turnId, JSON.stringify(input.questions), input.now],
    );
    return toUserInput(row!).request;
  }

  async getUserInputRequest(id: string): Promise<UserInputRecord | null> {
    const [row] = await this.#rows<UserInputRow>(
      "getUserInput",
      `SELECT ${USER_INPUT_COLUMNS} FROM user_input_requests WHERE id = $1`,
      [id],
    );
    return row ? toUserInput(row) : null;
  }

  async pendingUserInput(threadId: string): Promise<UserInputRequest | null> {
    const [row] = await this.#rows<UserInputRow>(
      "pendingUserInput",
      `SELECT ${USER_INPUT_COLUMNS} FROM user_input_requests
       WHERE thread_id = $1 AND status = 'pending' ORDER BY created_at LIMIT 1`,
      [threadId],
    );
    return row ? toUserInput(row).request : null;
  }

  async pendingUserInputIdsOfTurn(turnId: string): Promise<string[]> {
    const rows = await this.#rows<{ id: string }>(
      "pendingUserInputOfTurn",
      "SELECT id FROM user_input_requests WHERE turn_id = $1 AND status = 'pending'",
      [turnId],
    );
    return rows.map((row) => row.id);
  }

  async resolveUserInputRequest(input: {
    id: string;
    status: "answered" | "cancelled";
    answers: Record<string, string> | null;
    now: string;
  }): Promise<boolean> {
    const result = await this.#run(
      "resolveUserInput",
      `UPDATE user_input_requests SET status = $1, answers = $2, resolved_at = $3
       WHERE id = $4 AND status = 'pending'`,
      [
        input.status,
        input.answers === null ? null : JSON.stringify(input.answers),
        input.now,
        input.id,
      ],
    );
    return result.rowCount === 1;
  }

  // Events

  async appendEvent(
    threadId: string,
    event: ServerEvent,
    data = JSON.stringify(event),
  ): Promise<number> {
    // The thread row's lock (held to commit) keeps each thread's ids in commit order.
    const [row] = await this.#rows<{ id: number }>(
      "appendEvent",
      `WITH bumped AS (
         UPDATE threads SET last_event_id = last_event_id + 1 WHERE id = $1 RETURNING last_event_id
       )
       INSERT INTO events (thread_id, id, type, message_id, data)
       SELECT $1, last_event_id, $2, $3, $4 FROM bumped RETURNING id`,
      [threadId, event.type, event.type === "message.delta" ? event.messageId : null, data],
    );
    if (!row) throw new Error(`Thread ${threadId} does not exist.`);
    return row.id;
  }

  async eventsAfter(threadId: string, afterId: number, limit: number): Promise<StoredEvent[]> {
    const rows = await this.#rows<{ id: number; data: string }>(
      "eventsAfter",
      "SELECT id, data FROM events WHERE thread_id = $1 AND id > $2 ORDER BY id LIMIT $3",
      [threadId, afterId, limit],
    );
    return rows.map((row) => ({
      id: row.id,
      event: JSON.parse(row.data) as ServerEvent,
      data: row.data,
    }));
  }

  async deleteDeltaEvents(messageId: string): Promise<void> {
    await this.#run("deleteDeltas", "DELETE FROM events WHERE message_id = $1", [messageId]);
  }

  // The turn queue

  async lockTurnQueue(threadId: string): Promise<void> {
    // Held until the transaction ends: claims on one thread's queue take turns.
    await this.#run(
      "lockTurnQueue",
      "SELECT pg_advisory_xact_lock($1::int4 + $2::int4, hashtext($3))",
      [LOCK_NAMESPACE, TURN_QUEUE_LOCKS, threadId],
    );
  }

  async queueHead(threadId: string): Promise<QueueHead | null> {
    const [row] = await this.#rows<TurnRow & { lease_owner: string | null; expired: boolean }>(
      "queueHead",
      `SELECT ${TURN_COLUMNS}, lease_owner, lease_expires_at < clock_timestamp() AS expired
       FROM turns WHERE thread_id = $1 AND ${UNFINISHED} ORDER BY prompt_seq LIMIT 1`,
      [threadId],
    );
    if (!row) return null;
    const state = row.lease_owner === null ? "queued" : row.expired ? "expired" : "leased";
    return { turn: toTurn(row), state };
  }

  async claimTurn(turnId: string, owner: string, leaseMs: number): Promise<string> {
    const [row] = await this.#rows<{ provider_input: string }>(
      "claimTurn",
      `UPDATE turns SET lease_owner = $1,
         lease_expires_at = clock_timestamp() + $2::int * interval '1 millisecond'
       WHERE id = $3 RETURNING provider_input`,
      [owner, Math.round(leaseMs), turnId],
    );
    return row!.provider_input;
  }

  async releaseTurn(turnId: string, owner: string): Promise<void> {
    await this.#run(
      "releaseTurn",
      `UPDATE turns SET lease_owner = NULL, lease_expires_at = NULL
       WHERE id = $1 AND lease_owner = $2 AND ${UNFINISHED}`,
      [turnId, owner],
    );
  }

  async renewLease(turnId: string, owner: string, leaseMs: number): Promise<boolean> {
    const result = await this.#run(
      "renewLease",
      `UPDATE turns SET lease_expires_at = clock_timestamp() + $1::int * interval '1 millisecond'
       WHERE id = $2 AND lease_owner = $3 AND ${UNFINISHED}`,
      [Math.round(leaseMs), turnId, owner],
    );
    return result.rowCount === 1;
  }

  async threadsAwaitingTurns(): Promise<string[]> {
    const rows = await this.#rows<{ thread_id: string }>(
      "threadsAwaitingTurns",
      `SELECT DISTINCT thread_id FROM turns
       WHERE ${UNFINISHED} AND (lease_expires_at IS NULL OR lease_expires_at < clock_timestamp())`,
      [],
    );
    return rows.map((row) => row.thread_id);
  }
}
