/**
 * Ids from the request (path segments, `around=`, a body's `requestId`). No stored id holds NUL
 * (U+0000), and PostgreSQL refuses NUL in a query parameter (SQLSTATE 22021), so an id with NUL
 * is answered as the unknown id it is (404) before it reaches any store: one rule for SQLite and
 * PostgreSQL.
 */
import type { ErrorCode } from "@app/protocol";
import type { Context } from "hono";
import { DomainError } from "../domain/errors.ts";
import { hasNul } from "./jsonBody.ts";

const NOT_FOUND: Record<string, { code: ErrorCode; noun: string }> = {
  threadId: { code: "thread_not_found", noun: "thread" },
  turnId: { code: "turn_not_found", noun: "turn" },
  messageId: { code: "message_not_found", noun: "message" },
  around: { code: "message_not_found", noun: "message" },
  requestId: { code: "user_input_request_not_found", noun: "user-input request" },
};

/** `id` unchanged, or the 404 of its kind when it holds NUL. */
export function storableId(kind: keyof typeof NOT_FOUND, id: string): string {
  if (!hasNul(id)) return id;
  const { code, noun } = NOT_FOUND[kind]!;
  throw new DomainError(code, `No ${noun} has an id containing NUL (U+0000).`);
}

/** A path parameter that is an id (see {@link storableId}). */
export function idParam(c: Context, name: "threadId" | "turnId" | "messageId"): string {
  return storableId(name, c.req.param(name) ?? "");
}

/** An optional query value that is an id (see {@link storableId}). */
export function idQuery(c: Context, name: "around"): string | undefined {
  const value = c.req.query(name);
  return value === undefined ? undefined : storableId(name, value);
}
