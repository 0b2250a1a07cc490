/**
 * Entry point: `pnpm --filter @app/server start` (behind `npm start`). Also exports
 * {@link startServer} for tests, benchmarks and the e2e rig.
 */
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { serve } from "@hono/node-server";
import { ConfigError, loadConfig, requireTokenOffLoopback, type ServerConfig } from "./config.ts";
import { ThreadEventLog } from "./domain/events.ts";
import { ProviderService } from "./domain/providerService.ts";
import { ThreadService } from "./domain/threadService.ts";
import { WorkspaceFileIndex } from "./domain/workspaceFiles.ts";
import { createApp } from "./http/app.ts";
import { SseConnections } from "./http/sse.ts";
import type { ProviderAdapter } from "./providers/types.ts";
import { openDatabase } from "./storage/db.ts";
import { ChatRepository } from "./storage/repository.ts";

/** Options of {@link startServer}; anything omitted comes from `loadConfig(env)`. */
export interface StartServerOptions extends Partial<ServerConfig> {
  /** Environment used for defaults and for choosing the provider (default: process.env). */
  env?: NodeJS.ProcessEnv;
  /** Provider adapter to route turns to (default: `createProviderFromEnv(env)`). */
  adapter?: ProviderAdapter;
  /** SSE keep-alive interval in ms (default 15,000). */
  heartbeatMs?: number;
}

/** A running server. */
export interface RunningServer {
  /** Base URL, e.g. `http://127.0.0.1:4310`. */
  url: string;
  port: number;
  environmentId: string;
  config: ServerConfig;
  provider: ProviderService;
  /** Number of open SSE streams (diagnostics; lets tests check that closed clients are released). */
  openEventStreams(): number;
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
  const db = openDatabase(join(config.dataDir, "chat.sqlite"));
  const repo = new ChatRepository(db);
  const events = new ThreadEventLog(repo);
  const provider = new ProviderService({ repo, events, adapter });
  const threads = new ThreadService(repo);
  const connections = new SseConnections();
  const app = createApp({
    threads,
    provider,
    events,
    files: new WorkspaceFileIndex(config.workspaceDir),
    connections,
    authToken: config.authToken,
    webDist: config.webDist,
    ...(options.heartbeatMs === undefined ? {} : { heartbeatMs: options.heartbeatMs }),
  });

  const server = await new Promise<ReturnType<typeof serve>>((resolve, reject) => {
    const s = serve({ fetch: app.fetch, port: config.port, hostname: config.host }, () =>
      resolve(s),
    );
    s.once("error", reject);
  });
  const { port } = server.address() as AddressInfo;
  const host = config.host.includes(":") ? `[${config.host}]` : config.host;

  let closing: Promise<void> | null = null;
  return {
    url: `http://${host}:${port}`,
    port,
    environmentId: repo.environmentId,
    config,
    provider,
    openEventStreams: () => connections.size,
    close: () => {
      closing ??= (async () => {
        const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
        connections.closeAll();
        await provider.close();
        if ("closeAllConnections" in server) server.closeAllConnections();
        await stopped;
        db.close();
      })();
      return closing;
    },
  };
}

async function defaultAdapter(env: NodeJS.ProcessEnv): Promise<ProviderAdapter> {
  const { createProviderFromEnv } = await import("./providers/index.ts");
  return createProviderFromEnv(env);
}

function stripUndefined(options: StartServerOptions): Partial<ServerConfig> {
  const config: Partial<ServerConfig> = {};
  const keys = ["port", "host", "dataDir", "authToken", "webDist", "workspaceDir"] as const;
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
    throw error;
  }
  console.log(`Chat server listening on ${running.url}`);
  console.log(`  environment ${running.environmentId}, provider ${running.provider.providerName}`);
  console.log(`  data in ${running.config.dataDir}`);
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
