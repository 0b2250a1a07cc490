/** Request bodies and responses of the turn, version, branch and small endpoints. */
import { z } from "zod";
import { MessageSchema, ThreadSchema, TurnSchema } from "./entities.ts";

/** `POST /api/threads/:threadId/turns` */
export const SendTurnBodySchema = z.object({ input: z.string() }).strict();
export const SendTurnResponseSchema = z.object({ turn: TurnSchema, message: MessageSchema });
export type SendTurnResponse = z.infer<typeof SendTurnResponseSchema>;

/**
 * Conversations that change (DESIGN.md section 8).
 * `POST /api/threads/:threadId/messages/:messageId/edit` `{ input }`: a new version of a sent
 * prompt, run as a new turn (201, as `SendTurnResponse` plus `stoppedTurnId`: a later turn that
 * was still running and was stopped first, else null).
 */
export const EditMessageBodySchema = z.object({ input: z.string() }).strict();
export const EditMessageResponseSchema = z.object({
  turn: TurnSchema,
  message: MessageSchema,
  stoppedTurnId: z.string().nullable(),
});
export type EditMessageResponse = z.infer<typeof EditMessageResponseSchema>;
/** `POST .../messages/:messageId/regenerate` `{}`: a new version of an answer (201 `{ turn }`). */
export const RegenerateResponseSchema = z.object({
  turn: TurnSchema,
  stoppedTurnId: z.string().nullable(),
});
export type RegenerateResponse = z.infer<typeof RegenerateResponseSchema>;
/**
 * `POST .../messages/:messageId/version` `{ version }`: shows version N of this message (and
 * the later history that follows it). `POST .../messages/:messageId/show` `{}`: shows the path
 * through this message (a chip citing a version not shown). Both answer `{ messageId }`, the
 * message now shown.
 */
export const SelectVersionBodySchema = z.object({ version: z.number().int() }).strict();
export const ShownMessageResponseSchema = z.object({ messageId: z.string() });
export type ShownMessageResponse = z.infer<typeof ShownMessageResponseSchema>;
/** `POST /api/threads/:threadId/branch` `{ messageId }` -> 201 `{ thread }`. */
export const BranchBodySchema = z.object({ messageId: z.string().min(1) }).strict();
export const BranchResponseSchema = z.object({ thread: ThreadSchema });
export type BranchResponse = z.infer<typeof BranchResponseSchema>;
/**
 * `GET /api/threads/:threadId/copies/:messageId`: the copy in this (branch) thread of a message
 * of the thread it was branched from (at any depth), or 404 `message_not_found`.
 */
export const MessageCopySchema = z.object({ messageId: z.string() });

/** `POST /api/threads/:threadId/user-input` */
export const UserInputAnswerBodySchema = z
  .object({ requestId: z.string().min(1), answers: z.record(z.string(), z.string()) })
  .strict();
export type UserInputAnswerBody = z.infer<typeof UserInputAnswerBodySchema>;
/** Its response: the answered request's id and the turn, running again. */
export const UserInputAnswerResponseSchema = z.object({ requestId: z.string(), turn: TurnSchema });
export type UserInputAnswerResponse = z.infer<typeof UserInputAnswerResponseSchema>;

/** `POST /api/threads/:threadId/turns/:turnId/cancel` (body `{}`) */
export const CancelTurnResponseSchema = z.object({ turn: TurnSchema });
export type CancelTurnResponse = z.infer<typeof CancelTurnResponseSchema>;

/** `GET /api/threads/:threadId/turns/:turnId/provider-input`: exactly what the model saw. */
export const ProviderInputSchema = z.object({
  turnId: z.string(),
  input: z.string(),
  length: z.number().int(),
});

/** `GET /api/files?query=<text>&limit=<n>`: workspace files for the composer's `@` typeahead. */
export const FileListSchema = z.object({ files: z.array(z.string()) });
