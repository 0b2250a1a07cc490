/**
 * The embedded store: one SQLite file, one connection, one process. Each query runs
 * synchronously in better-sqlite3 (the {@link ChatRepository}) and is only wrapped in a
 * settled promise, so SQLite keeps its speed behind the async interface.
 *
 * Transactions run one at a time (an in-process queue in front of `BEGIN IMMEDIATE`), because
 * a transaction now spans awaits and the connection is shared. Events appended inside one are
 * handed to the sink right after its commit, in the same synchronous step. Long messages are
 * indexed for search right after their commit (`searchIndexer.ts`).
 */
import type { ServerEvent } from "@app/protocol";
import {
  CHAT_QUERY_METHODS,
  type ChatQueries,
  type ChatStore,
  type CommittedEventsSink,
  type StoredEvent,
} from "./chatStore.ts";
import type { SqliteDatabase } from "./db.ts";
import { type ChatRepository, createChatRepository } from "./repository.ts";
import { withSearchIndexer } from "./searchIndexer.ts";
import { translateStorageError } from "./storageErrors.ts";
import { startWalCheckpointer } from "./walCheckpointer.ts";

/** Opens the store over an open SQLite database (see `db.ts` for opening the file). */
export function createSqliteStore(db: SqliteDatabase): ChatStore {
  const core = new SqliteTransactions(db);
  const checkpointer = db.memory ? null : startWalCheckpointer(db.name);
  return withSearchIndexer({
    ...asyncQueries(core.repo),
    kind: "sqlite",
    shared: false,
    get environmentId() {
      return core.repo.environmentId;
    },
    transaction: (fn) => core.transaction(fn),
    onCommittedEvents: (sink) => core.onCommittedEvents(sink),
    // One process owns the file: every committed event is already in hand.
    watch: async () => {},
    unwatch: () => {},
    close: async () => {
      await checkpointer?.close();
      db.close();
    },
  });
}

/** Transactions one at a time on the one connection, and events delivered after commit. */
class SqliteTransactions {
  readonly db: SqliteDatabase;
  readonly repo: ChatRepository;
  readonly #tx: ChatQueries;
  readonly #begin;
  readonly #commit;
  readonly #rollback;
  /** Events appended by the open transaction, delivered after its commit. */
  #appended: { threadId: string; stored: StoredEvent }[] = [];
  #inTransaction = false;
  readonly #waiting: (() => void)[] = [];
  #sink: CommittedEventsSink = () => {};

  constructor(db: SqliteDatabase) {
    this.db = db;
    this.repo = createChatRepository(db);
    this.#begin = db.prepare("BEGIN IMMEDIATE");
    this.#commit = db.prepare("COMMIT");
    this.#rollback = db.prepare("ROLLBACK");
    const queries = asyncQueries(this.repo);
    this.#tx = {
      ...queries,
      appendEvent: async (threadId: string, event: ServerEvent, data = JSON.stringify(event)) => {
        const id = this.repo.appendEvent(threadId, event, data);
        this.#appended.push({ threadId, stored: { id, event, data } });
        return id;
      },
    };
  }

  async transaction<T>(fn: (tx: ChatQueries) => Promise<T>): Promise<T> {
    if (this.#inTransaction) await new Promise<void>((resolve) => this.#waiting.push(resolve));
    this.#inTransaction = true;
    try {
      try {
        this.#begin.run();
      } catch (error) {
        throw translateStorageError(error);
      }
      let result: T;
      try {
        result = await fn(this.#tx);
        this.#commit.run();
      } catch (error) {
        // SQLite may already have rolled back (e.g. SQLITE_FULL); otherwise roll back here.
        if (this.db.inTransaction) this.#rollback.run();
        this.#appended = [];
        throw translateStorageError(error);
      }
      this.#deliver();
      return result;
    } finally {
      this.#inTransaction = false;
      this.#waiting.shift()?.();
    }
  }

  onCommittedEvents(sink: CommittedEventsSink): void {
    this.#sink = sink;
  }

  #deliver(): void {
    const appended = this.#appended;
    if (appended.length === 0) return;
    this.#appended = [];
    let start = 0;
    // Consecutive events of one thread go together.
    for (let i = 1; i <= appended.length; i++) {
      if (i < appended.length && appended[i]!.threadId === appended[start]!.threadId) continue;
      this.#sink(
        appended[start]!.threadId,
        appended.slice(start, i).map((a) => a.stored),
      );
      start = i;
    }
  }
}

/** The repository's queries as async functions (a thrown error becomes a rejection). */
function asyncQueries(repo: ChatRepository): ChatQueries {
  const queries: Record<string, (...args: unknown[]) => Promise<unknown>> = {};
  for (const name of CHAT_QUERY_METHODS) {
    const method = repo[name] as (...args: unknown[]) => unknown;
    queries[name] = (...args) => {
      try {
        return Promise.resolve(method.apply(repo, args));
      } catch (error) {
        return Promise.reject(translateStorageError(error));
      }
    };
  }
  return queries as unknown as ChatQueries;
}
