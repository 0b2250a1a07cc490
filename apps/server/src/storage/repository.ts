/**
 * The SQLite queries of the store contract (`chatStore.ts`), synchronous (better-sqlite3) and
 * prepared once; `sqliteStore.ts` wraps them as async queries and runs its transactions. Only
 * SQL lives here, one module per concern (`sqliteThreads.ts`, `sqliteTurns.ts`,
 * `sqliteTurnQueue.ts`, `sqliteMessages.ts`, `sqliteEvents.ts`, `sqliteCitationQueries.ts`,
 * `sqliteSearch.ts`);
 * paging windows, the history budget and the delta replay are `storeLogic.ts`. Storage faults
 * (disk full, read-only, I/O errors) leave it as {@link StorageUnavailableError}.
 *
 * A streaming message's text is not rewritten on every chunk: each flush appends one
 * `message.delta` event row (O(chunk)), the text of a streaming message is its stored text plus
 * those rows, and `finishMessage` writes the whole text once at the end.
 */
import { randomUUID } from "node:crypto";
import type { SyncQueries, ThreadDetailRecord } from "./chatStore.ts";
import type { SqliteDatabase } from "./db.ts";
import { sqliteBulkTurnQueries } from "./sqliteBulkTurns.ts";
import { sqliteCitationQueries } from "./sqliteCitationQueries.ts";
import { sqliteCrossThreadSearch } from "./sqliteCrossThreadSearch.ts";
import { sqliteEventQueries } from "./sqliteEvents.ts";
import { sqliteMessageQueries } from "./sqliteMessages.ts";
import { sqliteSearchQueries, sqliteSearchQueue } from "./sqliteSearch.ts";
import { sqliteThreadLifecycleQueries } from "./sqliteThreadLifecycle.ts";
import { sqliteThreadQueries } from "./sqliteThreads.ts";
import { sqliteTurnQueue } from "./sqliteTurnQueue.ts";
import { sqliteTurnQueries } from "./sqliteTurns.ts";
import { sqliteVersionQueries } from "./sqliteVersions.ts";
import { translateStorageError } from "./storageErrors.ts";

/** Typed access to the chat tables: every query, synchronous. One per database connection. */
export interface ChatRepository extends SyncQueries {
  /** Stable id of this installation, created on first start and kept in the database. */
  readonly environmentId: string;
  /**
   * Runs `fn` in one transaction (nested calls join the outer one). A storage fault rolls it
   * back and throws {@link StorageUnavailableError}.
   */
  transaction<T>(fn: () => T): T;
}

export function createChatRepository(db: SqliteDatabase): ChatRepository {
  const environmentId = loadEnvironmentId(db);
  const { nextSeq, ...threads } = sqliteThreadQueries(db, environmentId);
  const { placementOf, addVersion, ...versions } = sqliteVersionQueries(db, environmentId);
  const { insertMessageRow, ...messages } = sqliteMessageQueries(db, nextSeq, {
    placementOf,
    addVersion,
  });
  const turns = sqliteTurnQueries(db, nextSeq, {
    insertMessageRow,
    getMessage: messages.getMessage,
  });
  const events = sqliteEventQueries(db);
  return {
    environmentId,
    transaction<T>(fn: () => T): T {
      try {
        return db.transaction(fn)();
      } catch (error) {
        throw translateStorageError(error);
      }
    },
    ...threads,
    ...messages,
    ...versions,
    ...turns,
    ...sqliteTurnQueue(db, turns),
    ...events,
    ...sqliteCitationQueries(db, environmentId),
    ...sqliteThreadLifecycleQueries(db, environmentId),
    ...sqliteSearchQueries(db),
    ...sqliteCrossThreadSearch(db),
    ...sqliteSearchQueue(db),
    ...sqliteBulkTurnQueries(db, environmentId),

    /**
     * A thread with its active turn and pending question, read together (one snapshot), or
     * null. lastEventId is as new as both, so a client subscribing from it misses no change.
     */
    threadDetail(threadId: string): ThreadDetailRecord | null {
      const record = threads.getThread(threadId);
      if (!record) return null;
      return {
        record,
        activeTurn: turns.activeTurn(threadId),
        pendingUserInput: events.pendingUserInput(threadId),
      };
    },
  };
}

function loadEnvironmentId(db: SqliteDatabase): string {
  const get = db.prepare("SELECT value FROM meta WHERE key = ?");
  const existing = get.get("environment_id") as { value: string } | undefined;
  if (existing) return existing.value;
  db.prepare("INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO NOTHING").run(
    "environment_id",
    randomUUID(),
  );
  return (get.get("environment_id") as { value: string }).value;
}
