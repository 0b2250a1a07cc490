/** The one place that maps error codes to HTTP statuses (the domain never names a status). */
import type { ErrorCode } from "@app/protocol";
import type { ContentfulStatusCode } from "hono/utils/http-status";

const STATUS: Record<ErrorCode, ContentfulStatusCode> = {
  invalid_json: 400,
  invalid_request: 400,
  invalid_cursor: 400,
  invalid_query: 400,
  invalid_text: 400,
  empty_input: 400,
  input_too_long: 400,
  unauthorized: 401,
  bad_origin: 403,
  bad_host: 403,
  thread_not_found: 404,
  message_not_found: 404,
  turn_not_found: 404,
  user_input_request_not_found: 404,
  not_found: 404,
  turn_not_running: 409,
  user_input_request_resolved: 409,
  payload_too_large: 413,
  headers_too_large: 431,
  unsupported_media_type: 415,
  too_many_event_streams: 429,
  internal_error: 500,
  shutting_down: 503,
  storage_unavailable: 503,
};

/** HTTP status of an error code. */
export function statusOf(code: ErrorCode): ContentfulStatusCode {
  return STATUS[code];
}
