/**
 * Errors the domain raises for a request it refuses. They name an {@link ErrorCode} only; the
 * HTTP layer (`http/errorStatus.ts`) chooses the status and writes
 * `{ error: { code, message, details? } }`.
 */
import type { ErrorCode } from "@app/protocol";
import { isStorageFault } from "../storage/storageErrors.ts";

export class DomainError extends Error {
  override readonly name = "DomainError";
  readonly code: ErrorCode;
  readonly details: Record<string, unknown> | undefined;

  constructor(code: ErrorCode, message: string, details?: Record<string, unknown>) {
    super(message);
    this.code = code;
    this.details = details;
  }
}

/** The thread id does not exist. */
export function threadNotFound(threadId: string): DomainError {
  return new DomainError("thread_not_found", `Thread "${threadId}" does not exist.`);
}

/**
 * The thread was deleted: `purged` once it is gone for good, else it is still within its undo
 * window (`POST .../restore`).
 */
export function threadDeleted(threadId: string, purged: boolean): DomainError {
  return new DomainError("thread_deleted", `Thread "${threadId}" was deleted.`, { purged });
}

/**
 * How the domain reports a failed request: a {@link DomainError} as it is, a storage fault (disk
 * full, read-only, connection lost) as `storage_unavailable` (nothing was changed, and reads
 * keep working); null for anything else, which is a bug.
 */
export function asDomainError(error: unknown): DomainError | null {
  if (error instanceof DomainError) return error;
  if (!isStorageFault(error)) return null;
  const detail = error instanceof Error ? error.message : "The storage failed.";
  return new DomainError("storage_unavailable", `${detail} Try again later.`);
}
