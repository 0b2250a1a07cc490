/**
 * The storage interface the domain talks to, with two implementations: SQLite (embedded, the
 * default; `sqliteStore.ts`) and PostgreSQL (`DATABASE_URL`; `postgres/postgresStore.ts`).
 *
 * Every query is async so PostgreSQL can serve it over the network; the SQLite store answers
 * each one synchronously underneath (better-sqlite3) and only wraps the result. The queries are
 * exactly the public methods of the SQLite {@link ChatRepository} listed in
 * {@link CHAT_QUERY_METHODS}, so both stores keep one contract, pinned by the contract tests
 * (`repository.test.ts` and the API tests run against both).
 */
import type { ServerEvent } from "@app/protocol";
import type { ChatRepository, StoredEvent } from "./repository.ts";

export { DEFAULT_THREAD_TITLE } from "../titles.ts";
export type {
  HistoryBudget,
  HistoryTurn,
  MessageWindow,
  QueueHead,
  StoredEvent,
  ThreadDetailRecord,
  ThreadRecord,
  UserInputRecord,
} from "./repository.ts";

/** The queries of both stores (method names of {@link ChatRepository}). */
export const CHAT_QUERY_METHODS = [
  "createThread",
  "getThread",
  "listThreads",
  "setThreadTitle",
  "hasTurns",
  "insertTurnWithPrompt",
  "getTurn",
  "getTurnPromptSeq",
  "updateTurn",
  "activeTurn",
  "threadDetail",
  "unfinishedTurns",
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
  "renewLease",
  "threadsAwaitingTurns",
] as const;

type QueryMethod = (typeof CHAT_QUERY_METHODS)[number];
type Async<T> = {
  [K in keyof T]: T[K] extends (...args: infer A) => infer R ? (...args: A) => Promise<R> : never;
};

/** Every query, inside a transaction or not. */
export type ChatQueries = Async<Pick<ChatRepository, QueryMethod>>;

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
   * Shared stores only: hands a chunk that is not stored yet to the other processes, batched
   * (PostgreSQL: one `NOTIFY chat_live` per few milliseconds, not one per chunk), so their
   * clients see it before the writer's next flush. Best effort: the stored delta row that
   * follows covers anything lost.
   */
  shareLiveDelta?(threadId: string, event: LiveDelta): void;
  /** Where chunks shared by other processes go ({@link watch}ed threads only). */
  onLiveDeltas?(sink: LiveDeltaSink): void;
  close(): Promise<void>;
}
