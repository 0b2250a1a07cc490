/**
 * The SQLite queries of the store contract (`chatStore.ts`), synchronous (better-sqlite3) and
 * prepared once; `sqliteStore.ts` wraps them as async queries and runs its transactions. Only
 * SQL lives here: paging windows, the history budget and the delta replay are `storeLogic.ts`.
 * Storage faults (disk full, read-only, I/O errors) leave it as {@link StorageUnavailableError}.
 *
 * A streaming message's text is not rewritten on every chunk: each flush appends one
 * `message.delta` event row (O(chunk)), the text of a streaming message is its stored text plus
 * those rows, and {@link ChatRepository.finishMessage} writes the whole text once at the end.
 */
import { randomUUID } from "node:crypto";
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
import { DEFAULT_THREAD_TITLE } from "../titles.ts";
import type {
  HistoryBudget,
  HistoryTurn,
  MessageWindow,
  QueueHead,
  StoredEvent,
  SyncQueries,
  ThreadDetailRecord,
  ThreadRecord,
  UserInputRecord,
} from "./chatStore.ts";
import type { CitationIndexEntry, CitingRecord } from "./citationIndex.ts";
import type { SqliteDatabase } from "./db.ts";
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
  type UserInputRow,
} from "./rows.ts";
import { sqliteCitationWriter } from "./sqliteCitations.ts";
import { translateStorageError } from "./storageErrors.ts";
import { aroundWindow, pageOf, turnsWithinBudget, withDeltas } from "./storeLogic.ts";

/**
 * The newest `@limit` turns of thread `@thread` before prompt seq `@before`, each with the id of
 * its final complete answer (null when it has none).
 */
const HISTORY_TURNS = `WITH h AS (
  SELECT t.id AS turnId, t.prompt_seq AS seq, octet_length(t.provider_input) AS inputBytes,
    (SELECT m.id FROM messages m
      WHERE m.turn_id = t.id AND m.kind = 'answer' AND m.status = 'complete'
      ORDER BY m.seq DESC LIMIT 1) AS answerId
  FROM turns t WHERE t.thread_id = @thread AND t.prompt_seq < @before
  ORDER BY t.prompt_seq DESC LIMIT @limit)`;

/** Typed access to the chat tables. Construct once per database connection. */
export class ChatRepository implements SyncQueries {
  readonly #db: SqliteDatabase;
  readonly #environmentId: string;
  readonly #stmt;
  readonly #writeCitations;
  /** Leases of running turns (see the turn queue below). */
  readonly #leases = new Map<string, { owner: string; expiresAt: number }>();

  constructor(db: SqliteDatabase) {
    this.#db = db;
    const s = (sql: string) => db.prepare(sql);
    this.#stmt = {
      getMeta: s("SELECT value FROM meta WHERE key = ?"),
      insertMeta: s("INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO NOTHING"),
      insertThread: s(
        `INSERT INTO threads (id, title, title_source, created_at, updated_at) VALUES (?, ?, ?, ?, ?)`,
      ),
      getThread: s(`SELECT ${THREAD_COLUMNS} FROM threads WHERE id = ?`),
      // A thread exists for the list from its first message: an opened, never-sent one is a draft.
      listThreads: s(
        `SELECT ${THREAD_COLUMNS} FROM threads WHERE message_count > 0 ORDER BY updated_at DESC, id LIMIT ?`,
      ),
      setThreadTitle: s(
        "UPDATE threads SET title = ?, title_source = ?, branch_name = ?, updated_at = ? WHERE id = ?",
      ),
      bumpThreadSeq: s(
        `UPDATE threads SET last_seq = last_seq + 1, message_count = message_count + 1, updated_at = ?
         WHERE id = ? RETURNING last_seq`,
      ),
      bumpEventId: s(
        "UPDATE threads SET last_event_id = last_event_id + 1 WHERE id = ? RETURNING last_event_id",
      ),
      insertTurn: s(
        `INSERT INTO turns (id, thread_id, prompt_seq, status, provider_input, created_at)
         VALUES (?, ?, ?, 'running', ?, ?)`,
      ),
      getTurn: s(`SELECT ${TURN_COLUMNS} FROM turns WHERE id = ?`),
      turnsByIds: s(
        `SELECT ${TURN_COLUMNS} FROM turns WHERE id IN (SELECT value FROM json_each(?))`,
      ),
      hasTurns: s("SELECT 1 AS found FROM turns WHERE thread_id = ? LIMIT 1"),
      updateTurn: s(
        `UPDATE turns SET status = ?, error_code = ?, error_message = ?, completed_at = ? WHERE id = ?`,
      ),
      // Served by the partial index turns_active_by_thread: cost independent of the thread's size.
      activeTurn: s(
        `SELECT ${TURN_COLUMNS} FROM turns INDEXED BY turns_active_by_thread
         WHERE thread_id = ? AND status IN ('running', 'waiting_for_input')
         ORDER BY prompt_seq LIMIT 1`,
      ),
      startedUnfinishedTurns: s(
        `SELECT ${TURN_COLUMNS} FROM turns
         WHERE status IN ('running', 'waiting_for_input')
           AND id IN (SELECT turn_id FROM turn_claims)
         ORDER BY created_at, prompt_seq`,
      ),
      providerInput: s("SELECT provider_input FROM turns WHERE id = ? AND thread_id = ?"),
      // Sizes first (octet_length reads the record header, not the text), texts only for
      // the turns that fit the budget.
      historySizes: s(
        `${HISTORY_TURNS}
         SELECT h.inputBytes, (SELECT octet_length(text) FROM messages WHERE id = h.answerId) AS answerBytes
         FROM h ORDER BY h.seq DESC`,
      ),
      historyTexts: s(
        `${HISTORY_TURNS}
         SELECT t.provider_input AS input, (SELECT text FROM messages WHERE id = h.answerId) AS answer
         FROM h JOIN turns t ON t.id = h.turnId ORDER BY h.seq DESC`,
      ),
      insertMessage: s(
        `INSERT INTO messages (id, thread_id, turn_id, seq, role, kind, text, status, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      getMessage: s(`SELECT ${MESSAGE_COLUMNS} FROM messages WHERE id = ?`),
      // The text is known to the caller: do not read a long reply back.
      finishedMessage: s(
        `SELECT ${MESSAGE_COLUMNS.replace("text", "'' AS text")} FROM messages WHERE id = ?`,
      ),
      finishMessage: s("UPDATE messages SET text = ?, status = ? WHERE id = ?"),
      deltaRows: s("SELECT data FROM events WHERE message_id = ? ORDER BY thread_id, id"),
      streamingMessagesOfTurn: s(
        `SELECT ${MESSAGE_COLUMNS} FROM messages WHERE turn_id = ? AND status = 'streaming' ORDER BY seq`,
      ),
      pageBefore: s(
        `SELECT ${MESSAGE_COLUMNS} FROM messages WHERE thread_id = ? AND seq < ? ORDER BY seq DESC LIMIT ?`,
      ),
      pageAfter: s(
        `SELECT ${MESSAGE_COLUMNS} FROM messages WHERE thread_id = ? AND seq > ? ORDER BY seq LIMIT ?`,
      ),
      pageBetween: s(
        `SELECT ${MESSAGE_COLUMNS} FROM messages WHERE thread_id = ? AND seq > ? AND seq <= ?
         ORDER BY seq LIMIT ?`,
      ),
      // One row per cited message of the page, however often it is cited.
      citedBy: s(
        `SELECT source_message_id AS id, citing_count AS count, ranges FROM message_backlinks
         WHERE source_message_id IN (SELECT value FROM json_each(?)) AND source_thread_id = ?`,
      ),
      citingMessages: s(
        `SELECT c.id, c.citing_message_id AS messageId, c.citing_thread_id AS threadId,
           t.title AS threadTitle, c.created_at AS createdAt, c.comment, c.quote AS text,
           c.quote_start AS start, c.quote_end AS "end", c.prefix, c.suffix
         FROM message_citations c JOIN threads t ON t.id = c.citing_thread_id
         WHERE c.source_message_id = ? AND c.source_thread_id = ? AND c.source_environment_id = ?
           AND c.id > ?
         ORDER BY c.id LIMIT ?`,
      ),
      insertUserInput: s(
        `INSERT INTO user_input_requests (id, thread_id, turn_id, questions, status, created_at)
         VALUES (?, ?, ?, ?, 'pending', ?)`,
      ),
      getUserInput: s("SELECT * FROM user_input_requests WHERE id = ?"),
      pendingUserInput: s(
        `SELECT * FROM user_input_requests WHERE thread_id = ? AND status = 'pending'
         ORDER BY created_at LIMIT 1`,
      ),
      resolveUserInput: s(
        `UPDATE user_input_requests SET status = ?, answers = ?, resolved_at = ?
         WHERE id = ? AND status = 'pending'`,
      ),
      pendingUserInputOfTurn: s(
        "SELECT id FROM user_input_requests WHERE turn_id = ? AND status = 'pending'",
      ),
      insertEvent: s(
        "INSERT INTO events (thread_id, id, type, message_id, data) VALUES (?, ?, ?, ?, ?)",
      ),
      eventsAfter: s(
        "SELECT id, data FROM events WHERE thread_id = ? AND id > ? ORDER BY id LIMIT ?",
      ),
      deleteDeltas: s("DELETE FROM events WHERE message_id = ?"),
      turnInput: s("SELECT provider_input FROM turns WHERE id = ?"),
      insertClaim: s("INSERT INTO turn_claims (turn_id) VALUES (?) ON CONFLICT DO NOTHING"),
      deleteClaim: s("DELETE FROM turn_claims WHERE turn_id = ?"),
      unfinishedTurnIds: s(
        `SELECT id, thread_id FROM turns WHERE status IN ('running', 'waiting_for_input')`,
      ),
    };
    this.#environmentId = this.#loadEnvironmentId();
    this.#writeCitations = sqliteCitationWriter(db);
  }

  /** Stable id of this installation, created on first start and kept in the database. */
  get environmentId(): string {
    return this.#environmentId;
  }

  /**
   * Runs `fn` in one transaction (nested calls join the outer one). A storage fault rolls it
   * back and throws {@link StorageUnavailableError}.
   */
  transaction<T>(fn: () => T): T {
    try {
      return this.#db.transaction(fn)();
    } catch (error) {
      throw translateStorageError(error);
    }
  }

  #loadEnvironmentId(): string {
    const existing = this.#stmt.getMeta.get("environment_id") as { value: string } | undefined;
    if (existing) return existing.value;
    this.#stmt.insertMeta.run("environment_id", randomUUID());
    return (this.#stmt.getMeta.get("environment_id") as { value: string }).value;
  }

  // Threads

  createThread(input: { id: string; title: string | null; now: string }): Thread {
    return this.transaction(() => {
      this.#stmt.insertThread.run(
        input.id,
        input.title ?? DEFAULT_THREAD_TITLE,
        input.title === null ? "default" : "custom",
        input.now,
        input.now,
      );
      return this.getThread(input.id)!.thread;
    });
  }

  getThread(id: string): ThreadRecord | null {
    const row = this.#stmt.getThread.get(id) as ThreadRow | undefined;
    return row ? toThreadRecord(row, this.#environmentId) : null;
  }

  /** Threads with at least one message (an opened, never-sent thread is not listed). */
  listThreads(limit = 500): Thread[] {
    return (this.#stmt.listThreads.all(limit) as ThreadRow[]).map(
      (row) => toThreadRecord(row, this.#environmentId).thread,
    );
  }

  setThreadTitle(input: {
    id: string;
    title: string;
    titleSource: "custom" | "prompt";
    branchName: string | null;
    now: string;
  }): Thread {
    this.#stmt.setThreadTitle.run(
      input.title,
      input.titleSource,
      input.branchName,
      input.now,
      input.id,
    );
    return this.getThread(input.id)!.thread;
  }

  // Turns

  /** False until the thread's first prompt. */
  hasTurns(threadId: string): boolean {
    return this.#stmt.hasTurns.get(threadId) !== undefined;
  }

  /** Inserts a running turn and its prompt message (call inside a transaction). */
  insertTurnWithPrompt(input: {
    threadId: string;
    turnId: string;
    messageId: string;
    text: string;
    providerInput: string;
    now: string;
  }): { turn: Turn; message: Message } {
    const seq = this.#nextSeq(input.threadId, input.now);
    this.#stmt.insertTurn.run(input.turnId, input.threadId, seq, input.providerInput, input.now);
    this.#stmt.insertMessage.run(
      input.messageId,
      input.threadId,
      input.turnId,
      seq,
      "user",
      "prompt",
      input.text,
      "complete",
      input.now,
    );
    return { turn: this.getTurn(input.turnId)!, message: this.getMessage(input.messageId)! };
  }

  getTurn(id: string): Turn | null {
    const row = this.#stmt.getTurn.get(id) as TurnRow | undefined;
    return row ? toTurn(row) : null;
  }

  /** Prompt position of a turn, used to order history. */
  getTurnPromptSeq(id: string): number | null {
    const row = this.#stmt.getTurn.get(id) as TurnRow | undefined;
    return row ? row.prompt_seq : null;
  }

  updateTurn(input: {
    id: string;
    status: TurnStatus;
    error?: { code: string; message: string } | null;
    completedAt?: string | null;
  }): Turn {
    this.#stmt.updateTurn.run(
      input.status,
      input.error?.code ?? null,
      input.error?.message ?? null,
      input.completedAt ?? null,
      input.id,
    );
    return this.getTurn(input.id)!;
  }

  /** The oldest turn of the thread that is still running or waiting for input. */
  activeTurn(threadId: string): Turn | null {
    const row = this.#stmt.activeTurn.get(threadId) as TurnRow | undefined;
    return row ? toTurn(row) : null;
  }

  /**
   * A thread with its active turn and pending question, read together (one snapshot), or null.
   * lastEventId is as new as both, so a client subscribing from it misses no change to them.
   */
  threadDetail(threadId: string): ThreadDetailRecord | null {
    const record = this.getThread(threadId);
    if (!record) return null;
    return {
      record,
      activeTurn: this.activeTurn(threadId),
      pendingUserInput: this.pendingUserInput(threadId),
    };
  }

  /**
   * Turns a process started (claimed) and left running or waiting (crash or shutdown). Turns
   * that never started are not among them: they are still queued.
   */
  startedUnfinishedTurns(): Turn[] {
    return (this.#stmt.startedUnfinishedTurns.all() as TurnRow[]).map(toTurn);
  }

  /** The turns with these ids, in the order given (one statement, however many). */
  turnsByIds(ids: readonly string[]): Turn[] {
    if (ids.length === 0) return [];
    const rows = this.#stmt.turnsByIds.all(JSON.stringify(ids)) as TurnRow[];
    const byId = new Map(rows.map((row) => [row.id, toTurn(row)]));
    return ids.flatMap((id) => byId.get(id) ?? []);
  }

  /** Exact provider input of a turn of this thread, or null. */
  getProviderInput(threadId: string, turnId: string): string | null {
    const row = this.#stmt.providerInput.get(turnId, threadId) as
      | { provider_input: string }
      | undefined;
    return row ? row.provider_input : null;
  }

  /**
   * History for the turn whose prompt sits at `beforeSeq`, oldest first: the newest earlier
   * turns that fit `budget` whole, each as its provider input (already expanded) and its final
   * complete answer, if any. The first turn that does not fit ends the history, so it is always
   * an unbroken run leading up to the new turn.
   */
  historyBefore(threadId: string, beforeSeq: number, budget: HistoryBudget): HistoryTurn[] {
    // Sizes first (octet_length reads a record header, not the text), then the texts of the
    // turns that fit: the same newest-first order, cut at that count.
    const sizes = this.#stmt.historySizes.all({
      thread: threadId,
      before: beforeSeq,
      limit: budget.maxTurns,
    }) as {
      inputBytes: number;
      answerBytes: number | null;
    }[];
    const count = turnsWithinBudget(
      sizes.map((size) => size.inputBytes + (size.answerBytes ?? 0)),
      budget,
    );
    if (count === 0) return [];
    const texts = this.#stmt.historyTexts.all({
      thread: threadId,
      before: beforeSeq,
      limit: count,
    }) as HistoryTurn[];
    return texts.reverse();
  }

  // The turn queue. One process owns a SQLite file, so leases live in memory; a lease written
  // into the turn's row would rewrite its provider input (up to 120,000 characters) on every
  // claim and renewal. A claim also leaves a row in turn_claims, so the next start knows which
  // turns had started (interrupted) and which are still queued.

  /** Serializes claims on a thread's queue until the transaction ends (a no-op in SQLite). */
  lockTurnQueue(_threadId: string): void {}

  /** The thread's oldest unfinished turn and its lease state, or null when none is left. */
  queueHead(threadId: string): QueueHead | null {
    const turn = this.activeTurn(threadId);
    if (!turn) return null;
    const lease = this.#leases.get(turn.id);
    const state = !lease ? "queued" : lease.expiresAt < Date.now() ? "expired" : "leased";
    return { turn, state };
  }

  /** Leases a turn to `owner` for `leaseMs`; returns its provider input. */
  claimTurn(turnId: string, owner: string, leaseMs: number): string {
    this.#stmt.insertClaim.run(turnId);
    this.#leases.set(turnId, { owner, expiresAt: Date.now() + leaseMs });
    return (this.#stmt.turnInput.get(turnId) as { provider_input: string }).provider_input;
  }

  /** Gives back `owner`'s claim on a turn that never ran (shutdown): it is queued again. */
  releaseTurn(turnId: string, owner: string): void {
    if (this.#leases.get(turnId)?.owner !== owner) return;
    this.#leases.delete(turnId);
    this.#stmt.deleteClaim.run(turnId);
  }

  /** Extends `owner`'s lease; false when the turn has ended or is no longer its own. */
  renewLease(turnId: string, owner: string, leaseMs: number): boolean {
    const lease = this.#leases.get(turnId);
    const turn = this.getTurn(turnId);
    if (!turn || (turn.status !== "running" && turn.status !== "waiting_for_input")) {
      this.#leases.delete(turnId);
      return false;
    }
    if (lease?.owner !== owner) return false;
    lease.expiresAt = Date.now() + leaseMs;
    return true;
  }

  /** Threads with an unfinished turn that nobody holds a live lease on (queued or abandoned). */
  threadsAwaitingTurns(): string[] {
    const now = Date.now();
    const threads = new Set<string>();
    for (const row of this.#stmt.unfinishedTurnIds.all() as { id: string; thread_id: string }[]) {
      const lease = this.#leases.get(row.id);
      if (!lease || lease.expiresAt < now) threads.add(row.thread_id);
    }
    return [...threads];
  }

  // Messages

  #nextSeq(threadId: string, now: string): number {
    const row = this.#stmt.bumpThreadSeq.get(now, threadId) as { last_seq: number } | undefined;
    if (!row) throw new Error(`Thread ${threadId} does not exist.`);
    return row.last_seq;
  }

  insertAssistantMessage(input: {
    id: string;
    threadId: string;
    turnId: string;
    kind: "progress" | "answer" | "error";
    text: string;
    status: "streaming" | "complete" | "error";
    now: string;
  }): Message {
    const seq = this.#nextSeq(input.threadId, input.now);
    this.#stmt.insertMessage.run(
      input.id,
      input.threadId,
      input.turnId,
      seq,
      "assistant",
      input.kind,
      input.text,
      input.status,
      input.now,
    );
    return this.getMessage(input.id)!;
  }

  getMessage(id: string): Message | null {
    const row = this.#stmt.getMessage.get(id) as MessageRow | undefined;
    return row ? this.#toMessage(row) : null;
  }

  /** Writes a message's whole text and final status (once, when it stops streaming). */
  finishMessage(id: string, text: string, status: "complete" | "error"): Message {
    this.#stmt.finishMessage.run(text, status, id);
    const row = this.#stmt.finishedMessage.get(id) as MessageRow | undefined;
    return row ? toMessage({ ...row, text }) : this.getMessage(id)!;
  }

  streamingMessagesOfTurn(turnId: string): Message[] {
    return (this.#stmt.streamingMessagesOfTurn.all(turnId) as MessageRow[]).map((row) =>
      this.#toMessage(row),
    );
  }

  /** A streaming message's text is its stored text plus its stored delta rows, in order. */
  #toMessage(row: MessageRow): Message {
    const message = toMessage(row);
    if (row.status !== "streaming") return message;
    const deltas = this.#stmt.deltaRows.all(row.id) as { data: string }[];
    return withDeltas(
      message,
      deltas.map((delta) => delta.data),
    );
  }

  /** Up to `limit` messages with seq < `beforeSeq` (null: the newest), oldest first. */
  messagesBefore(threadId: string, beforeSeq: number | null, limit: number): MessageWindow {
    const rows = this.#stmt.pageBefore.all(
      threadId,
      beforeSeq ?? Number.MAX_SAFE_INTEGER,
      limit + 1,
    ) as MessageRow[];
    const { page, more } = pageOf(rows, limit);
    return {
      messages: page.reverse().map((row) => this.#toMessage(row)),
      hasOlder: more,
      hasNewer: false,
    };
  }

  /** Up to `limit` messages with seq > `afterSeq`, oldest first. */
  messagesAfter(threadId: string, afterSeq: number, limit: number): MessageWindow {
    const rows = this.#stmt.pageAfter.all(threadId, afterSeq, limit + 1) as MessageRow[];
    const { page, more } = pageOf(rows, limit);
    const first = page[0];
    const hasOlder = first ? this.#hasMessageBefore(threadId, first.seq) : afterSeq > 0;
    return { messages: page.map((row) => this.#toMessage(row)), hasOlder, hasNewer: more };
  }

  /** A window of `limit` messages containing `anchor` ({@link aroundWindow}). */
  messagesAround(anchor: Message, limit: number): MessageWindow {
    // Enough on each side to refill from the other when one side is short.
    const older = (
      this.#stmt.pageBefore.all(anchor.threadId, anchor.seq, limit) as MessageRow[]
    ).reverse();
    const newer = this.#stmt.pageAfter.all(anchor.threadId, anchor.seq, limit) as MessageRow[];
    const window = aroundWindow(older, newer, limit);
    const convert = (row: MessageRow) => this.#toMessage(row);
    return {
      messages: [...window.older.map(convert), anchor, ...window.newer.map(convert)],
      hasOlder: window.hasOlder,
      hasNewer: window.hasNewer,
    };
  }

  #hasMessageBefore(threadId: string, seq: number): boolean {
    return (this.#stmt.pageBefore.all(threadId, seq, 1) as MessageRow[]).length > 0;
  }

  /** Up to `limit` messages with `afterSeq` < seq <= `untilSeq`, oldest first (export pages). */
  messagesBetween(threadId: string, afterSeq: number, untilSeq: number, limit: number): Message[] {
    return (this.#stmt.pageBetween.all(threadId, afterSeq, untilSeq, limit) as MessageRow[]).map(
      (row) => this.#toMessage(row),
    );
  }

  /** Seq of the thread's newest message (0 when it has none). */
  lastSeq(threadId: string): number {
    const row = this.#stmt.getThread.get(threadId) as ThreadRow | undefined;
    return row?.last_seq ?? 0;
  }

  // The citation index

  /** A no-op: one SQLite writer at a time already (`BEGIN IMMEDIATE`). */
  lockThreads(_threadIds: readonly string[]): void {}

  /** Adds a prompt's distinct citations (inside the prompt's transaction). */
  insertCitations(entries: readonly CitationIndexEntry[]): void {
    this.#writeCitations(entries, this.#environmentId);
  }

  /** Backlinks of these messages of `threadId` (citations of this environment only). */
  citedByOf(threadId: string, messageIds: readonly string[]): Map<string, CitedBy> {
    const result = new Map<string, CitedBy>();
    if (messageIds.length === 0) return result;
    const rows = this.#stmt.citedBy.all(JSON.stringify(messageIds), threadId) as {
      id: string;
      count: number;
      ranges: string;
    }[];
    for (const row of rows) {
      result.set(row.id, { count: row.count, ranges: JSON.parse(row.ranges) as CitedBy["ranges"] });
    }
    return result;
  }

  /** Up to `limit` citations of a message with index id > `afterId`, oldest first. */
  citingMessagesOf(
    threadId: string,
    messageId: string,
    afterId: number,
    limit: number,
  ): CitingRecord[] {
    const rows = this.#stmt.citingMessages.all(
      messageId,
      threadId,
      this.#environmentId,
      afterId,
      limit,
    ) as (Omit<CitingRecord, "quote"> & CitingRecord["quote"])[];
    return rows.map(({ text, start, end, prefix, suffix, ...rest }) => ({
      ...rest,
      quote: { text, start, end, prefix, suffix },
    }));
  }

  // User-input requests

  insertUserInputRequest(input: {
    id: string;
    threadId: string;
    turnId: string;
    questions: UserInputQuestion[];
    now: string;
  }): UserInputRequest {
    this.#stmt.insertUserInput.run(
      input.id,
      input.threadId,
      input.turnId,
      JSON.stringify(input.questions),
      input.now,
    );
    return this.getUserInputRequest(input.id)!.request;
  }

  getUserInputRequest(id: string): UserInputRecord | null {
    const row = this.#stmt.getUserInput.get(id) as UserInputRow | undefined;
    return row ? toUserInput(row) : null;
  }

  pendingUserInput(threadId: string): UserInputRequest | null {
    const row = this.#stmt.pendingUserInput.get(threadId) as UserInputRow | undefined;
    return row ? toUserInput(row).request : null;
  }

  pendingUserInputIdsOfTurn(turnId: string): string[] {
    return (this.#stmt.pendingUserInputOfTurn.all(turnId) as { id: string }[]).map((r) => r.id);
  }

  /** Marks a pending request answered or cancelled; false when it was not pending. */
  resolveUserInputRequest(input: {
    id: string;
    status: "answered" | "cancelled";
    answers: Record<string, string> | null;
    now: string;
  }): boolean {
    const result = this.#stmt.resolveUserInput.run(
      input.status,
      input.answers === null ? null : JSON.stringify(input.answers),
      input.now,
      input.id,
    );
    return result.changes === 1;
  }

  // Events

  /** Appends an event to the thread's log and returns its id (next in the thread's sequence). */
  appendEvent(threadId: string, event: ServerEvent, data = JSON.stringify(event)): number {
    const row = this.#stmt.bumpEventId.get(threadId) as { last_event_id: number } | undefined;
    if (!row) throw new Error(`Thread ${threadId} does not exist.`);
    const messageId = event.type === "message.delta" ? event.messageId : null;
    this.#stmt.insertEvent.run(threadId, row.last_event_id, event.type, messageId, data);
    return row.last_event_id;
  }

  /** Stored events with id > `afterId`, in order, at most `limit`. */
  eventsAfter(threadId: string, afterId: number, limit: number): StoredEvent[] {
    return (
      this.#stmt.eventsAfter.all(threadId, afterId, limit) as { id: number; data: string }[]
    ).map((row) => ({ id: row.id, event: JSON.parse(row.data) as ServerEvent, data: row.data }));
  }

  /** Drops the delta rows of a completed message: its message.completed event carries the text. */
  deleteDeltaEvents(messageId: string): void {
    this.#stmt.deleteDeltas.run(messageId);
  }
}
