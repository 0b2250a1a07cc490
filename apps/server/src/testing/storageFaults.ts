/**
 * Storage faults on demand, for tests of the server's behaviour on a full, read-only or failing
 * disk. Pass {@link StorageFaults.open} as `startServer({ openDatabase })`.
 * - {@link StorageFaults.fillDisk} is a real SQLITE_FULL: SQLite's own `max_page_count` stops the
 *   file from growing, so the next write that needs a page fails inside SQLite.
 * - {@link StorageFaults.failWrites} makes every INSERT/UPDATE/DELETE statement throw SQLite's
 *   own error type with the given code (e.g. `SQLITE_IOERR_WRITE`, `SQLITE_READONLY`), for
 *   faults a test cannot produce otherwise. Reads keep working, as on a real read-only disk.
 *   With `only`, just the write statements whose SQL matches it fail (a fault in the middle of
 *   a transaction, after its first writes succeeded).
 */
import Database from "better-sqlite3";
import { openDatabase, type SqliteDatabase } from "../storage/db.ts";

const UNLIMITED_PAGES = 1_073_741_823;

export class StorageFaults {
  #db: SqliteDatabase | null = null;
  #writeFault: string | null = null;
  #only: RegExp | null = null;
  /** `failWritesFrom`: writes fail with this code from the start (e.g. a disk already full). */
  constructor(options: { failWritesFrom?: string } = {}) {
    this.#writeFault = options.failWritesFrom ?? null;
  }

  /** Opens the database through the fault layer (and remembers it). */
  readonly open = (file: string): SqliteDatabase => {
    const db = openDatabase(file);
    this.#db = db;
    return wrapDatabase(db, (sql) =>
      this.#only === null || this.#only.test(sql) ? this.#writeFault : null,
    );
  };

  /** The disk is full from now on: the database cannot grow by one page. */
  fillDisk(): void {
    const db = this.#required();
    const pages = db.pragma("page_count", { simple: true }) as number;
    db.pragma(`max_page_count = ${pages}`);
  }

  /** Space is back. */
  freeDisk(): void {
    this.#required().pragma(`max_page_count = ${UNLIMITED_PAGES}`);
  }

  /** Every write statement fails with `code` until {@link heal}; null heals. */
  failWrites(code: string | null, options: { only?: RegExp } = {}): void {
    this.#writeFault = code;
    this.#only = options.only ?? null;
  }

  heal(): void {
    this.#writeFault = null;
    this.#only = null;
    this.freeDisk();
  }

  #required(): SqliteDatabase {
    if (this.#db === null) throw new Error("StorageFaults: no database opened yet");
    return this.#db;
  }
}

const WRITE = /^\s*(INSERT|UPDATE|DELETE|REPLACE)\b/i;

function wrapDatabase(db: SqliteDatabase, fault: (sql: string) => string | null): SqliteDatabase {
  return new Proxy(db, {
    get(target, property) {
      if (property === "prepare") {
        return (sql: string) => {
          const statement = target.prepare(sql);
          return WRITE.test(sql) ? wrapStatement(statement, () => fault(sql)) : statement;
        };
      }
      const value = Reflect.get(target, property, target) as unknown;
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

function wrapStatement<S extends object>(statement: S, fault: () => string | null): S {
  return new Proxy(statement, {
    get(target, property) {
      const value = Reflect.get(target, property, target) as unknown;
      if (typeof value !== "function") return value;
      if (property !== "run" && property !== "get" && property !== "all") return value.bind(target);
      return (...args: unknown[]) => {
        const code = fault();
        if (code !== null) throw new Database.SqliteError(`injected fault: ${code}`, code);
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
}
