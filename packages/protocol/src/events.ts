/** The server-sent events of a thread's stream. */
import { z } from "zod";
import {
  CitedBySchema,
  MessageSchema,
  ThreadSchema,
  TurnSchema,
  UserInputRequestSchema,
} from "./entities.ts";

/**
 * Server-sent events on `GET /api/threads/:threadId/events`. Each has an `id:` (a per-thread
 * increasing integer) so a reconnecting client resumes with `Last-Event-ID` and sees every
 * event after it exactly once. `message.delta` carries `offset` (the length of the text before
 * this chunk) so a client can drop a chunk it already applied, or the part of it it has.
 * Live chunks of a streaming message arrive at once and WITHOUT an `id:` (they are stored every
 * ~100 ms); when the stored row covering them commits, the stream sends a bare `id:` line that
 * moves the client's Last-Event-ID without dispatching an event. A client therefore applies
 * `message.delta` by offset, never drops one for repeating the previous event's id.
 */
export const ServerEventSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("message.created"), message: MessageSchema }),
  z.object({
    type: z.literal("message.delta"),
    messageId: z.string(),
    offset: z.number().int(),
    delta: z.string(),
  }),
  z.object({ type: z.literal("message.completed"), message: MessageSchema }),
  z.object({ type: z.literal("turn.updated"), turn: TurnSchema }),
  z.object({ type: z.literal("user_input.requested"), request: UserInputRequestSchema }),
  z.object({ type: z.literal("user_input.resolved"), requestId: z.string() }),
  z.object({ type: z.literal("thread.updated"), thread: ThreadSchema }),
  /**
   * A new prompt cites `messageId` of this thread (from this or another thread): its backlinks
   * are now `citedBy`. Stored in the cited thread's log, in the prompt's transaction.
   */
  z.object({ type: z.literal("message.cited"), messageId: z.string(), citedBy: CitedBySchema }),
  /**
   * The path shown changed (an edit, a regeneration or a version switch): `messageId` is the
   * message now shown where it changed; history from there on is to be read again.
   */
  z.object({ type: z.literal("thread.path"), messageId: z.string() }),
]);
export type ServerEvent = z.infer<typeof ServerEventSchema>;
