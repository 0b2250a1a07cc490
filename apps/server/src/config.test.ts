import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, isLoopbackHost, loadConfig, REPO_ROOT } from "./config.ts";
import { startServer } from "./main.ts";
import { makeTempDir, RecordingAdapter, removeDir } from "./testing/harness.ts";

describe("loadConfig", () => {
  it("defaults to 127.0.0.1:4310 with data in <repo>/.data", () => {
    const config = loadConfig({});
    expect(config).toEqual({
      port: 4310,
      host: "127.0.0.1",
      dataDir: join(REPO_ROOT, ".data"),
      authToken: null,
      webDist: join(REPO_ROOT, "apps/web/dist"),
      workspaceDir: REPO_ROOT,
      allowedHosts: [],
      providerIdleTimeoutMs: 60_000,
      providerTurnTimeoutMs: 600_000,
      maxReplyChars: 1_000_000,
      sseMaxConnections: 1000,
      databaseUrl: null,
      pgPoolSize: 10,
      turnLeaseMs: 30_000,
      logLevel: "info",
    });
  });

  it("uses PostgreSQL for a postgres:// DATABASE_URL and refuses anything else", () => {
    const url = "postgres://chat:secret@db.internal:5432/chat";
    expect(loadConfig({ DATABASE_URL: ` ${url} ` }).databaseUrl).toBe(url);
    expect(loadConfig({ DATABASE_URL: "postgresql://db/chat" }).databaseUrl).toBe(
      "postgresql://db/chat",
    );
    expect(loadConfig({ DATABASE_URL: "  " }).databaseUrl).toBeNull();
    expect(() => loadConfig({ DATABASE_URL: "mysql://db/chat" })).toThrow(/PostgreSQL URL/);
    expect(loadConfig({ TURN_LEASE_MS: "5000", PG_POOL_SIZE: "20" })).toMatchObject({
      turnLeaseMs: 5000,
      pgPoolSize: 20,
    });
    expect(() => loadConfig({ TURN_LEASE_MS: "0" })).toThrow(/TURN_LEASE_MS/);
  });

  it("refuses a non-loopback host without AUTH_TOKEN, with a message that says what to do", () => {
    expect(() => loadConfig({ HOST: "0.0.0.0" })).toThrow(ConfigError);
    expect(() => loadConfig({ HOST: "0.0.0.0" })).toThrow(/AUTH_TOKEN/);
    expect(loadConfig({ HOST: "0.0.0.0", AUTH_TOKEN: "t" }).authToken).toBe("t");
  });

  it("rejects a bad port", () => {
    expect(() => loadConfig({ PORT: "http" })).toThrow(/PORT/);
    expect(() => loadConfig({ PORT: "70000" })).toThrow(/PORT/);
    expect(loadConfig({ PORT: "0" }).port).toBe(0);
  });

  it("knows loopback hosts", () => {
    for (const host of ["127.0.0.1", "127.1.2.3", "localhost", "::1", "[::1]"]) {
      expect(isLoopbackHost(host)).toBe(true);
    }
    for (const host of ["0.0.0.0", "192.168.1.2", "::", "example.com", "127.0.0.1.example.com"]) {
      expect(isLoopbackHost(host)).toBe(false);
    }
  });
});

describe("startServer", () => {
  it("applies the loopback rule to its overrides too: no token, no non-loopback listener", async () => {
    const dataDir = await makeTempDir();
    try {
      const base = { port: 0, dataDir, adapter: new RecordingAdapter() };
      // Host given as an option, token only missing.
      await expect(startServer({ ...base, env: {}, host: "0.0.0.0" })).rejects.toThrow(ConfigError);
      // The environment has a token, but the caller explicitly removes it.
      await expect(
        startServer({ ...base, env: { AUTH_TOKEN: "t" }, host: "0.0.0.0", authToken: null }),
      ).rejects.toThrow(/AUTH_TOKEN/);
      // Refused before anything was opened or written.
      expect(existsSync(join(dataDir, "chat.sqlite"))).toBe(false);
    } finally {
      await removeDir(dataDir);
    }
  });
});
