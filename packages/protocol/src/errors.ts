/** Error codes and the error body every failed request answers with. */
import { z } from "zod";

/**
 * Every error code the API answers with. The HTTP status of each is chosen at the server's HTTP
 * edge (`apps/server/src/http/errorStatus.ts`); the domain only names the code.
 */
export const ErrorCodeSchema = z.enum([
  "invalid_json",
  "invalid_request",
  "invalid_cursor",
  "invalid_query",
  "invalid_text",
  "empty_input",
  "input_too_long",
  "unauthorized",
  "bad_origin",
  "bad_host",
  "thread_not_found",
  "thread_deleted",
  "message_not_found",
  "turn_not_found",
  "user_input_request_not_found",
  "not_found",
  "turn_not_running",
  "user_input_request_resolved",
  "payload_too_large",
  "headers_too_large",
  "unsupported_media_type",
  "too_many_event_streams",
  "internal_error",
  "shutting_down",
  "storage_unavailable",
  "version_out_of_range",
  "not_editable",
  "message_not_shown",
  "message_of_other_thread",
]);
export type ErrorCode = z.infer<typeof ErrorCodeSchema>;

/**
 * Codes of a failed turn (`turn.error.code`): the provider failed, went silent, ran too long,
 * wrote too much, storage failed, or the server stopped (`cancelled`: shutdown before or while
 * it ran; `interrupted`: found unfinished after a crash).
 */
export const TurnErrorCodeSchema = z.enum([
  "provider_error",
  "provider_idle_timeout",
  "provider_turn_timeout",
  "reply_too_long",
  "storage_unavailable",
  "cancelled",
  "interrupted",
]);
export type TurnErrorCode = z.infer<typeof TurnErrorCodeSchema>;

export const ErrorBodySchema = z.object({
  error: z.object({
    // A plain string for clients: an older client must still read a code it does not know.
    code: z.string(),
    message: z.string(),
    details: z.record(z.string(), z.unknown()).optional(),
  }),
});
export type ErrorBody = z.infer<typeof ErrorBodySchema>;
