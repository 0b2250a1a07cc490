/**
 * Server configuration from environment variables (DESIGN.md section 7). Pure: reads only the
 * env object it is given, so tests can build configurations without touching process.env.
 */
import { isIP } from "node:net";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { LOG_LEVELS, type LogLevel } from "./logger.ts";

/** Repository root (this file lives in apps/server/src). */
export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");

/** Everything the server needs to start. */
export interface ServerConfig {
  port: number;
  host: string;
  /** Directory holding `chat.sqlite`. */
  dataDir: string;
  /** When set, every /api request must carry it (bearer header or `auth_token` cookie). */
  authToken: string | null;
  /** Built web app served at `/` (with SPA fallback). */
  webDist: string;
  /** Root listed by `GET /api/files` for the composer's `@` typeahead. */
  workspaceDir: string;
  /** ALLOWED_HOSTS: extra Host names (`name` or `name:port`, lower case) besides the bound one. */
  allowedHosts: string[];
  /** PROVIDER_IDLE_TIMEOUT_MS: a turn whose provider sends nothing this long fails. */
  providerIdleTimeoutMs: number;
  /** PROVIDER_TURN_TIMEOUT_MS: a turn running longer than this fails. */
  providerTurnTimeoutMs: number;
  /** MAX_REPLY_CHARS: characters one turn's reply may hold. */
  maxReplyChars: number;
  /** SSE_MAX_CONNECTIONS: open event streams before new ones get 429. */
  sseMaxConnections: number;
  /** DATABASE_URL: PostgreSQL instead of the embedded SQLite (null: SQLite in dataDir). */
  databaseUrl: string | null;
  /** PG_POOL_SIZE: PostgreSQL connections per process (plus one for LISTEN). */
  pgPoolSize: number;
  /** TURN_LEASE_MS: a running turn's lease; another process ends it once it expires. */
  turnLeaseMs: number;
  /** LOG_LEVEL: `debug`, `info` (default), `warn`, `error` or `silent`. */
  logLevel: LogLevel;
}

/** Thrown for a configuration the server must refuse to start with. */
export class ConfigError extends Error {
  override readonly name = "ConfigError";
}

export const DEFAULT_PORT = 4310;
export const DEFAULT_HOST = "127.0.0.1";

/** True for hosts that only accept connections from this machine. */
export function isLoopbackHost(host: string): boolean {
  const h = host
    .trim()
    .toLowerCase()
    .replace(/^\[|\]$/g, "");
  if (h === "localhost" || h === "::1") return true;
  return isIP(h) === 4 && h.startsWith("127.");
}

/**
 * Builds the configuration from `env`. Throws {@link ConfigError} with a message a person can act
 * on for a bad port or a non-loopback host without `AUTH_TOKEN`.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  const portText = env.PORT?.trim() || String(DEFAULT_PORT);
  if (!/^\d{1,5}$/.test(portText) || Number(portText) > 65535) {
    throw new ConfigError(`PORT must be an integer between 0 and 65535 (got "${env.PORT}").`);
  }
  const host = env.HOST?.trim() || DEFAULT_HOST;
  const authToken = env.AUTH_TOKEN?.trim() || null;
  requireTokenOffLoopback(host, authToken);
  return {
    port: Number(portText),
    host,
    dataDir: resolve(env.DATA_DIR?.trim() || resolve(REPO_ROOT, ".data")),
    authToken,
    webDist: resolve(env.WEB_DIST?.trim() || resolve(REPO_ROOT, "apps/web/dist")),
    workspaceDir: resolve(env.WORKSPACE_DIR?.trim() || REPO_ROOT),
    allowedHosts: (env.ALLOWED_HOSTS ?? "")
      .split(",")
      .map((name) => name.trim().toLowerCase())
      .filter((name) => name !== ""),
    providerIdleTimeoutMs: positiveInteger(env, "PROVIDER_IDLE_TIMEOUT_MS", 60_000),
    providerTurnTimeoutMs: positiveInteger(env, "PROVIDER_TURN_TIMEOUT_MS", 600_000),
    maxReplyChars: positiveInteger(env, "MAX_REPLY_CHARS", 1_000_000),
    sseMaxConnections: positiveInteger(env, "SSE_MAX_CONNECTIONS", 1000),
    databaseUrl: databaseUrl(env),
    pgPoolSize: positiveInteger(env, "PG_POOL_SIZE", 10),
    turnLeaseMs: positiveInteger(env, "TURN_LEASE_MS", 30_000),
    logLevel: logLevel(env.LOG_LEVEL),
  };
}

/** DATABASE_URL: unset or blank for SQLite; otherwise a postgres:// or postgresql:// URL. */
function databaseUrl(env: NodeJS.ProcessEnv): string | null {
  const url = env.DATABASE_URL?.trim();
  if (!url) return null;
  if (!/^postgres(ql)?:\/\//.test(url)) {
    throw new ConfigError(
      "DATABASE_URL must be a PostgreSQL URL (postgres://user:password@host:port/database).",
    );
  }
  return url;
}

function logLevel(value: string | undefined): LogLevel {
  const text = value?.trim().toLowerCase() || "info";
  if ((LOG_LEVELS as readonly string[]).includes(text)) return text as LogLevel;
  throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(", ")} (got "${value}").`);
}

/** A positive integer setting, or its default when unset or blank; else {@link ConfigError}. */
function positiveInteger(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const text = env[name]?.trim();
  if (text === undefined || text === "") return fallback;
  if (!/^\d{1,15}$/.test(text) || Number(text) < 1) {
    throw new ConfigError(`${name} must be a positive integer (got "${env[name]}").`);
  }
  return Number(text);
}

/**
 * Throws {@link ConfigError} for a non-loopback host without a token. Checked again by
 * `startServer` after its overrides, so no way of starting the server skips it.
 */
export function requireTokenOffLoopback(host: string, authToken: string | null): void {
  if (isLoopbackHost(host) || (authToken !== null && authToken.trim() !== "")) return;
  throw new ConfigError(
    `Refusing to listen on non-loopback host "${host}" without AUTH_TOKEN. ` +
      "Set AUTH_TOKEN to a long random secret (clients send it as `Authorization: Bearer <token>` " +
      "or open the page once with ?token=<token>), or use HOST=127.0.0.1.",
  );
}
