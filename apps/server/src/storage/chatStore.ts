/**
 * The storage contract the domain talks to: the record types and the queries, with two
 * implementations: SQLite (embedded, the default; `sqliteStore.ts` over the synchronous
 * `repository.ts`) and PostgreSQL (`DATABASE_URL`; `postgres/postgresStore.ts` over
 * `postgres/pgQueries.ts`). Both keep only SQL; the logic they share (paging windows, the
 * history budget, rebuilding a streaming message from its delta rows) is `storeLogic.ts`.
 *
 * Every query is async so PostgreSQL can serve it over the network; the SQLite store answers
 * each one synchronously underneath and only wraps the result. Both are held to this one
 * contract by the contract tests (`repository.test.ts` and the API tests run against both).
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

import type { CitationIndexEntry, CitingRecord } from "./citationIndex.ts";
import type {
  CrossThreadCandidateQuery,
  CrossThreadCandidates,
  QueuedSearchText,
  SearchCandidate,
  SearchCandidateQuery,
} from "./searchText.ts";

export { DEFAULT_THREAD_TITLE } from "../titles.ts";

/** A thread row plus what only the server needs (title origin, event counter). */
export interface ThreadRecord {
  thread: Thread;
  titleSource: "default" | "custom" | "prompt";
  lastEventId: number;
  /** When it was deleted, while it can still be restored (null: not deleted). */
  deletedAt: string | null;
}

/** Where a page of the thread list ends: the last thread's `updatedAt` and id. */
export interface ThreadListCursor {
  updatedAt: string;
  id: string;
}

/** What purging a deleted thread changed elsewhere: backlinks of the messages it cited. */
export interface PurgedThread {
  /** Messages of other threads the purged thread cited, with their backlinks now. */
  citedMessages: { threadId: string; messageId: string; citedBy: CitedBy }[];
}

/** What `GET /api/threads/:threadId` shows, read in one snapshot. */
export interface ThreadDetailRecord {
  record: ThreadRecord;
  activeTurn: Turn | null;
  pendingUserInput: UserInputRequest | null;
}

/** A user-input request plus its resolution state. */
export interface UserInputRecord {
  request: UserInputRequest;
  status: "pending" | "answered" | "cancelled";
  /** The answers once `answered`. */
  answers: Record<string, string> | null;
}

/**
 * The oldest unfinished turn of a thread, as the turn queue sees it: `queued` (no lease, free
 * to claim), `leased` (a live process runs it) or `expired` (its process stopped renewing).
 */
export interface QueueHead {
  turn: Turn;
  state: "queued" | "leased" | "expired";
}

/** A persisted SSE event. */
export interface StoredEvent {
  id: number;
  event: ServerEvent;
  /** The stored JSON of `event`. */
  data: string;
}

/** One earlier turn as history: its provider input and its final complete answer, if any. */
export interface HistoryTurn {
  input: string;
  answer: string | null;
}

/** How much history a turn may carry: whole turns, newest first, within both bounds. */
export interface HistoryBudget {
  maxTurns: number;
  /** Budget over input plus answer, counted in UTF-8 bytes (never fewer than characters). */
  maxChars: number;
}

/** A run of messages plus whether more exist on either side. */
/** A complete message written in bulk ({@link ChatQueries.appendFinishedTurns}). */
export interface BulkMessageInput {
  id: string;
  text: string;
  /** Its rendered text (`searchText.ts` `searchTextOf` of `text`), indexed as given. */
  searchText: string;
  now: string;
}

/** One finished turn for {@link ChatQueries.appendFinishedTurns}. */
export interface FinishedTurnInput {
  turnId: string;
  prompt: BulkMessageInput & { providerInput: string };
  /** Its assistant messages in order (progress updates, then the answer), all complete. */
  replies: readonly (BulkMessageInput & { kind: "progress" | "answer" })[];
  /** The prompt's distinct citations (`citationIndex.ts` `citationEntriesOf`). */
  citations: readonly CitationIndexEntry[];
}

export interface MessageWindow {
  messages: Message[];
  hasOlder: boolean;
  hasNewer: boolean;
}

/** Every query of both stores, inside a transaction or not. */
export interface ChatQueries {
  // Threads
  createThread(input: { id: string; title: string | null; now: string }): Promise<Thread>;
  getThread(id: string): Promise<ThreadRecord | null>;
  /**
   * Up to `limit` listed threads (at least one message, not deleted) after `after`, newest
   * first (`updatedAt` descending, then id).
   */
  listThreads(input: { after: ThreadListCursor | null; limit: number }): Promise<Thread[]>;
  /**
   * Gives the thread a title of the user's (`titleSource` becomes `custom`, so the titler never
   * replaces it); its place in the list (`updatedAt`) is kept. Null when there is no such thread.
   */
  renameThread(input: { id: string; title: string }): Promise<Thread | null>;
  /** Marks the thread deleted at `deletedAt` (null: restored). Null when there is no such thread. */
  setThreadDeleted(input: { id: string; deletedAt: string | null }): Promise<ThreadRecord | null>;
  /** Up to `limit` ids of threads deleted at or before `cutoff`, oldest deletion first. */
  threadsDeletedBefore(cutoff: string, limit: number): Promise<string[]>;
  /**
   * Removes a deleted thread for good (inside a transaction): the thread, its turns, messages,
   * events, questions, search rows and citation index rows; the backlinks of the messages it
   * cited are summed again, and its id is remembered as deleted. Null when it is not deleted.
   */
  purgeThread(id: string): Promise<PurgedThread | null>;
  /** True when a thread with this id was deleted and purged. */
  threadWasPurged(id: string): Promise<boolean>;
  setThreadTitle(input: {
    id: string;
    title: string;
    titleSource: "custom" | "prompt";
    branchName: string | null;
    now: string;
  }): Promise<Thread>;

  // Turns
  /** False until the thread's first prompt. */
  hasTurns(threadId: string): Promise<boolean>;
  /** Inserts a queued turn and its prompt message (inside a transaction). */
  insertTurnWithPrompt(input: {
    threadId: string;
    turnId: string;
    messageId: string;
    text: string;
    providerInput: string;
    now: string;
    /** An edit: the prompt becomes a new version of this one, and is shown. */
    versionOf?: string;
  }): Promise<{ turn: Turn; message: Message }>;
  getTurn(id: string): Promise<Turn | null>;
  /** Prompt position of a turn, used to order history. */
  getTurnPromptSeq(id: string): Promise<number | null>;
  updateTurn(input: {
    id: string;
    status: TurnStatus;
    error?: { code: string; message: string } | null;
    completedAt?: string | null;
  }): Promise<Turn>;
  /** The oldest turn of the thread that is still running or waiting for input. */
  activeTurn(threadId: string): Promise<Turn | null>;
  /** The thread, its active turn and pending question, in one snapshot (null: no thread). */
  threadDetail(threadId: string): Promise<ThreadDetailRecord | null>;
  /**
   * Turns a process started (claimed) and left running or waiting (crash or shutdown). Turns
   * that never started are not among them: they are still queued.
   */
  startedUnfinishedTurns(): Promise<Turn[]>;
  /** The turns with these ids, in the order given. */
  turnsByIds(ids: readonly string[]): Promise<Turn[]>;
  /** Exact provider input of a turn of this thread, or null. */
  getProviderInput(threadId: string, turnId: string): Promise<string | null>;
  /**
   * History for the turn whose prompt sits at `beforeSeq`, oldest first: the newest earlier
   * turns that fit `budget` whole (`storeLogic.turnsWithinBudget`).
   */
  historyBefore(threadId: string, beforeSeq: number, budget: HistoryBudget): Promise<HistoryTurn[]>;

  // Messages
  insertAssistantMessage(input: {
    id: string;
    threadId: string;
    turnId: string;
    kind: "progress" | "answer" | "error";
    text: string;
    status: "streaming" | "complete" | "error";
    now: string;
  }): Promise<Message>;
  /** A streaming message's text is its stored rows joined (`storeLogic.replayDeltas`). */
  getMessage(id: string): Promise<Message | null>;
  /** Writes a message's whole text and final status (once, when it stops streaming). */
  finishMessage(id: string, text: string, status: "complete" | "error"): Promise<Message>;
  streamingMessagesOfTurn(turnId: string): Promise<Message[]>;
  /** Up to `limit` messages with seq < `beforeSeq` (null: the newest), oldest first. */
  messagesBefore(threadId: string, beforeSeq: number | null, limit: number): Promise<MessageWindow>;
  /** Up to `limit` messages with seq > `afterSeq`, oldest first. */
  messagesAfter(threadId: string, afterSeq: number, limit: number): Promise<MessageWindow>;
  /** A window of `limit` messages containing `anchor` (`storeLogic.aroundWindow`). */
  messagesAround(anchor: Message, limit: number): Promise<MessageWindow>;
  /** Up to `limit` messages with `afterSeq` < seq <= `untilSeq`, oldest first (export pages). */
  messagesBetween(
    threadId: string,
    afterSeq: number,
    untilSeq: number,
    limit: number,
  ): Promise<Message[]>;
  /** Seq of the thread's newest message (0 when it has none). */
  lastSeq(threadId: string): Promise<number>;

  // Versions and branches (issue 30, `sqliteVersionsSchema.ts`)
  /** Whether the message is on the path shown (false: another version is shown, or none). */
  messageShown(messageId: string): Promise<boolean>;
  /** Ids of the message's versions (itself included), oldest first. */
  versionsOf(messageId: string): Promise<string[]>;
  /** Picks this version among its siblings; when its parent is shown, it and its picks are. */
  selectVersion(messageId: string): Promise<void>;
  /** Picks every ancestor of the message and itself, so the path shown goes through it. */
  showMessage(messageId: string): Promise<void>;
  /**
   * The first message of the assistant run holding `messageId` (its topmost assistant ancestor)
   * and the prompt above it, or null when it has no prompt above.
   */
  answerRunOf(messageId: string): Promise<{ headId: string; promptId: string } | null>;
  /**
   * A queued turn that regenerates the run headed by `regeneratesId` (the answer of
   * `sourceTurnId`'s prompt): its first message becomes a new version of that head.
   */
  insertRegenerateTurn(input: {
    threadId: string;
    turnId: string;
    sourceTurnId: string;
    regeneratesId: string;
    providerInput: string;
    now: string;
  }): Promise<Turn>;
  /** Turns of the thread still running, waiting for input or queued, oldest first. */
  unfinishedTurnsOf(threadId: string): Promise<Turn[]>;
  /**
   * Copies the path shown up to and including `messageId` (shown, of `sourceThreadId`) into the
   * new thread `threadId`, with turns, search rows, citation rows and copy links, in one go.
   */
  branchThread(input: {
    sourceThreadId: string;
    messageId: string;
    threadId: string;
    title: string;
    branchName: string | null;
    now: string;
  }): Promise<Thread>;
  /** The copy in `threadId` (a branch) of `sourceMessageId`, at any depth, or null. */
  copyOf(threadId: string, sourceMessageId: string): Promise<string | null>;

  // The citation index (backlinks, `citationIndex.ts`)
  /**
   * Locks these threads' rows until the transaction ends, in one fixed order, so a prompt that
   * writes events into other threads (`message.cited`) never deadlocks with one citing back.
   */
  lockThreads(threadIds: readonly string[]): Promise<void>;
  /** Adds a prompt's distinct citations (inside the prompt's transaction). */
  insertCitations(entries: readonly CitationIndexEntry[]): Promise<void>;
  /**
   * Backlinks of these messages of `threadId`, counting only citations of this environment
   * that name this thread; messages nothing cites are absent from the map.
   */
  citedByOf(threadId: string, messageIds: readonly string[]): Promise<Map<string, CitedBy>>;
  /** Up to `limit` citations of a message with index id > `afterId`, oldest first. */
  citingMessagesOf(
    threadId: string,
    messageId: string,
    afterId: number,
    limit: number,
  ): Promise<CitingRecord[]>;

  // Find in thread (`searchText.ts`)
  /**
   * Up to `limit` indexed messages of the thread with a key above `afterKey`, in thread order,
   * that may contain the query: every message whose rendered text does is among them (the
   * caller checks each). Streaming messages are not indexed yet.
   */
  searchCandidates(input: SearchCandidateQuery): Promise<SearchCandidate[]>;
  /**
   * Search all threads (issue 31): candidates from every listed thread, newest thread first,
   * in thread order within each, after `after`. A query of three or more characters gets up to
   * `limit` candidates that may match, walked to in list order or found through the trigram
   * index (storage README, "Search all threads"); a shorter one reads the next `limit`
   * messages in that order, whatever they hold (the caller checks each).
   */
  searchAllCandidates(input: CrossThreadCandidateQuery): Promise<CrossThreadCandidates>;
  /**
   * Up to `limit` finished messages too long to index in their own transaction, queued for the
   * background indexer (`searchIndexer.ts`); not searchable until {@link writeSearchText}.
   * `only`: just those of these messages that are queued, and with `createdBefore` (an ISO
   * time) also any queued message created before it (what a process that died left: a live
   * one indexes its own); `except`: none of these (being indexed already: a long text is not
   * read again by every round, issue 33).
   */
  queuedSearchTexts(
    limit: number,
    only?: readonly string[],
    except?: readonly string[],
    createdBefore?: string,
  ): Promise<QueuedSearchText[]>;
  /**
   * A long text's index ahead of {@link writeSearchText} (issue 33, stores whose
   * `indexesSearchPieces` is true): writes piece `piece` (`searchPieces.ts`) of a queued
   * message's rendered text, each in a short transaction of its own; piece 0 first removes
   * whatever an earlier, unfinished indexing left. The message stays unsearchable until
   * `writeSearchText`. False (nothing written) when it is no longer queued. PostgreSQL, whose
   * index is built by the database server, writes nothing (true).
   */
  writeSearchTextPiece(messageId: string, text: string, piece: number): Promise<boolean>;
  /**
   * Stores a queued message's rendered text and takes it off the queue, its index complete:
   * pieces from `piecesWritten` on (default 0: all) are written here, the earlier ones were by
   * {@link writeSearchTextPiece}. False (nothing written) when it is no longer queued (indexed
   * by another process, or deleted).
   */
  writeSearchText(messageId: string, text: string, piecesWritten?: number): Promise<boolean>;

  // Bulk writes (the seed, issue 33)
  /**
   * Appends finished turns at the end of a thread's path shown (inside a transaction), in a few
   * statements per call: the very rows that, for each turn in order, `insertTurnWithPrompt`,
   * `insertCitations` of the prompt, `insertAssistantMessage` (complete) for each reply,
   * `writeSearchText` of each message and `updateTurn` (`completed`, at its last message's
   * time) write one at a time: seqs, parents, the thread's count and time, the search index and
   * the citation index with its backlink sums. Writes no events.
   */
  appendFinishedTurns(threadId: string, turns: readonly FinishedTurnInput[]): Promise<void>;

  // User-input requests
  insertUserInputRequest(input: {
    id: string;
    threadId: string;
    turnId: string;
    questions: UserInputQuestion[];
    now: string;
  }): Promise<UserInputRequest>;
  getUserInputRequest(id: string): Promise<UserInputRecord | null>;
  pendingUserInput(threadId: string): Promise<UserInputRequest | null>;
  pendingUserInputIdsOfTurn(turnId: string): Promise<string[]>;
  /** Marks a pending request answered or cancelled; false when it was not pending. */
  resolveUserInputRequest(input: {
    id: string;
    status: "answered" | "cancelled";
    answers: Record<string, string> | null;
    now: string;
  }): Promise<boolean>;

  // Events
  /** Appends an event to the thread's log and returns its id (next in the thread's sequence). */
  appendEvent(threadId: string, event: ServerEvent, data?: string): Promise<number>;
  /** Stored events with id > `afterId`, in order, at most `limit`. */
  eventsAfter(threadId: string, afterId: number, limit: number): Promise<StoredEvent[]>;
  /** Drops the delta rows of a completed message: its message.completed event carries the text. */
  deleteDeltaEvents(messageId: string): Promise<void>;

  // The turn queue (domain/turnQueue.ts)
  /** Serializes claims on a thread's queue until the transaction ends. */
  lockTurnQueue(threadId: string): Promise<void>;
  /** The thread's oldest unfinished turn and its lease state, or null when none is left. */
  queueHead(threadId: string): Promise<QueueHead | null>;
  /** Leases a turn to `owner` for `leaseMs` and marks it started; returns its provider input. */
  claimTurn(turnId: string, owner: string, leaseMs: number): Promise<string>;
  /** Gives back `owner`'s claim on a turn that never ran (shutdown): it is queued again. */
  releaseTurn(turnId: string, owner: string): Promise<void>;
  /** Extends `owner`'s lease; false when the turn has ended or is no longer its own. */
  renewLease(turnId: string, owner: string, leaseMs: number): Promise<boolean>;
  /**
   * True when `owner` holds a live lease on the turn and it is unfinished; every write of a
   * running turn checks it in its own transaction. On PostgreSQL it locks the turn's row until
   * the transaction ends, so a takeover (which locks it too, in `queueHead`) waits for the write
   * or the write sees the takeover.
   */
  holdsTurn(turnId: string, owner: string): Promise<boolean>;
  /**
   * Locks the turn's row until the transaction ends (PostgreSQL; nothing to do in SQLite, whose
   * write transactions run one at a time). A transaction that ends or changes a turn another
   * process may be writing takes this first, as {@link holdsTurn} does, so the two take their
   * locks in one order and never deadlock.
   */
  lockTurn(turnId: string): Promise<void>;
  /** Threads with an unfinished turn that nobody holds a live lease on (queued or abandoned). */
  threadsAwaitingTurns(): Promise<string[]>;
}

/** The query names, for wrapping a store's queries one by one (`sqliteStore.ts`). */
export const CHAT_QUERY_METHODS = [
  "createThread",
  "getThread",
  "listThreads",
  "setThreadTitle",
  "renameThread",
  "setThreadDeleted",
  "threadsDeletedBefore",
  "purgeThread",
  "threadWasPurged",
  "hasTurns",
  "insertTurnWithPrompt",
  "getTurn",
  "getTurnPromptSeq",
  "updateTurn",
  "activeTurn",
  "threadDetail",
  "startedUnfinishedTurns",
  "turnsByIds",
  "getProviderInput",
  "historyBefore",
  "insertAssistantMessage",
  "getMessage",
  "finishMessage",
  "streamingMessagesOfTurn",
  "messagesBefore",
  "messagesAfter",
  "messagesAround",
  "messagesBetween",
  "lastSeq",
  "messageShown",
  "versionsOf",
  "selectVersion",
  "showMessage",
  "answerRunOf",
  "insertRegenerateTurn",
  "unfinishedTurnsOf",
  "branchThread",
  "copyOf",
  "lockThreads",
  "insertCitations",
  "citedByOf",
  "citingMessagesOf",
  "searchCandidates",
  "searchAllCandidates",
  "queuedSearchTexts",
  "writeSearchTextPiece",
  "writeSearchText",
  "appendFinishedTurns",
  "insertUserInputRequest",
  "getUserInputRequest",
  "pendingUserInput",
  "pendingUserInputIdsOfTurn",
  "resolveUserInputRequest",
  "appendEvent",
  "eventsAfter",
  "deleteDeltaEvents",
  "lockTurnQueue",
  "queueHead",
  "claimTurn",
  "releaseTurn",
  "renewLease",
  "holdsTurn",
  "lockTurn",
  "threadsAwaitingTurns",
] as const satisfies readonly (keyof ChatQueries)[];

// Every query is listed: a method missing above fails to compile here.
type Unlisted = Exclude<keyof ChatQueries, (typeof CHAT_QUERY_METHODS)[number]>;
const everyQueryListed: [Unlisted] extends [never] ? true : Unlisted = true;
void everyQueryListed;

/** The same queries answered synchronously (the SQLite repository under `sqliteStore.ts`). */
export type SyncQueries = {
  [K in keyof ChatQueries]: ChatQueries[K] extends (...args: infer A) => Promise<infer R>
    ? (...args: A) => R
    : never;
};

/** Receives the events of a thread once they are committed, in id order, each once. */
export type CommittedEventsSink = (threadId: string, events: StoredEvent[]) => void;

/** A streaming chunk not stored yet (`ThreadEventLog.broadcast`). */
export type LiveDelta = ServerEvent & { type: "message.delta" };

/** Receives the live chunks another process broadcast, for watched threads, in order. */
export type LiveDeltaSink = (threadId: string, event: LiveDelta) => void;

export interface ChatStore extends ChatQueries {
  /** `sqlite` or `postgres`. */
  readonly kind: "sqlite" | "postgres";
  /**
   * True when other processes may share the database: turns left by another process are
   * recovered through leases, not at startup.
   */
  readonly shared: boolean;
  /**
   * True when the trigram index is written on this process's event loop (SQLite): a long text's
   * index is then written a piece at a time (`writeSearchTextPiece`), never in one statement.
   */
  readonly indexesSearchPieces: boolean;
  /** Stable id of this installation, kept in the database. */
  readonly environmentId: string;
  /**
   * Runs `fn` in one transaction and commits it; a throw rolls it back. A storage fault
   * becomes `StorageUnavailableError`. Never call `transaction` inside `fn`: pass `tx` on.
   */
  transaction<T>(fn: (tx: ChatQueries) => Promise<T>): Promise<T>;
  /**
   * Where committed events go. SQLite calls it right after each commit, for every thread;
   * PostgreSQL for the {@link watch}ed threads, as `LISTEN` tells it of commits by any process.
   */
  onCommittedEvents(sink: CommittedEventsSink): void;
  /** Starts delivering a thread's events to the sink; resolves once they will be. */
  watch(threadId: string): Promise<void>;
  unwatch(threadId: string): void;
  /**
   * Shared stores only: hands a chunk to the other processes, batched (PostgreSQL: one
   * `NOTIFY chat_live` per few milliseconds, not one per chunk). The writer shares only text
   * it has stored (issue 29), so other processes get it even when the message finishes, and its
   * delta rows are compacted, before they read them. Best effort: `message.completed` carries
   * the whole text.
   */
  shareLiveDelta?(threadId: string, event: LiveDelta): void;
  /**
   * Shared stores only: resolves once every chunk shared so far was sent, so a transaction
   * committed afterwards reaches other processes after those chunks.
   */
  flushLiveDeltas?(): Promise<void>;
  /** Where chunks shared by other processes go ({@link watch}ed threads only). */
  onLiveDeltas?(sink: LiveDeltaSink): void;
  /**
   * Shared stores only: where the ids of threads that any process changed go, watched or not
   * (PostgreSQL: every `NOTIFY chat_events`). The thread list's live feed reads them again.
   */
  onThreadNotified?(sink: (threadId: string) => void): void;
  /**
   * Shared stores only: tells every process (this one included, through
   * {@link onThreadNotified}) that a thread changed without an event on its stream: deleted,
   * restored, purged or created by a branch. Best effort, after the commit.
   */
  announceThread?(threadId: string): Promise<void>;
  /**
   * PostgreSQL only (issue 33): {@link ChatQueries.writeSearchText} of a batch in one statement,
   * committed by itself; the background indexer uses it when the store has it. Messages no
   * longer queued are skipped.
   */
  writeSearchTexts?(entries: readonly { messageId: string; text: string }[]): Promise<void>;
  /**
   * Resolves once the background indexer has indexed every message queued so far (tests and
   * benchmarks: a long reply is searchable after it).
   */
  searchIndexIdle(): Promise<void>;
  close(): Promise<void>;
}
