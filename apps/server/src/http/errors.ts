/** The one JSON error shape of the API: `{ error: { code, message, details? } }`. */
import type { ErrorBody } from "@app/protocol";
import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";

/** A JSON error response. */
export function errorResponse(
  c: Context,
  status: ContentfulStatusCode,
  code: string,
  message: string,
  details?: Record<string, unknown>,
): Response {
  const body: ErrorBody = { error: details ? { code, message, details } : { code, message } };
  return c.json(body, status);
}
