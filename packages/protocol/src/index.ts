/**
 * Wire shapes of the chat API (DESIGN.md section 7). Timestamps are ISO-8601 strings,
 * ids are opaque strings. Every error response is `{ error: { code, message, details? } }`.
 */
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

/**
 * `GET /api/threads/:threadId/search?q=<text>&cursor=<c>&limit=<n>&case=<0|1>&word=<0|1>`: the
 * messages whose rendered text contains `q`, in thread order (oldest first). `ranges` are sorted,
 * non-overlapping, half-open `[start, end)` UTF-16 offsets into the message's rendered-text stream
 * (what `renderedTextStream` computes for its body in the browser, and `renderedTextOfMarkdown` of
 * `@app/markdown` without one). A message reports at most 1000 ranges (`truncated: true` past
 * that). `nextCursor` fetches the next page; null on the last one.
 */
export const SearchRangeSchema = z
  .tuple([z.number().int().nonnegative(), z.number().int().nonnegative()])
  .refine(([start, end]) => start < end, { message: "A range is non-empty: start < end." });
export type SearchRange = z.infer<typeof SearchRangeSchema>;
export const ThreadSearchMatchSchema = z.object({
  messageId: z.string(),
  role: z.enum(["user", "assistant"]),
  ranges: z.array(SearchRangeSchema).min(1),
  truncated: z.literal(true).optional(),
});
export type ThreadSearchMatch = z.infer<typeof ThreadSearchMatchSchema>;
export const ThreadSearchResponseSchema = z.object({
  matches: z.array(ThreadSearchMatchSchema),
  nextCursor: z.string().nullable(),
});
export type ThreadSearchResponse = z.infer<typeof ThreadSearchResponseSchema>;

/**
 * `GET /api/search?q=<text>&cursor=<c>&case=<0|1>&word=<0|1>`: matches in every thread, grouped
 * by thread, newest thread first, messages in thread order within each. `ranges` are as in
 * {@link ThreadSearchMatchSchema}; `snippet` is a short excerpt of the rendered text around the
 * first range, `snippet.ranges` the matches inside it. `limited` is set when the query is too
 * short for the index (1-2 characters) and only the newest `scannedMessages` messages from the
 * cursor were read: `nextCursor` reads on.
 */
export const AllThreadsSearchMatchSchema = ThreadSearchMatchSchema.extend({
  snippet: z.object({
    text: z.string(),
    /** Offset of `text` in the message's rendered text. */
    start: z.number().int().nonnegative(),
    ranges: z.array(SearchRangeSchema),
  }),
  /**
   * The first range as a citation selector (`createAssistantCitationSelector` over the
   * message's whole rendered text): what a result's **Cite** quotes. Null for the user's own
   * messages, which cannot be cited.
   */
  quote: CitedRangeSchema.nullable(),
});
export type AllThreadsSearchMatch = z.infer<typeof AllThreadsSearchMatchSchema>;
export const AllThreadsSearchGroupSchema = z.object({
  thread: ThreadSchema,
  matches: z.array(AllThreadsSearchMatchSchema).min(1),
});
export type AllThreadsSearchGroup = z.infer<typeof AllThreadsSearchGroupSchema>;
export const AllThreadsSearchResponseSchema = z.object({
  groups: z.array(AllThreadsSearchGroupSchema),
  nextCursor: z.string().nullable(),
  limited: z
    .object({ reason: z.literal("short_query"), scannedMessages: z.number().int() })
    .nullable(),
});
export type AllThreadsSearchResponse = z.infer<typeof AllThreadsSearchResponseSchema>;

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
