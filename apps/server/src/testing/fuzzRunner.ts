/**
 * Runs {@link FuzzPlan}s against a real server (see `http/api.fuzz.test.ts`): resolves each plan
 * against the ids the server has returned so far, sends it, and checks the answer: never a 5xx,
 * errors in the API's JSON shape, successes in the protocol's response shapes. It keeps what the
 * integrity checks need: every accepted prompt (201 on `.../turns`) and every thread id.
 */
import {
  CancelTurnResponseSchema,
  EnvironmentSchema,
  ErrorBodySchema,
  FileListSchema,
  MessagePageSchema,
  ProviderInputSchema,
  SendTurnResponseSchema,
  ThreadDetailSchema,
  ThreadListSchema,
  ThreadSchema,
} from "@app/protocol";
import type { z } from "zod";
import type { FuzzBody, FuzzPlan, IdPick } from "./fuzzRequests.ts";

/** A prompt the server accepted: it must be readable exactly once, with this text. */
export interface AcceptedPrompt {
  threadId: string;
  messageId: string;
  input: string;
}

/** What a run found. */
export interface FuzzReport {
  /** Responses by HTTP status (for PERFORMANCE.md). */
  statusCounts: Map<number, number>;
  /** Every broken promise: a 5xx, a malformed error, a success outside its schema. */
  failures: string[];
  accepted: AcceptedPrompt[];
  threadIds: string[];
}

const SUCCESS_SHAPES: Partial<Record<FuzzPlan["route"], z.ZodType>> = {
  createThread: ThreadSchema,
  sendTurn: SendTurnResponseSchema,
  cancel: CancelTurnResponseSchema,
  messages: MessagePageSchema,
  detail: ThreadDetailSchema,
  threads: ThreadListSchema,
  environment: EnvironmentSchema,
  providerInput: ProviderInputSchema,
  files: FileListSchema,
};

/** The ids known so far, which plans pick from. */
class World {
  readonly threads: string[] = [];
  readonly turns: string[] = [];
  readonly messages: { id: string; seq: number }[] = [];
  readonly requests: string[] = [];
  readonly lastEventIds = new Map<string, number>();

  pick(list: readonly string[], pick: IdPick): string {
    if ("hostile" in pick) return pick.hostile;
    return list.length === 0 ? "none" : list[pick.known % list.length]!;
  }

  learn(route: FuzzPlan["route"], body: unknown): void {
    if (route === "createThread") this.threads.push((body as z.infer<typeof ThreadSchema>).id);
    if (route === "sendTurn") {
      const sent = body as z.infer<typeof SendTurnResponseSchema>;
      this.turns.push(sent.turn.id);
      this.messages.push({ id: sent.message.id, seq: sent.message.seq });
    }
    if (route === "messages") {
      for (const m of (body as z.infer<typeof MessagePageSchema>).messages) {
        this.messages.push({ id: m.id, seq: m.seq });
      }
    }
    if (route === "detail") {
      const detail = body as z.infer<typeof ThreadDetailSchema>;
      this.lastEventIds.set(detail.thread.id, detail.lastEventId);
      if (detail.pendingUserInput) this.requests.push(detail.pendingUserInput.id);
    }
  }
}

/** Sends `plans` to the server at `baseUrl`, `concurrency` at a time. */
export async function runFuzz(
  baseUrl: string,
  plans: readonly FuzzPlan[],
  options: { concurrency: number; seedThreads: string[] },
): Promise<FuzzReport> {
  const world = new World();
  world.threads.push(...options.seedThreads);
  const report: FuzzReport = {
    statusCounts: new Map(),
    failures: [],
    accepted: [],
    threadIds: [],
  };
  let next = 0;
  const worker = async () => {
    while (next < plans.length) {
      const plan = plans[next++]!;
      await runOne(baseUrl, plan, world, report);
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, worker));
  report.threadIds = [...world.threads];
  return report;
}

/** encodeURIComponent, but a lone surrogate becomes the bytes of its CESU-8 form (not UTF-8). */
function enc(text: string): string {
  let out = "";
  for (const ch of text) {
    try {
      out += encodeURIComponent(ch);
    } catch {
      out += "%ED%A0%80";
    }
  }
  return out;
}

function bodyInit(
  body: FuzzBody,
  contentType: string,
  patch?: Record<string, string>,
): RequestInit {
  let payload: string | Uint8Array;
  if (body.kind === "json") {
    const value =
      patch && typeof body.value === "object" && body.value !== null && !Array.isArray(body.value)
        ? { ...body.value, ...patch }
        : body.value;
    payload = JSON.stringify(value) ?? "";
  } else if (body.kind === "raw") {
    payload = body.text;
  } else {
    payload = new Uint8Array(body.bytes);
  }
  return {
    method: "POST",
    headers: contentType === "" ? {} : { "content-type": contentType },
    body: payload,
  };
}

async function runOne(baseUrl: string, plan: FuzzPlan, world: World, report: FuzzReport) {
  let path: string;
  let init: RequestInit = {};
  let input: string | null = null;
  let threadId = "";
  switch (plan.route) {
    case "createThread":
      path = "/api/threads";
      init = bodyInit(plan.body, plan.contentType);
      break;
    case "sendTurn":
      threadId = world.pick(world.threads, plan.thread);
      path = `/api/threads/${enc(threadId)}/turns`;
      init = bodyInit(plan.body, plan.contentType);
      if (plan.body.kind === "json")
        input = (plan.body.value as { input?: unknown })?.input as string;
      break;
    case "answer": {
      threadId = world.pick(world.threads, plan.thread);
      // As a client would: ask the thread what it is waiting for, then answer that.
      const detail = await send(
        baseUrl,
        `/api/threads/${enc(threadId)}`,
        {},
        "detail",
        world,
        report,
      );
      const pending = (detail as z.infer<typeof ThreadDetailSchema> | null)?.pendingUserInput?.id;
      const requestId =
        pending && "known" in plan.request ? pending : world.pick(world.requests, plan.request);
      path = `/api/threads/${enc(threadId)}/user-input`;
      init = bodyInit(plan.body, "application/json", { requestId });
      break;
    }
    case "cancel":
      path = `/api/threads/${enc(world.pick(world.threads, plan.thread))}/turns/${enc(world.pick(world.turns, plan.turn))}/cancel`;
      init = bodyInit(plan.body, "application/json");
      break;
    case "messages": {
      const value =
        plan.query === "around"
          ? world.pick(
              world.messages.map((m) => m.id),
              plan.value,
            )
          : world.pick(
              world.messages.map((m) => String(m.seq)),
              plan.value,
            );
      const params = new URLSearchParams();
      if (plan.query !== "none") params.set(plan.query, value);
      if (plan.limit !== null) params.set("limit", plan.limit);
      path = `/api/threads/${enc(world.pick(world.threads, plan.thread))}/messages?${params}`;
      break;
    }
    case "detail":
      path = `/api/threads/${enc(world.pick(world.threads, plan.thread))}`;
      break;
    case "export":
      path = `/api/threads/${enc(world.pick(world.threads, plan.thread))}/export.md`;
      break;
    case "threads":
      path = "/api/threads";
      break;
    case "environment":
      path = "/api/environment";
      break;
    case "providerInput":
      path = `/api/threads/${enc(world.pick(world.threads, plan.thread))}/turns/${enc(world.pick(world.turns, plan.turn))}/provider-input`;
      break;
    case "events": {
      threadId = world.pick(world.threads, plan.thread);
      path = `/api/threads/${enc(threadId)}/events`;
      const id = plan.lastEventId;
      const value =
        id === null
          ? null
          : typeof id === "string"
            ? id
            : String((world.lastEventIds.get(threadId) ?? 0) + id.offset);
      // Header values cannot hold every character; the query form takes any text.
      if (value !== null) path += `?lastEventId=${enc(value)}`;
      break;
    }
    case "files":
      path = `/api/files?query=${enc(plan.query)}`;
      break;
    case "junk":
      path = plan.path;
      init = {
        method: plan.method,
        ...(plan.method === "GET" || plan.method === "HEAD"
          ? {}
          : { headers: { "content-type": "application/json" }, body: "{}" }),
      };
      break;
  }
  const body = await send(baseUrl, path, init, plan.route, world, report);
  if (plan.route === "sendTurn" && body !== null && typeof input === "string") {
    const sent = body as z.infer<typeof SendTurnResponseSchema>;
    report.accepted.push({ threadId: sent.turn.threadId, messageId: sent.message.id, input });
  }
}

/** Sends one request, checks the answer, and returns the parsed success body (else null). */
async function send(
  baseUrl: string,
  path: string,
  init: RequestInit,
  route: FuzzPlan["route"],
  world: World,
  report: FuzzReport,
): Promise<unknown> {
  const controller = new AbortController();
  const url = `${baseUrl}${path}`;
  let res: Response;
  try {
    res = await fetch(url, { ...init, signal: controller.signal });
  } catch (error) {
    // A body the server refuses unread (415: not JSON) is answered at once with
    // `Connection: close`; a client still sending a large body may see the close first.
    const type = new Headers(init.headers).get("content-type") ?? "";
    if (init.body !== undefined && !type.startsWith("application/json")) {
      report.statusCounts.set(0, (report.statusCounts.get(0) ?? 0) + 1);
      return null;
    }
    // Anything else is a broken promise: the server closed a connection the client could
    // reuse (see http/unreadBody.ts).
    const cause = (error as { cause?: unknown }).cause;
    report.failures.push(
      `${init.method ?? "GET"} ${path.slice(0, 120)}: ${String(error)} (${String(cause)})`,
    );
    return null;
  }
  report.statusCounts.set(res.status, (report.statusCounts.get(res.status) ?? 0) + 1);
  const what = `${init.method ?? "GET"} ${path.slice(0, 120)} -> ${res.status}`;
  if (res.status >= 500) {
    report.failures.push(`${what}: ${(await res.text()).slice(0, 300)}`);
    return null;
  }
  if (route === "events" && res.status === 200) {
    // An open stream: its status is the answer; stop reading.
    controller.abort();
    return null;
  }
  const text = await res.text();
  const isApi = new URL(path, baseUrl).pathname.startsWith("/api");
  if (res.status >= 400) {
    // 431 (URL or headers over 16 KB) comes from Node's HTTP parser, before the app runs,
    // and is answered in the API's error shape too (clientErrors.ts).
    if (isApi && init.method !== "HEAD" && !ErrorBodySchema.safeParse(safeJson(text)).success) {
      report.failures.push(`${what}: not an API error body: ${text.slice(0, 200)}`);
    }
    return null;
  }
  const shape = SUCCESS_SHAPES[route];
  if (!shape) return text;
  const parsed = shape.safeParse(safeJson(text));
  if (!parsed.success) {
    report.failures.push(`${what}: outside its schema: ${parsed.error.issues[0]?.message}`);
    return null;
  }
  world.learn(route, parsed.data);
  return parsed.data;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
