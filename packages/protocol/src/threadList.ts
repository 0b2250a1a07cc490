/** The thread list (paged, renamed, deleted, live) and one thread's detail. */
import { z } from "zod";
import { ThreadSchema, TurnSchema, UserInputRequestSchema } from "./entities.ts";

/**
 * `GET /api/threads?cursor=<c>&limit=<n>`: threads with at least one message, newest first
 * (`updatedAt`, then id), deleted ones left out. `nextCursor` fetches the next (older) page;
 * null on the last one. No cap on the total.
 */
export const ThreadListSchema = z.object({
  threads: z.array(ThreadSchema),
  nextCursor: z.string().nullable(),
});
export type ThreadList = z.infer<typeof ThreadListSchema>;
/** `PATCH /api/threads/:threadId` body: the new title (1..200 characters after trimming). */
export const RenameThreadBodySchema = z.object({ title: z.string().max(200) }).strict();
export type RenameThreadBody = z.infer<typeof RenameThreadBodySchema>;
/**
 * `DELETE /api/threads/:threadId` and `POST /api/threads/:threadId/restore`: the thread and,
 * while it is deleted, when the undo window ends (`POST .../restore` before then brings it back).
 */
export const ThreadDeletionSchema = z.object({
  thread: ThreadSchema,
  restorableUntil: z.string().nullable(),
});
export type ThreadDeletion = z.infer<typeof ThreadDeletionSchema>;
/** `POST /api/threads` body (title optional; normally derived from the first prompt). */
/**
 * One live change of the thread list (`GET /api/threads/events`, event `threads`): a thread to
 * show at its place (created, renamed, updated, restored, branched) or to take away (deleted).
 */
export const ThreadListChangeSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("upsert"), thread: ThreadSchema }),
  z.object({ type: z.literal("remove"), threadId: z.string() }),
]);
export type ThreadListChange = z.infer<typeof ThreadListChangeSchema>;
export const ThreadListEventSchema = z.object({ changes: z.array(ThreadListChangeSchema) });
export type ThreadListEvent = z.infer<typeof ThreadListEventSchema>;

export const CreateThreadBodySchema = z.object({ title: z.string().max(200).optional() }).strict();

/** `GET /api/threads/:threadId` */
export const ThreadDetailSchema = z.object({
  thread: ThreadSchema,
  activeTurn: TurnSchema.nullable(),
  pendingUserInput: UserInputRequestSchema.nullable(),
  /** Last SSE event id at the time of this response: subscribe with Last-Event-ID = this. */
  lastEventId: z.number().int(),
});
export type ThreadDetail = z.infer<typeof ThreadDetailSchema>;
