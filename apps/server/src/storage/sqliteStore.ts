/**
 * The embedded store: one SQLite file, one connection, one process. Each query runs
 * synchronously in better-sqlite3 (the {@link ChatRepository}) and is only wrapped in a
 * settled promise, so SQLite keeps its speed behind the async interface.
 *
 * Transactions run one at a time (an in-process queue in front of `BEGIN IMMEDIATE`), because
 * a transaction now spans awaits and the connection is shared; those asked for in one turn of
 * the event loop commit together (group commit, {@link SqliteTransactions}). Events appended
 * inside one are handed to the sink right after its commit, in the same synchronous step. Long messages are
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
import type { IndexPacing } from "./indexPacing.ts";
import { type ChatRepository, createChatRepository } from "./repository.ts";
import { withSearchIndexer } from "./searchIndexer.ts";
import { translateStorageError } from "./storageErrors.ts";
import { startWalCheckpointer } from "./walCheckpointer.ts";

/**
 * Opens the store over an open SQLite database (see `db.ts` for opening the file).
 * `indexPacing`: when the search indexer renders (default: while the event loop has room).
 */
export function createSqliteStore(
  db: SqliteDatabase,
  { indexPacing }: { indexPacing?: IndexPacing } = {},
): ChatStore {
  const core = new SqliteTransactions(db);
  const checkpointer = db.memory ? null : startWalCheckpointer(db.name);
  return withSearchIndexer(
    {
      ...asyncQueries(core.repo),
      kind: "sqlite",
      shared: false,
      indexesSearchPieces: true,
      get environmentId() {
        return core.repo.environmentId;
      },
      transaction: (fn) => core.transaction(fn),
      onCommittedEvents: (sink) => core.onCommittedEvents(sink),
      // One process owns the file: every committed event is already in hand.
      watch: async () => {},
      unwatch: () => {},
      close: async () => {
        // Transactions asked for before close still commit (they wait for the next loop turn).
        await core.idle();
        await checkpointer?.close();
        db.close();
      },
    },
    indexPacing,
  );
}

/** Most transactions committed together (a group's members run one after another). */
const MAX_GROUP = 64;

type Queued = {
  fn: (tx: ChatQueries) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
};

/**
 * Transactions one at a time on the one connection, committed in groups, and events delivered
 * after commit.
 *
 * Group commit (issue 33): the transactions asked for during one turn of the event loop run
 * one after another inside a single `BEGIN IMMEDIATE` … `COMMIT`, each in its own savepoint,
 * so a BEGIN/COMMIT pair and its WAL frames serve several (a turn's path asks for four, and
 * fifty clients ask at once). Each keeps its own outcome: one that throws is rolled back to its
 * savepoint alone, and the others commit. Each caller's promise settles only after the commit
 * (nothing is acknowledged before it is stored); a failed commit, or a fault that makes SQLite
 * roll back the whole transaction (disk full, I/O error), fails every member of the group with
 * nothing stored.
 */
class SqliteTransactions {
  readonly db: SqliteDatabase;
  readonly repo: ChatRepository;
  readonly #tx: ChatQueries;
  readonly #begin;
  readonly #commit;
  readonly #rollback;
  readonly #savepoint;
  readonly #release;
  readonly #rollbackToSavepoint;
  /** Events appended by the open transaction, delivered after its commit. */
  #appended: { threadId: string; stored: StoredEvent }[] = [];
  #running = false;
  #queue: Queued[] = [];
  #idleWaiters: (() => void)[] = [];
  #sink: CommittedEventsSink = () => {};

  constructor(db: SqliteDatabase) {
    this.db = db;
    this.repo = createChatRepository(db);
    this.#begin = db.prepare("BEGIN IMMEDIATE");
    this.#commit = db.prepare("COMMIT");
    this.#rollback = db.prepare("ROLLBACK");
    this.#savepoint = db.prepare("SAVEPOINT member");
    this.#release = db.prepare("RELEASE member");
    this.#rollbackToSavepoint = db.prepare("ROLLBACK TO member");
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

  transaction<T>(fn: (tx: ChatQueries) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.#queue.push({ fn, resolve: resolve as (value: unknown) => void, reject });
      this.#schedule();
    });
  }

  onCommittedEvents(sink: CommittedEventsSink): void {
    this.#sink = sink;
  }

  /** Resolves once no transaction is queued or running. */
  idle(): Promise<void> {
    if (!this.#running && this.#queue.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.#idleWaiters.push(resolve));
  }

  /** Runs the next group once this turn of the event loop has asked for what it will. */
  #schedule(): void {
    if (this.#running) return;
    if (this.#queue.length === 0) {
      for (const resolve of this.#idleWaiters.splice(0)) resolve();
      return;
    }
    this.#running = true;
    setImmediate(() => {
      void this.#runGroup().finally(() => {
        this.#running = false;
        this.#schedule();
      });
    });
  }

  async #runGroup(): Promise<void> {
    const group = this.#queue.splice(0, MAX_GROUP);
    try {
      this.#begin.run();
    } catch (error) {
      for (const member of group) member.reject(translateStorageError(error));
      return;
    }
    const outcomes: ({ ok: true; value: unknown } | { ok: false; error: unknown })[] = [];
    let whole: unknown = null;
    for (const member of group) {
      const appended = this.#appended.length;
      try {
        this.#savepoint.run();
        const value = await member.fn(this.#tx);
        this.#release.run();
        outcomes.push({ ok: true, value });
      } catch (error) {
        this.#appended.length = appended;
        if (!this.db.inTransaction) {
          // SQLite rolled back the whole transaction (e.g. SQLITE_FULL): nothing is stored.
          whole = error;
          break;
        }
        try {
          this.#rollbackToSavepoint.run();
          this.#release.run();
        } catch (rollbackError) {
          whole = rollbackError;
          break;
        }
        outcomes.push({ ok: false, error });
      }
    }
    if (whole === null) {
      try {
        this.#commit.run();
      } catch (error) {
        whole = error;
      }
    }
    if (whole !== null) {
      if (this.db.inTransaction) this.#rollback.run();
      this.#appended = [];
      const error = translateStorageError(whole);
      for (const member of group) member.reject(error);
      return;
    }
    this.#deliver();
    group.forEach((member, i) => {
      const outcome = outcomes[i]!;
      if (outcome.ok) member.resolve(outcome.value);
      else member.reject(translateStorageError(outcome.error));
    });
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
