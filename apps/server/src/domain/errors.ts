/**
 * Errors the domain raises for a request it refuses. They name an {@link ErrorCode} only; the
 * HTTP layer (`http/errorStatus.ts`) chooses the status and writes
 * `{ error: { code, message, details? } }`.
 */
import type { ErrorCode } from "@app/protocol";

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
