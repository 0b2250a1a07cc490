/**
 * The HTTP transport (Hono). Routes validate input with zod, call the domain services and map
 * {@link DomainError}s to `{ error: { code, message, details? } }`. No SQL and no citation logic
 * lives here.
 */
import { PROVIDER_INPUT_MAX_CHARS } from "@app/citations";
import {
  BranchBodySchema,
  CreateThreadBodySchema,
  EditMessageBodySchema,
  type Environment,
  RenameThreadBodySchema,
  SelectVersionBodySchema,
  SendTurnBodySchema,
  UserInputAnswerBodySchema,
} from "@app/protocol";
import { Hono } from "hono";
import { z } from "zod";

/** `POST .../cancel` takes an empty JSON object (the body only proves a JSON request). */
const CancelTurnBodySchema = z.object({}).strict();
/** `DELETE /api/threads/:threadId` and `POST .../restore` take an empty JSON object (or none). */
const EmptyBodySchema = z.object({}).strict();

import type { ConversationChanges } from "../domain/conversationChanges.ts";
import { asDomainError, DomainError } from "../domain/errors.ts";
import type { ThreadEventLog } from "../domain/events.ts";
import type { ProviderService } from "../domain/providerService.ts";
import type { ThreadLifecycle } from "../domain/threadLifecycle.ts";
import type { ThreadListFeed } from "../domain/threadListFeed.ts";
import { MAX_SEARCH_LIMIT } from "../domain/threadSearch.ts";
import { MAX_PAGE_LIMIT, MAX_THREAD_PAGE, type ThreadService } from "../domain/threadService.ts";
import type { WorkspaceFileIndex } from "../domain/workspaceFiles.ts";
import { type Logger, silentLogger } from "../logger.ts";
import { authMiddleware, isAuthorized } from "./auth.ts";
import { bodyLimit } from "./bodyLimit.ts";
import { type HostPolicy, hostGuard, writeGuard } from "./browserSafety.ts";
import { drainDeclaredBody } from "./drainBody.ts";
import { errorResponse } from "./errors.ts";
import { FIRST_ROWS_PAGE_LIMIT, renderFirstRows, threadIdOfPagePath } from "./firstRows.ts";
import { idParam, idQuery, storableId } from "./ids.ts";
import { readJsonBody } from "./jsonBody.ts";
import { requestLog } from "./requestLog.ts";
import { rawSearchQuery, searchSwitch } from "./searchQuery.ts";
import { contentSecurityPolicyFor, securityHeaders } from "./securityHeaders.ts";
import { type SseConnections, streamThreadEvents } from "./sse.ts";
import { createStaticHandler } from "./static.ts";
import { streamThreadListEvents } from "./threadListSse.ts";
import { closeAfterUnreadBody } from "./unreadBody.ts";

/** Largest accepted request body (bytes), checked on Content-Length and on the streamed body. */
export const MAX_BODY_BYTES = 1024 * 1024;
const MAX_FILE_RESULTS = 50;
const DEFAULT_FILE_RESULTS = 20;

/** What the routes need; built by `startServer`. */
export interface AppDependencies {
  threads: ThreadService;
  /** Rename, delete, restore (issue 31). */
  lifecycle: ThreadLifecycle;
  provider: ProviderService;
  /** Edit, regenerate, versions and branches (issue 30). */
  changes: ConversationChanges;
  events: ThreadEventLog;
  /** The thread list's live feed (`GET /api/threads/events`). */
  threadList: ThreadListFeed;
  files: WorkspaceFileIndex;
  connections: SseConnections;
  authToken: string | null;
  webDist: string;
  /** Which Host headers name this server (DNS-rebinding defence). */
  hosts: HostPolicy;
  /** Interval of SSE keep-alive comments. */
  heartbeatMs?: number;
  /** Cap on open event streams (SSE_MAX_CONNECTIONS). */
  maxEventStreams?: number;
  /** Text queued for one slow event-stream client before it is dropped. */
  maxQueuedEventChars?: number;
  /** Request log and unexpected errors (default: silent). */
  logger?: Logger;
}

/** Builds the Hono app serving `/api/*` and the web app. */
export function createApp(deps: AppDependencies): Hono {
  const app = new Hono();
  const heartbeatMs = deps.heartbeatMs ?? 15_000;
  const logger = deps.logger ?? silentLogger;

  app.onError((error, c) => {
    const known = asDomainError(error);
    if (known !== null) return errorResponse(c, known.code, known.message, known.details);
    logger.error(`${c.req.method} ${c.req.path} failed:`, error);
    return errorResponse(c, "internal_error", "The server failed to handle this request.");
  });

  app.use("*", requestLog(logger));
  // Outermost after the log, so refusals (bad_host, unauthorized, 413) get the headers too.
  app.use("*", securityHeaders(contentSecurityPolicyFor(deps.webDist)));
  app.use("*", closeAfterUnreadBody());
  app.use("*", hostGuard(deps.hosts));
  app.use("*", authMiddleware(deps.authToken));
  // Every state-changing route is a POST, PATCH or DELETE (other methods answer 404).
  app.on(["POST", "PATCH", "DELETE", "PUT"], "/api/*", writeGuard());
  app.use(
    "/api/*",
    bodyLimit({
      maxSize: MAX_BODY_BYTES,
      onError: async (c) => {
        // Read to its end first, so the client gets this answer instead of a reset.
        await drainDeclaredBody(c);
        // The unread rest of the body makes the connection unusable for another request.
        c.header("Connection", "close");
        return errorResponse(
          c,
          "payload_too_large",
          `The request body is larger than ${MAX_BODY_BYTES} bytes.`,
          { limit: MAX_BODY_BYTES },
        );
      },
    }),
  );

  app.get("/api/environment", (c) => {
    const body: Environment = {
      environmentId: deps.threads.environmentId,
      provider: deps.provider.providerName,
      maxInputChars: PROVIDER_INPUT_MAX_CHARS,
    };
    return c.json(body);
  });

  // Before `/api/threads/:threadId`: "events" is not a thread.
  app.get("/api/threads/events", (c) =>
    streamThreadListEvents(c, {
      feed: deps.threadList,
      connections: deps.connections,
      heartbeatMs,
      ...(deps.maxEventStreams === undefined ? {} : { maxConnections: deps.maxEventStreams }),
    }),
  );

  app.get("/api/threads", async (c) =>
    c.json(
      await deps.threads.listThreads({
        cursor: c.req.query("cursor"),
        limit: parseLimit(c.req.query("limit"), MAX_THREAD_PAGE),
      }),
    ),
  );

  app.patch("/api/threads/:threadId", async (c) => {
    const threadId = idParam(c, "threadId");
    const body = await readJsonBody(c, RenameThreadBodySchema);
    return c.json({ thread: await deps.lifecycle.rename(threadId, body.title) });
  });

  app.delete("/api/threads/:threadId", async (c) => {
    const threadId = idParam(c, "threadId");
    await readJsonBody(c, EmptyBodySchema, { allowEmpty: true });
    return c.json(await deps.lifecycle.delete(threadId));
  });

  app.post("/api/threads/:threadId/restore", async (c) => {
    const threadId = idParam(c, "threadId");
    await readJsonBody(c, EmptyBodySchema, { allowEmpty: true });
    return c.json(await deps.lifecycle.restore(threadId));
  });

  app.get("/api/search", async (c) =>
    c.json(
      await deps.threads.searchAllThreads({
        query: rawSearchQuery(c.req.url) ?? "",
        caseSensitive: searchSwitch("case", c.req.query("case")),
        wholeWord: searchSwitch("word", c.req.query("word")),
        cursor: c.req.query("cursor"),
      }),
    ),
  );

  app.post("/api/threads", async (c) => {
    const body = await readJsonBody(c, CreateThreadBodySchema, { allowEmpty: true });
    return c.json(await deps.threads.createThread(body.title), 201);
  });

  app.get("/api/threads/:threadId", async (c) =>
    c.json(await deps.threads.getThreadDetail(idParam(c, "threadId"))),
  );

  app.get("/api/threads/:threadId/messages", async (c) => {
    const limit = parseLimit(c.req.query("limit"), MAX_PAGE_LIMIT);
    return c.json(
      await deps.threads.getMessagePage(idParam(c, "threadId"), {
        before: c.req.query("before"),
        after: c.req.query("after"),
        around: idQuery(c, "around"),
        limit,
      }),
    );
  });

  app.get("/api/threads/:threadId/messages/:messageId/cited-by", async (c) => {
    const limit = parseLimit(c.req.query("limit"), MAX_PAGE_LIMIT);
    return c.json(
      await deps.threads.getCitedBy(idParam(c, "threadId"), idParam(c, "messageId"), {
        cursor: c.req.query("cursor"),
        limit,
      }),
    );
  });

  app.get("/api/threads/:threadId/search", async (c) =>
    c.json(
      await deps.threads.searchThread(idParam(c, "threadId"), {
        query: rawSearchQuery(c.req.url) ?? "",
        caseSensitive: searchSwitch("case", c.req.query("case")),
        wholeWord: searchSwitch("word", c.req.query("word")),
        cursor: c.req.query("cursor"),
        limit: parseLimit(c.req.query("limit"), MAX_SEARCH_LIMIT),
      }),
    ),
  );

  app.post("/api/threads/:threadId/turns", async (c) => {
    const threadId = idParam(c, "threadId");
    await deps.threads.requireThread(threadId);
    const body = await readJsonBody(c, SendTurnBodySchema);
    return c.json(await deps.provider.sendTurn(threadId, body.input), 201);
  });

  // Conversations that change (DESIGN.md section 8): behind the same write guard as every POST.
  app.post("/api/threads/:threadId/messages/:messageId/edit", async (c) => {
    const [threadId, messageId] = [idParam(c, "threadId"), idParam(c, "messageId")];
    const body = await readJsonBody(c, EditMessageBodySchema);
    return c.json(await deps.changes.edit(threadId, messageId, body.input), 201);
  });

  app.post("/api/threads/:threadId/messages/:messageId/regenerate", async (c) => {
    await readJsonBody(c, EmptyBodySchema, { allowEmpty: true });
    const [threadId, messageId] = [idParam(c, "threadId"), idParam(c, "messageId")];
    return c.json(await deps.changes.regenerate(threadId, messageId), 201);
  });

  app.post("/api/threads/:threadId/messages/:messageId/version", async (c) => {
    const body = await readJsonBody(c, SelectVersionBodySchema);
    const [threadId, messageId] = [idParam(c, "threadId"), idParam(c, "messageId")];
    return c.json(await deps.changes.selectVersion(threadId, messageId, body.version));
  });

  app.post("/api/threads/:threadId/messages/:messageId/show", async (c) => {
    await readJsonBody(c, EmptyBodySchema, { allowEmpty: true });
    return c.json(await deps.changes.show(idParam(c, "threadId"), idParam(c, "messageId")));
  });

  app.post("/api/threads/:threadId/branch", async (c) => {
    const threadId = idParam(c, "threadId");
    const body = await readJsonBody(c, BranchBodySchema, { idKeys: ["messageId"] });
    const messageId = storableId("messageId", body.messageId);
    return c.json(await deps.changes.branch(threadId, messageId), 201);
  });

  app.get("/api/threads/:threadId/copies/:messageId", async (c) =>
    c.json(await deps.changes.copyOf(idParam(c, "threadId"), idParam(c, "messageId"))),
  );

  app.post("/api/threads/:threadId/user-input", async (c) => {
    const threadId = idParam(c, "threadId");
    await deps.threads.requireThread(threadId);
    const body = await readJsonBody(c, UserInputAnswerBodySchema, { idKeys: ["requestId"] });
    const requestId = storableId("requestId", body.requestId);
    return c.json(await deps.provider.answerUserInput(threadId, requestId, body.answers));
  });

  app.post("/api/threads/:threadId/turns/:turnId/cancel", async (c) => {
    await readJsonBody(c, CancelTurnBodySchema, { allowEmpty: true });
    const turn = await deps.provider.cancelTurn(idParam(c, "threadId"), idParam(c, "turnId"));
    return c.json({ turn });
  });

  app.get("/api/threads/:threadId/turns/:turnId/provider-input", async (c) =>
    c.json(await deps.threads.getProviderInput(idParam(c, "threadId"), idParam(c, "turnId"))),
  );

  app.get("/api/threads/:threadId/events", async (c) => {
    const threadId = idParam(c, "threadId");
    const { lastEventId } = await deps.threads.getThreadDetail(threadId);
    const afterId = parseLastEventId(c.req.header("last-event-id") ?? c.req.query("lastEventId"));
    // Ids only grow, so a resume point past the last one came from elsewhere (another thread,
    // a reset database): waiting would stream nothing, forever.
    if (afterId !== null && afterId > lastEventId) {
      throw new DomainError(
        "invalid_cursor",
        `Last-Event-ID ${afterId} is past this thread's last event (${lastEventId}). Reload the thread.`,
        { lastEventId },
      );
    }
    return streamThreadEvents(c, {
      events: deps.events,
      connections: deps.connections,
      threadId,
      afterId,
      heartbeatMs,
      ...(deps.maxEventStreams === undefined ? {} : { maxConnections: deps.maxEventStreams }),
      ...(deps.maxQueuedEventChars === undefined
        ? {}
        : { maxQueuedChars: deps.maxQueuedEventChars }),
    });
  });

  app.get("/api/threads/:threadId/export.md", async (c) => {
    const { parts } = await deps.threads.exportMarkdown(idParam(c, "threadId"));
    // Pulled a page at a time as the client reads, so a huge thread never sits in memory.
    const iterator = parts[Symbol.asyncIterator]();
    const encoder = new TextEncoder();
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        const next = await iterator.next();
        if (next.done) controller.close();
        else controller.enqueue(encoder.encode(next.value));
      },
      async cancel() {
        await iterator.return?.();
      },
    });
    return c.body(body, 200, {
      "content-type": "text/markdown; charset=utf-8",
      // DESIGN.md §9: the header's Export as Markdown downloads `export.md` (a filename here
      // wins over the link's `download` attribute, so it must say the same).
      "content-disposition": 'inline; filename="export.md"',
    });
  });

  app.get("/api/files", async (c) => {
    const limit = parseLimit(c.req.query("limit"), MAX_FILE_RESULTS) ?? DEFAULT_FILE_RESULTS;
    return c.json({ files: await deps.files.search(c.req.query("query") ?? "", limit) });
  });

  app.all("/api/*", (c) =>
    errorResponse(
      c,
      "not_found",
      `No API route for ${c.req.method} ${new URL(c.req.url).pathname}.`,
    ),
  );
  app.all("/api", (c) => errorResponse(c, "not_found", "No API route here."));

  const serveStatic = createStaticHandler(deps.webDist, {
    // Thread pages carry their newest rows and page (issue 33), for readers who may read them.
    firstRows: async (c, pathname) => {
      const threadId = threadIdOfPagePath(pathname);
      if (threadId === null || !isAuthorized(c, deps.authToken)) return null;
      try {
        // The detail first: the page is then never older than its lastEventId.
        const detail = await deps.threads.getThreadDetail(threadId);
        const page = await deps.threads.getMessagePage(threadId, { limit: FIRST_ROWS_PAGE_LIMIT });
        return renderFirstRows(threadId, detail, page, pathname);
      } catch (error) {
        // No such thread, deleted, storage down: the app's own load says so.
        if (asDomainError(error) === null) logger.error(`first rows of ${pathname} failed:`, error);
        return null;
      }
    },
  });
  app.on(["GET", "HEAD"], "*", (c) => serveStatic(c));
  app.all("*", (c) => c.text("Method not allowed", 405));
  return app;
}

/** `limit`: a positive integer (larger values are capped by the caller). */
const LimitSchema = z
  .string()
  .regex(/^\d{1,9}$/, { error: "limit must be a positive integer" })
  .transform(Number)
  .refine((n) => n >= 1, { error: "limit must be at least 1" });

/** `Last-Event-ID` / `lastEventId`: a nonnegative event id. */
const LastEventIdSchema = z
  .string()
  .trim()
  .regex(/^\d{1,15}$/, { error: "Last-Event-ID must be a nonnegative integer event id" })
  .transform(Number);

/** Validates one query value with `schema`; a failure is a 400 `invalid_request` naming it. */
function parseQueryValue<T>(schema: z.ZodType<T, string>, raw: string): T {
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const reason = parsed.error.issues[0]?.message ?? "invalid value";
    throw new DomainError("invalid_request", `${reason} (got "${raw.slice(0, 20)}").`);
  }
  return parsed.data;
}

/** `limit` query value: absent -> undefined; a positive integer, capped at `max`; else 400. */
function parseLimit(raw: string | undefined, max: number): number | undefined {
  if (raw === undefined || raw === "") return undefined;
  return Math.min(parseQueryValue(LimitSchema, raw), max);
}

/** `Last-Event-ID` value: absent -> null (live only); a nonnegative integer; else 400. */
function parseLastEventId(raw: string | undefined): number | null {
  if (raw === undefined || raw.trim() === "") return null;
  return parseQueryValue(LastEventIdSchema, raw);
}
