/**
 * Test helpers: temporary data directories, a scriptable recording adapter, a server on
 * 127.0.0.1:0 and a small SSE reader over fetch. Used by the server's tests and benchmarks only.
 *
 * The store under test: SQLite in the data directory, or, when CHAT_TEST_STORE=postgres (the
 * `server-pg` project), a PostgreSQL database of the run's cluster named after the data
 * directory, so a server restarted on the same directory finds its data again.
 */
import { createHash } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AssistantCitation } from "@app/citations";
import { citationLinkFixture } from "@app/citations/testing";
import { type RunningServer, type StartServerOptions, startServer } from "../main.ts";
import type {
  ProviderAdapter,
  ProviderHistoryEntry,
  ProviderTurnContext,
} from "../providers/types.ts";
import type { ChatStore } from "../storage/chatStore.ts";
import { openStore } from "../storage/openStore.ts";

/** A fresh temporary directory; remove it with {@link removeDir}. */
export function makeTempDir(prefix = "chat-server-"): Promise<string> {
  return mkdtemp(join(tmpdir(), prefix));
}

export function removeDir(dir: string): Promise<void> {
  return rm(dir, { recursive: true, force: true });
}

/** What an adapter saw for one turn. */
export interface RecordedTurn {
  threadId: string;
  turnId: string;
  input: string;
  history: ProviderHistoryEntry[];
}

/**
 * An adapter that records every context it receives and then runs `script` (default: one
 * answer message "Reply to turn N"). A legitimate test double for checking adapter input.
 */
export class RecordingAdapter implements ProviderAdapter {
  readonly name = "recording";
  readonly turns: RecordedTurn[] = [];
  script: (ctx: ProviderTurnContext, index: number) => Promise<void>;

  constructor(script?: (ctx: ProviderTurnContext, index: number) => Promise<void>) {
    this.script =
      script ??
      (async (ctx, index) => {
        const writer = ctx.startMessage("answer");
        writer.append(`Reply to turn ${index + 1}`);
        writer.complete();
      });
  }

  async runTurn(ctx: ProviderTurnContext): Promise<void> {
    const index = this.turns.length;
    this.turns.push({
      threadId: ctx.threadId,
      turnId: ctx.turnId,
      input: ctx.input,
      history: ctx.history.map((entry) => ({ ...entry })),
    });
    await this.script(ctx, index);
  }
}

/** A running test server plus its data directory and small request helpers. */
export interface TestServer extends RunningServer {
  dataDir: string;
  /** fetch relative to the server URL. */
  request(path: string, init?: RequestInit): Promise<Response>;
  /** POST JSON and return the response. */
  post(path: string, body: unknown, headers?: Record<string, string>): Promise<Response>;
  /** GET and parse JSON (throws on a non-2xx status). */
  getJson<T = unknown>(path: string): Promise<T>;
}

/** Options of {@link startTestServer}. */
export type StartServerOptionsForTest = StartServerOptions & { dataDir?: string };

/** Which store the tests in this worker run against. */
export const testStoreKind: "sqlite" | "postgres" =
  process.env.CHAT_TEST_STORE === "postgres" ? "postgres" : "sqlite";

/**
 * The PostgreSQL URL that belongs to `dataDir` (its database is created on first use), or
 * null when the tests run on SQLite. The database starts as a copy of the run's migrated
 * template (`postgresGlobalSetup.ts`), so a server opening it finds every migration applied;
 * `{ migrated: false }` gives an empty one instead, for a test of the migrations themselves
 * (processes that start together on a new database apply them once).
 */
export async function testDatabaseUrl(
  dataDir: string,
  options: { migrated?: boolean } = {},
): Promise<string | null> {
  // Files share a worker's modules (isolate: false): a worker must never carry this module from
  // one project into the other, or server-pg would run quietly on SQLite.
  if ((process.env.CHAT_TEST_STORE === "postgres") !== (testStoreKind === "postgres")) {
    throw new Error(
      `harness loaded for ${testStoreKind}, but CHAT_TEST_STORE is now another store`,
    );
  }
  if (testStoreKind !== "postgres") return null;
  const adminUrl = process.env.CHAT_TEST_PG_ADMIN_URL;
  if (!adminUrl) throw new Error("CHAT_TEST_STORE=postgres needs CHAT_TEST_PG_ADMIN_URL.");
  const name = `t_${createHash("sha256").update(dataDir).digest("hex").slice(0, 24)}`;
  const { default: pg } = await import("pg");
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    const exists = await admin.query("SELECT 1 FROM pg_database WHERE datname = $1", [name]);
    const template = process.env.CHAT_TEST_PG_TEMPLATE;
    const from = options.migrated !== false && template ? ` TEMPLATE ${template}` : "";
    if (exists.rowCount === 0) await admin.query(`CREATE DATABASE ${name}${from}`);
  } finally {
    await admin.end();
  }
  return adminUrl.replace(/\/[^/]*$/, `/${name}`);
}

/** The store a test server on `dataDir` would use, for seeding and inspecting it directly. */
export async function openTestStore(dataDir: string): Promise<ChatStore> {
  return openStore({ databaseUrl: await testDatabaseUrl(dataDir), pgPoolSize: 4, dataDir });
}

/** Starts a server on 127.0.0.1 with a random port; `dataDir` defaults to a new temp dir. */
export async function startTestServer(
  options: StartServerOptionsForTest = {},
): Promise<TestServer> {
  const dataDir = options.dataDir ?? (await makeTempDir());
  const running = await startServer({
    env: {},
    host: "127.0.0.1",
    port: 0,
    webDist: join(dataDir, "no-web-dist"),
    workspaceDir: dataDir,
    databaseUrl: options.openDatabase ? null : await testDatabaseUrl(dataDir),
    logLevel: "silent",
    ...options,
    dataDir,
  });
  const request = (path: string, init?: RequestInit) => fetch(`${running.url}${path}`, init);
  return {
    ...running,
    dataDir,
    request,
    post: (path, body, headers = {}) =>
      request(path, {
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        body: JSON.stringify(body),
      }),
    getJson: async <T>(path: string) => {
      const res = await request(path);
      if (!res.ok) throw new Error(`GET ${path} -> ${res.status}: ${await res.text()}`);
      return (await res.json()) as T;
    },
  };
}

/** One parsed server-sent event. */
export interface SseEvent {
  id: string | null;
  event: string | null;
  data: string;
}

/** The browser's view of a stream: the Last-Event-ID it would send when reconnecting. */
export interface SseCursor {
  lastEventId: string;
}

/**
 * Opens an SSE stream and collects events until `until(events)` is true, then disconnects.
 * `lastEventId` is sent as the `Last-Event-ID` header. `cursor`, when given, tracks the id a
 * browser would resume from, including `id:` lines that carry no event.
 */
export async function collectSse(
  url: string,
  options: {
    lastEventId?: string;
    headers?: Record<string, string>;
    until: (events: SseEvent[]) => boolean;
    onOpen?: () => void | Promise<void>;
    cursor?: SseCursor;
  },
): Promise<SseEvent[]> {
  const controller = new AbortController();
  const headers: Record<string, string> = { accept: "text/event-stream", ...options.headers };
  if (options.lastEventId !== undefined) headers["last-event-id"] = options.lastEventId;
  const res = await fetch(url, { headers, signal: controller.signal });
  if (!res.ok || !res.body) throw new Error(`SSE ${url} -> ${res.status}: ${await res.text()}`);
  const events: SseEvent[] = [];
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  let opened = false;
  try {
    while (!options.until(events)) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += value;
      if (!opened) {
        opened = true;
        await options.onOpen?.();
      }
      let end = buffer.indexOf("\n\n");
      while (end !== -1) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const parsed = parseSseBlock(block);
        if (parsed && options.cursor && parsed.id !== null) options.cursor.lastEventId = parsed.id;
        if (parsed && (parsed.data !== "" || parsed.event !== null)) events.push(parsed);
        end = buffer.indexOf("\n\n");
      }
    }
  } finally {
    controller.abort();
    await reader.cancel().catch(() => undefined);
  }
  return events;
}

function parseSseBlock(block: string): SseEvent | null {
  let id: string | null = null;
  let event: string | null = null;
  const data: string[] = [];
  for (const line of block.split("\n")) {
    if (line.startsWith(":") || line === "") continue;
    const colon = line.indexOf(":");
    const field = colon === -1 ? line : line.slice(0, colon);
    const value = colon === -1 ? "" : line.slice(colon + 1).replace(/^ /, "");
    if (field === "id") id = value;
    else if (field === "event") event = value;
    else if (field === "data") data.push(value);
  }
  return data.length === 0 && event === null && id === null
    ? null
    : { id, event, data: data.join("\n") };
}

/** A valid citation link with overridable fields. */
export function citationLink(overrides: Partial<AssistantCitation> = {}): string {
  return citationLinkFixture(overrides);
}

/** Polls `check` every 10 ms until it returns a value that is not undefined (max `timeoutMs`). */
export async function waitFor<T>(
  check: () => T | undefined | Promise<T | undefined>,
  timeoutMs = 10_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error("waitFor: condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
