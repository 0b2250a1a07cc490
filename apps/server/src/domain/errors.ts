/**
 * Errors the domain raises for a request it refuses. The HTTP layer turns them into
 * `{ error: { code, message, details? } }` with `status`.
 */
export class DomainError extends Error {
  override readonly name = "DomainError";
  readonly code: string;
  readonly status: 400 | 401 | 404 | 409 | 413 | 503;
  readonly details: Record<string, unknown> | undefined;

  constructor(
    status: DomainError["status"],
    code: string,
    message: string,
    details?: Record<string, unknown>,
  ) {
    super(message);
    this.status = status;
    this.code = code;
    this.details = details;
  }
}

/** The thread id does not exist. */
export function threadNotFound(threadId: string): DomainError {
  return new DomainError(404, "thread_not_found", `Thread "${threadId}" does not exist.`);
}
