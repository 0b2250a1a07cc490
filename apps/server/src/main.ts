/**
 * Entry point: `pnpm --filter @app/server start` (behind `npm start`). Also exports
 * {@link startServer} for tests, benchmarks and the e2e rig.
 */
import type { Server } from "node:http";

import type { AddressInfo } from "node:net";
import { pathToFileURL } from "node:url";
import { serve } from "@hono/node-server";
import { ConfigError, loadConfig, requireTokenOffLoopback, type ServerConfig } from "./config.ts";
import type { Clock } from "./domain/clock.ts";
import { ConversationChanges } from "./domain/conversationChanges.ts";
import { ThreadEventLog } from "./domain/events.ts";
import { ProviderService } from "./domain/providerService.ts";
import { ThreadLifecycle } from "./domain/threadLifecycle.ts";
import { ThreadListFeed } from "./domain/threadListFeed.ts";
import { ThreadService } from "./domain/threadService.ts";
import { WorkspaceFileIndex } from "./domain/workspaceFiles.ts";
import { createApp } from "./http/app.ts";
import { answerClientErrors } from "./http/clientErrors.ts";
import { SseConnections } from "./http/sse.ts";
import { createLogger, type Logger } from "./logger.ts";
import type { ProviderAdapter } from "./providers/types.ts";
import type { ChatStore } from "./storage/chatStore.ts";
import type { SqliteDatabase } from "./storage/db.ts";
import { openStore } from "./storage/openStore.ts";

/** How long shutdown lets open event streams send the outcomes it just recorded. */
const SSE_SHUTDOWN_GRACE_MS = 1_000;

/** Options of {@link startServer}; anything omitted comes from `loadConfig(env)`. */
export interface StartServerOptions extends Partial<ServerConfig> {
  /** Environment used for defaults and for choosing the provider (default: process.env). */
  env?: NodeJS.ProcessEnv;
  /** Provider adapter to route turns to (default: `createProviderFromEnv(env)`). */
  adapter?: ProviderAdapter;
  /** SSE keep-alive interval in ms (default 15,000). */
  heartbeatMs?: number;
  /** Opens the SQLite file (default `openDatabase`); tests wrap it to inject faults. */
  openDatabase?: (file: string) => SqliteDatabase;
  /** How often final writes that hit a storage fault are retried (default 2,000 ms). */
  storageRetryMs?: number;
  /** Undo window of a deleted thread (tests; default `UNDO_WINDOW_MS`, 10 s). */
  undoWindowMs?: number;
  /** Text queued for one slow SSE client before it is dropped (default 4 MiB characters). */
  sseMaxQueuedChars?: number;
  /** Where log lines go (default: the console at LOG_LEVEL). */
  logger?: Logger;
  /**
   * The turn path's timers and the deleted threads' undo window (default: Node's; tests pass a
   * `ManualClock` and advance it).
   */
  clock?: Clock;
}

/** The server cannot start for a reason a person must fix (port taken, data dir unusable). */
export class StartupError extends Error {
  override readonly name = "StartupError";
}

/** A running server. */
export interface RunningServer {
  /** Base URL, e.g. `http://127.0.0.1:4310`. */
  url: string;
  port: number;
  environmentId: string;
  config: ServerConfig;
  provider: ProviderService;
  /** The threads' event log (tests follow a thread's events instead of polling). */
  events: ThreadEventLog;
  /** Number of open SSE streams (diagnostics; lets tests check that closed clients are released). */
  openEventStreams(): number;
  /**
   * Resolves once the background search indexer has indexed everything queued so far, long
   * messages too (tests await it instead of polling searches).
   */
  searchIndexIdle(): Promise<void>;
  /** Stops accepting connections, ends SSE streams, settles turns and closes the database. */
  close(): Promise<void>;
}

/** Opens the database in `dataDir`, builds the services and listens on host:port (0 = any free port). */
export async function startServer(options: StartServerOptions = {}): Promise<RunningServer> {
  const env = options.env ?? process.env;
  const config: ServerConfig = { ...loadConfig(env), ...stripUndefined(options) };
  // The overrides can change host or token: the loopback rule applies to the merged result.
  requireTokenOffLoopback(config.host, config.authToken);
  const adapter = options.adapter ?? (await defaultAdapter(env));
  const logger = options.logger ?? createLogger(config.logLevel);
  const store = await openConfiguredStore(config, options.openDatabase);
  const events = new ThreadEventLog(store);
  const provider = new ProviderService({
    store,
    events,
    adapter,
    logger,
    idleTimeoutMs: config.providerIdleTimeoutMs,
    turnTimeoutMs: config.providerTurnTimeoutMs,
    maxReplyChars: config.maxReplyChars,
    turnLeaseMs: config.turnLeaseMs,
    ...(options.storageRetryMs === undefined ? {} : { storageRetryMs: options.storageRetryMs }),
    ...(options.clock === undefined ? {} : { clock: options.clock }),
  });
  await provider.ready();
  const threads = new ThreadService(store);
  const lifecycle = new ThreadLifecycle({
    store,
    events,
    turns: provider,
    ...(options.undoWindowMs === undefined ? {} : { undoWindowMs: options.undoWindowMs }),
    ...(options.clock === undefined ? {} : { clock: options.clock }),
    onPurgeError: (threadId, error) =>
      logger.warn(
        `Purging deleted thread ${threadId} failed (tried again later): ${error instanceof Error ? error.message : String(error)}`,
      ),
  });
  lifecycle.start();
  const changes = new ConversationChanges({ store, events, provider });
  const connections = new SseConnections();
  const threadList = new ThreadListFeed(store, events);
  const app = createApp({
    threadList,
    threads,
    lifecycle,
    provider,
    changes,
    events,
    files: new WorkspaceFileIndex(config.workspaceDir),
    connections,
    authToken: config.authToken,
    webDist: config.webDist,
    hosts: { boundHost: config.host, port: () => listeningPort, allowedHosts: config.allowedHosts },
    maxEventStreams: config.sseMaxConnections,
    logger,
    ...(options.sseMaxQueuedChars === undefined
      ? {}
      : { maxQueuedEventChars: options.sseMaxQueuedChars }),
    ...(options.heartbeatMs === undefined ? {} : { heartbeatMs: options.heartbeatMs }),
  });

  let listeningPort = config.port;
  let server: ReturnType<typeof serve>;
  try {
    server = await new Promise<ReturnType<typeof serve>>((resolve, reject) => {
      const s = serve({ fetch: app.fetch, port: config.port, hostname: config.host }, () =>
        resolve(s),
      );
      s.once("error", reject);
    });
  } catch (error) {
    await lifecycle.close();
    await provider.close();
    await store.close();
    throw listenError(error, config);
  }
  answerClientErrors(server as Server);
  const { port } = server.address() as AddressInfo;
  listeningPort = port;
  const host = config.host.includes(":") ? `[${config.host}]` : config.host;

  let closing: Promise<void> | null = null;
  return {
    url: `http://${host}:${port}`,
    port,
    environmentId: store.environmentId,
    config,
    provider,
    events,
    openEventStreams: () => connections.size,
    searchIndexIdle: () => store.searchIndexIdle(),
    close: () => {
      closing ??= (async () => {
        const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
        // Running turns are recorded first, then open streams send that outcome and close.
        await lifecycle.close();
        await provider.close();
        await connections.endAll(SSE_SHUTDOWN_GRACE_MS);
        threadList.close();
        if ("closeAllConnections" in server) server.closeAllConnections();
        await stopped;
        await store.close();
      })();
      return closing;
    },
  };
}

async function defaultAdapter(env: NodeJS.ProcessEnv): Promise<ProviderAdapter> {
  const { createProviderFromEnv } = await import("./providers/index.ts");
  return createProviderFromEnv(env);
}

/**
 * Opens PostgreSQL (DATABASE_URL) or DATA_DIR/chat.sqlite, turning an unreachable database or an
 * unusable directory into a {@link StartupError}.
 */
async function openConfiguredStore(
  config: ServerConfig,
  openSqlite: ((file: string) => SqliteDatabase) | undefined,
): Promise<ChatStore> {
  try {
    return await openStore({
      databaseUrl: config.databaseUrl,
      pgPoolSize: config.pgPoolSize,
      dataDir: config.dataDir,
      ...(openSqlite === undefined ? {} : { openSqlite }),
    });
  } catch (error) {
    const code = (error as { code?: string }).code ?? "";
    if (config.databaseUrl !== null) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new StartupError(
        `Cannot use the PostgreSQL database at DATABASE_URL (${code || "error"}: ${reason}). ` +
          "Check that the server is running and the URL, user and password are right.",
        { cause: error },
      );
    }
    const dataDir = config.dataDir;
    if (/^(EACCES|EPERM|EROFS|ENOSPC|ENOTDIR|EEXIST|SQLITE_)/.test(code)) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new StartupError(
        `Cannot open the database in DATA_DIR=${dataDir} (${code}: ${reason}). ` +
          "Make the directory writable with free space, or set DATA_DIR to another directory.",
        { cause: error },
      );
    }
    throw error;
  }
}

function listenError(error: unknown, config: ServerConfig): unknown {
  const code = (error as { code?: string }).code;
  if (code === "EADDRINUSE") {
    return new StartupError(
      `Port ${config.port} on ${config.host} is already in use. Stop the other server or set PORT to a free port.`,
      { cause: error },
    );
  }
  if (code === "EADDRNOTAVAIL" || code === "EACCES") {
    return new StartupError(
      `Cannot listen on ${config.host}:${config.port} (${code}). Check HOST and PORT.`,
      { cause: error },
    );
  }
  return error;
}

function stripUndefined(options: StartServerOptions): Partial<ServerConfig> {
  const config: Partial<ServerConfig> = {};
  const keys = [
    "port",
    "host",
    "dataDir",
    "authToken",
    "webDist",
    "workspaceDir",
    "allowedHosts",
    "providerIdleTimeoutMs",
    "providerTurnTimeoutMs",
    "maxReplyChars",
    "sseMaxConnections",
    "databaseUrl",
    "pgPoolSize",
    "turnLeaseMs",
    "logLevel",
  ] as const;
  for (const key of keys) {
    if (options[key] !== undefined) Object.assign(config, { [key]: options[key] });
  }
  return config;
}

async function main(): Promise<void> {
  let running: RunningServer;
  try {
    running = await startServer();
  } catch (error) {
    // Settings a person must fix: say which, without a stack trace.
    if (
      error instanceof ConfigError ||
      (error instanceof Error && error.name === "ProviderConfigError")
    ) {
      console.error(`Configuration error: ${error.message}`);
      process.exit(1);
    }
    if (error instanceof StartupError) {
      console.error(`Cannot start: ${error.message}`);
      process.exit(1);
    }
    throw error;
  }
  console.log(`Chat server listening on ${running.url}`);
  console.log(`  environment ${running.environmentId}, provider ${running.provider.providerName}`);
  console.log(
    running.config.databaseUrl === null
      ? `  data in ${running.config.dataDir}`
      : "  data in PostgreSQL (DATABASE_URL)",
  );
  const shutdown = (signal: string) => {
    console.log(`\n${signal}: shutting down…`);
    running.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  };
  process.once("SIGINT", () => shutdown("SIGINT"));
  process.once("SIGTERM", () => shutdown("SIGTERM"));
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  void main();
}
