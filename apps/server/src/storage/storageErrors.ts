/**
 * Storage faults: the disk is full, the database is read-only, or the device failed. They are
 * not bugs in a request, so every storage implementation reports them as one error type, which
 * the domain can wait out (a turn ends `failed` once that can be recorded) and the HTTP layer
 * answers with 503 `storage_unavailable`.
 */

/** A write (or read) failed because the storage cannot serve it right now. */
export class StorageUnavailableError extends Error {
  override readonly name = "StorageUnavailableError";
  /** The driver's code, e.g. `SQLITE_FULL`. */
  readonly reason: string;

  constructor(reason: string, options?: { cause?: unknown }) {
    super(describe(reason), options);
    this.reason = reason;
  }
}

// SQLite result codes (primary and extended) that mean "the storage is unavailable", not "the
// statement is wrong": full disk, read-only file or mount, I/O errors, a file that cannot be
// opened, memory exhaustion and a lock held past busy_timeout.
const FAULT_CODE = /^SQLITE_(FULL|READONLY|IOERR|CANTOPEN|NOMEM|BUSY|LOCKED|PROTOCOL)(_|$)/;

// PostgreSQL SQLSTATEs and socket errors with the same meaning: connection lost or refused
// (class 08, network errors), out of disk or memory (53), server shutting down (57P), a
// statement cancelled at statement_timeout (57014), a read-only transaction (25006, e.g. a
// standby).
const PG_FAULT_CODE =
  /^(08...|53...|57P0.|57014|25006|ECONNREFUSED|ECONNRESET|EPIPE|ETIMEDOUT|ENOTFOUND|EHOSTUNREACH)$/;
const PG_FAULT_MESSAGE =
  /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error)/;

/** True when `error` is a storage fault (already translated or a raw driver error). */
export function isStorageFault(error: unknown): boolean {
  if (error instanceof StorageUnavailableError) return true;
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === "string") return FAULT_CODE.test(code) || PG_FAULT_CODE.test(code);
  return error instanceof Error && PG_FAULT_MESSAGE.test(error.message);
}

/** Returns a {@link StorageUnavailableError} for a storage fault, `error` itself otherwise. */
export function translateStorageError(error: unknown): unknown {
  if (error instanceof StorageUnavailableError || !isStorageFault(error)) return error;
  const code = (error as { code?: unknown }).code;
  return new StorageUnavailableError(typeof code === "string" ? code : "connection_lost", {
    cause: error,
  });
}

function describe(reason: string): string {
  if (reason.startsWith("SQLITE_FULL")) return "The disk is full; the change was not saved.";
  if (reason.startsWith("SQLITE_READONLY")) {
    return "The data directory is read-only; the change was not saved.";
  }
  if (reason.startsWith("SQLITE_BUSY") || reason.startsWith("SQLITE_LOCKED")) {
    return "The database is busy; the change was not saved.";
  }
  if (!reason.startsWith("SQLITE_")) {
    return `The database is unavailable (${reason}); the change was not saved.`;
  }
  return `The storage failed (${reason}); the change was not saved.`;
}
