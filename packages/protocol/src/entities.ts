/** The things the API talks about: environment, thread, turn, message, user-input request. */
import { z } from "zod";

/** `GET /api/environment` */
export const EnvironmentSchema = z.object({
  environmentId: z.string(),
  provider: z.string(),
  /** Model-facing input limit; mirrors PROVIDER_INPUT_MAX_CHARS. */
  maxInputChars: z.number().int(),
});
export type Environment = z.infer<typeof EnvironmentSchema>;

export const ThreadSchema = z.object({
  id: z.string(),
  environmentId: z.string(),
  /** Readable title from the first prompt (citations shown as plain text); "New thread" until then. */
  title: z.string(),
  /** Git-style branch name derived from the same plain text. */
  branchName: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  messageCount: z.number().int(),
});
export type Thread = z.infer<typeof ThreadSchema>;

/** `cancelled`: stopped by the user (`POST .../turns/:turnId/cancel`); its partial reply is kept. */
export const TurnStatusSchema = z.enum([
  "running",
  "waiting_for_input",
  "completed",
  "failed",
  "cancelled",
]);
export type TurnStatus = z.infer<typeof TurnStatusSchema>;

/**
 * Whether a turn has not ended: `running` or `waiting_for_input` (it may still write messages or
 * ask for input). The one owner of this rule for server and web; no turn (`null`) is not running.
 */
export function isTurnRunning(turn: { readonly status: TurnStatus } | null | undefined): boolean {
  return turn != null && (turn.status === "running" || turn.status === "waiting_for_input");
}

/** Whether a turn has ended (completed, failed or cancelled): its status is final. */
export function isTurnFinished(turn: { readonly status: TurnStatus }): boolean {
  return !isTurnRunning(turn);
}

export const TurnSchema = z.object({
  id: z.string(),
  threadId: z.string(),
  status: TurnStatusSchema,
  /** Set when the provider failed; the user's message is kept either way. */
  error: z.object({ code: z.string(), message: z.string() }).nullable(),
  createdAt: z.string(),
  completedAt: z.string().nullable(),
});
export type Turn = z.infer<typeof TurnSchema>;

/**
 * `kind`: "prompt" for the user's message, "progress" for an assistant update that the
 * web app folds ("Show N updates"), "answer" for the assistant's reply, "error" for a visible
 * turn failure notice.
 */
export const MessageKindSchema = z.enum(["prompt", "progress", "answer", "error"]);
export type MessageKind = z.infer<typeof MessageKindSchema>;

/**
 * Backlinks of an assistant message (issue 24): how many messages cite it and the distinct
 * quotes they cite (each a selector the web app resolves against the rendered text with the
 * kernel's resolver). Only citations of this environment count.
 */
export const CitedRangeSchema = z.object({
  /** The exact raw excerpt the citation quotes. */
  text: z.string(),
  start: z.number().int(),
  end: z.number().int(),
  prefix: z.string(),
  suffix: z.string(),
});
export type CitedRange = z.infer<typeof CitedRangeSchema>;
export const CitedBySchema = z.object({
  /** Distinct citing messages. */
  count: z.number().int(),
  /** Distinct cited selectors, in the order they were first cited. */
  ranges: z.array(CitedRangeSchema),
});
export type CitedBy = z.infer<typeof CitedBySchema>;

export const MessageSchema = z.object({
  id: z.string(),
  threadId: z.string(),
  turnId: z.string(),
  role: z.enum(["user", "assistant"]),
  kind: MessageKindSchema,
  /** Exactly as sent/produced; citation links stay links. */
  text: z.string(),
  status: z.enum(["streaming", "complete", "error"]),
  /** Position in the thread, strictly increasing; cursors are derived from it. */
  seq: z.number().int(),
  createdAt: z.string(),
  /**
   * Set on every assistant message of a history page (`GET .../messages`), absent elsewhere
   * (events, user messages). `{ count: 0, ranges: [] }` when nothing cites it.
   */
  citedBy: CitedBySchema.optional(),
  /**
   * Versions (DESIGN.md section 8): set only on a message with several versions (an edited
   * prompt, a regenerated answer). `version` is this one's number, 1-based in creation order;
   * `versions` how many there are.
   */
  version: z.number().int().positive().optional(),
  versions: z.number().int().positive().optional(),
});
export type Message = z.infer<typeof MessageSchema>;

export const UserInputQuestionSchema = z.object({
  id: z.string(),
  prompt: z.string(),
  options: z.array(z.string()).optional(),
});
export type UserInputQuestion = z.infer<typeof UserInputQuestionSchema>;
export const UserInputRequestSchema = z.object({
  id: z.string(),
  threadId: z.string(),
  turnId: z.string(),
  questions: z.array(UserInputQuestionSchema).min(1),
  createdAt: z.string(),
});
export type UserInputRequest = z.infer<typeof UserInputRequestSchema>;
