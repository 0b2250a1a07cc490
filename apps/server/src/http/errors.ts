/** The one JSON error shape of the API: `{ error: { code, message, details? } }`. */
import type { ErrorBody, ErrorCode } from "@app/protocol";
import type { Context } from "hono";
import { statusOf } from "./errorStatus.ts";

/** A JSON error response; its status follows from `code`. */
export function errorResponse(
  c: Context,
  code: ErrorCode,
  message: string,
  details?: Record<string, unknown>,
): Response {
  const body: ErrorBody = { error: details ? { code, message, details } : { code, message } };
  return c.json(body, statusOf(code));
}
