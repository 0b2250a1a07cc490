/**
 * Typed HTTP client for the chat API (DESIGN.md section 7). Every response is validated with the
 * `@app/protocol` schemas; error bodies (`{ error: { code, message } }`) become {@link ApiError}.
 * This module never imports server code.
 */
import {
  type AllThreadsSearchResponse,
  AllThreadsSearchResponseSchema,
  type CancelTurnResponse,
  CancelTurnResponseSchema,
  type CitedByPage,
  CitedByPageSchema,
  ErrorBodySchema,
  FileListSchema,
  type MessagePage,
  MessagePageSchema,
  ProviderInputSchema,
  type SendTurnResponse,
  SendTurnResponseSchema,
  type Thread,
  type ThreadDeletion,
  ThreadDeletionSchema,
  type ThreadDetail,
  ThreadDetailSchema,
  type ThreadList,
  ThreadListSchema,
  ThreadSchema,
  type ThreadSearchResponse,
  ThreadSearchResponseSchema,
  type UserInputAnswerResponse,
  UserInputAnswerResponseSchema,
} from "@app/protocol";
import type { z } from "zod";

/** An API failure: an HTTP error body, a network failure (`status` 0) or an unexpected response shape. */
export class ApiError extends Error {
  /** HTTP status; 0 when the request never got a response. */
  readonly status: number;
  /** Server error code (`not_found`, `input_too_long`, ...) or a client-side one (`network_error`, `invalid_response`). */
  readonly code: string;
  readonly details?: Record<string, unknown>;

  constructor(status: number, code: string, message: string, details?: Record<string, unknown>) {
    super(message);
    this.name = "ApiError";
    this.status = status;
    this.code = code;
    if (details !== undefined) this.details = details;
  }
}

/** Result of `GET /api/threads/:id/turns/:turnId/provider-input`. */
export type ProviderInput = z.infer<typeof ProviderInputSchema>;

/** Options for {@link getMessages}; at most one of `before`, `around`, `after`. */
export type MessagePageQuery = {
  before?: string;
  around?: string;
  after?: string;
  limit?: number;
};

/** Base URL prefix; same origin in production and behind Vite's proxy in development. */
const API_BASE = "/api";

/** One API request, its response parsed with `schema` (also used by `conversationClient.ts`). */
export async function request<S extends z.ZodType>(
  schema: S,
  path: string,
  init?: { method?: string; body?: unknown; signal?: AbortSignal },
): Promise<z.infer<S>> {
  const response = fetch(`${API_BASE}${path}`, {
    method: init?.method ?? "GET",
    headers:
      init?.body === undefined
        ? { accept: "application/json" }
        : { accept: "application/json", "content-type": "application/json" },
    ...(init?.body === undefined ? {} : { body: JSON.stringify(init.body) }),
    ...(init?.signal ? { signal: init.signal } : {}),
  });
  return parseResponse(schema, path, response);
}

/** Validates a (pending) response: network failures, error bodies and bad shapes become ApiError. */
export async function parseResponse<S extends z.ZodType>(
  schema: S,
  path: string,
  pending: Promise<Response>,
): Promise<z.infer<S>> {
  let response: Response;
  try {
    response = await pending;
  } catch (cause) {
    if (cause instanceof DOMException && cause.name === "AbortError") throw cause;
    throw new ApiError(0, "network_error", "Could not reach the server. Check your connection.");
  }

  const body = await readJson(response);
  if (!response.ok) throw toApiError(response, body);

  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    throw new ApiError(
      response.status,
      "invalid_response",
      `Unexpected response from ${path}: ${parsed.error.issues[0]?.message ?? "invalid shape"}`,
    );
  }
  return parsed.data;
}

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text().catch(() => "");
  if (text === "") return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** Turns a failed response into an ApiError, preferring the server's own code and message. */
export function toApiError(
  response: { status: number; statusText: string },
  body: unknown,
): ApiError {
  const parsed = ErrorBodySchema.safeParse(body);
  if (parsed.success) {
    const { code, message, details } = parsed.data.error;
    return new ApiError(response.status, code, message, details);
  }
  const reason = response.statusText || "request failed";
  return new ApiError(
    response.status,
    `http_${response.status}`,
    `Server error ${response.status}: ${reason}`,
  );
}

function query(params: Record<string, string | number | undefined>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined) search.set(key, String(value));
  }
  const text = search.toString();
  return text === "" ? "" : `?${text}`;
}

/** A path segment, encoded. */
export const seg = encodeURIComponent;

/** `GET /api/threads?cursor=&limit=`: one page, most recently updated first. */
export function listThreads(
  options: { cursor?: string | undefined; limit?: number } = {},
  signal?: AbortSignal,
): Promise<ThreadList> {
  const q = query({ cursor: options.cursor, limit: options.limit });
  return request(ThreadListSchema, `/threads${q}`, signal ? { signal } : undefined);
}

/** `PATCH /api/threads/:threadId` `{ title }`: Rename thread. */
export async function renameThread(threadId: string, title: string): Promise<Thread> {
  const body = await request(
    ThreadDeletionSchema.pick({ thread: true }),
    `/threads/${seg(threadId)}`,
    { method: "PATCH", body: { title } },
  );
  return body.thread;
}

/** `DELETE /api/threads/:threadId`: Delete thread (restorable for a while). */
export function deleteThread(threadId: string): Promise<ThreadDeletion> {
  return request(ThreadDeletionSchema, `/threads/${seg(threadId)}`, {
    method: "DELETE",
    body: {},
  });
}

/** `POST /api/threads/:threadId/restore`: Undo a delete. */
export function restoreThread(threadId: string): Promise<ThreadDeletion> {
  return request(ThreadDeletionSchema, `/threads/${seg(threadId)}/restore`, {
    method: "POST",
    body: {},
  });
}

/** `GET /api/search?q=&cursor=`: Search all threads. */
export function searchAllThreads(
  options: { q: string; cursor?: string | undefined; matchCase?: boolean; wholeWords?: boolean },
  signal?: AbortSignal,
): Promise<AllThreadsSearchResponse> {
  const q = query({
    q: options.q,
    cursor: options.cursor,
    case: options.matchCase ? "1" : undefined,
    word: options.wholeWords ? "1" : undefined,
  });
  return request(AllThreadsSearchResponseSchema, `/search${q}`, signal ? { signal } : undefined);
}

/** Where the thread's Markdown export downloads from. */
export function threadExportUrl(threadId: string): string {
  return `${API_BASE}/threads/${seg(threadId)}/export.md`;
}

/** `POST /api/threads` */
export function createThread(title?: string): Promise<Thread> {
  return request(ThreadSchema, "/threads", {
    method: "POST",
    body: title === undefined ? {} : { title },
  });
}

/** `GET /api/threads/:threadId` */
export function getThread(threadId: string, signal?: AbortSignal): Promise<ThreadDetail> {
  return request(ThreadDetailSchema, `/threads/${seg(threadId)}`, signal ? { signal } : undefined);
}

/** `GET /api/threads/:threadId/messages`: without a cursor, the newest page (oldest first). */
export function getMessages(
  threadId: string,
  options: MessagePageQuery = {},
  signal?: AbortSignal,
): Promise<MessagePage> {
  const q = query({
    before: options.before,
    around: options.around,
    after: options.after,
    limit: options.limit,
  });
  return request(
    MessagePageSchema,
    `/threads/${seg(threadId)}/messages${q}`,
    signal ? { signal } : undefined,
  );
}

/** `GET /api/threads/:threadId/messages/:messageId/cited-by`: the citations of a message. */
export function getCitedBy(
  threadId: string,
  messageId: string,
  options: { cursor?: string; limit?: number } = {},
  signal?: AbortSignal,
): Promise<CitedByPage> {
  const q = query({ cursor: options.cursor, limit: options.limit });
  return request(
    CitedByPageSchema,
    `/threads/${seg(threadId)}/messages/${seg(messageId)}/cited-by${q}`,
    signal ? { signal } : undefined,
  );
}

/** Options of {@link searchThread}: `matchCase` / `wholeWords` send `case=1` / `word=1`. */
export type ThreadSearchQuery = {
  q: string;
  cursor?: string;
  limit?: number;
  matchCase?: boolean;
  wholeWords?: boolean;
};

/**
 * `GET /api/threads/:threadId/search`: messages whose rendered text holds `q`, in thread order,
 * with `[start, end)` offsets into each message's rendered-text stream; `nextCursor` pages on.
 */
export function searchThread(
  threadId: string,
  options: ThreadSearchQuery,
  signal?: AbortSignal,
): Promise<ThreadSearchResponse> {
  const q = query({
    q: options.q,
    cursor: options.cursor,
    limit: options.limit,
    case: options.matchCase ? 1 : undefined,
    word: options.wholeWords ? 1 : undefined,
  });
  return request(
    ThreadSearchResponseSchema,
    `/threads/${seg(threadId)}/search${q}`,
    signal ? { signal } : undefined,
  );
}

/** `POST /api/threads/:threadId/turns` */
export function sendTurn(threadId: string, input: string): Promise<SendTurnResponse> {
  return request(SendTurnResponseSchema, `/threads/${seg(threadId)}/turns`, {
    method: "POST",
    body: { input },
  });
}

/** `POST /api/threads/:threadId/turns/:turnId/cancel`: stops a running or queued turn (Stop). */
export function cancelTurn(threadId: string, turnId: string): Promise<CancelTurnResponse> {
  return request(
    CancelTurnResponseSchema,
    `/threads/${seg(threadId)}/turns/${seg(turnId)}/cancel`,
    { method: "POST", body: {} },
  );
}

/** `POST /api/threads/:threadId/user-input`; answers are sent as typed (no expansion, no limit). */
export async function answerUserInput(
  threadId: string,
  requestId: string,
  answers: Record<string, string>,
): Promise<UserInputAnswerResponse> {
  return request(UserInputAnswerResponseSchema, `/threads/${seg(threadId)}/user-input`, {
    method: "POST",
    body: { requestId, answers },
  });
}

/** `GET /api/files?query=&limit=`: workspace paths for the composer's `@` typeahead. */
export async function listFiles(
  queryText: string,
  limit?: number,
  signal?: AbortSignal,
): Promise<string[]> {
  const list = await request(
    FileListSchema,
    `/files${query({ query: queryText, limit })}`,
    signal ? { signal } : undefined,
  );
  return list.files;
}

/** `GET /api/threads/:threadId/turns/:turnId/provider-input`: exactly what the model saw. */
export function getProviderInput(threadId: string, turnId: string): Promise<ProviderInput> {
  return request(
    ProviderInputSchema,
    `/threads/${seg(threadId)}/turns/${seg(turnId)}/provider-input`,
  );
}

/** The thread list's live changes (server-sent events). */
export function threadListEventsUrl(): string {
  return `${API_BASE}/threads/events`;
}

/** URL of the thread's server-sent event stream. */
export function threadEventsUrl(threadId: string): string {
  return `${API_BASE}/threads/${seg(threadId)}/events`;
}
