/** History pages and the cited-by pages of a message. */
import { z } from "zod";
import { CitedRangeSchema, MessageSchema, TurnSchema } from "./entities.ts";

/**
 * `GET /api/threads/:threadId/messages?before=<cursor>&limit=<n>` (no `before`: newest page) and
 * `?around=<messageId>&limit=<n>`. Messages are oldest first. `nextCursor` fetches the page just
 * older than this one and is null at the start of the thread; `newerCursor` (around windows
 * only, else null) is non-null when newer messages exist after this window (`after=<cursor>`).
 */
export const MessagePageSchema = z.object({
  messages: z.array(MessageSchema),
  nextCursor: z.string().nullable(),
  newerCursor: z.string().nullable(),
  turns: z.array(TurnSchema),
});
export type MessagePage = z.infer<typeof MessagePageSchema>;

/**
 * `GET /api/threads/:threadId/messages/:messageId/cited-by?cursor=<c>&limit=<n>`: the citations
 * of this message by later messages (any thread of this environment), oldest first, one entry
 * per distinct citation. `nextCursor` fetches the next page; null on the last one.
 */
export const CitingMessageSchema = z.object({
  /** The citing (user) message. */
  messageId: z.string(),
  threadId: z.string(),
  /** The citing thread's title when it is another thread than the cited one, else null. */
  threadTitle: z.string().nullable(),
  createdAt: z.string(),
  /** The citation's comment, or null when it has none. */
  comment: z.string().nullable(),
  /** What it quotes. */
  quote: CitedRangeSchema,
});
export type CitingMessage = z.infer<typeof CitingMessageSchema>;
export const CitedByPageSchema = z.object({
  citations: z.array(CitingMessageSchema),
  nextCursor: z.string().nullable(),
});
export type CitedByPage = z.infer<typeof CitedByPageSchema>;
