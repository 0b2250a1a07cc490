import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, isLoopbackHost, loadConfig, REPO_ROOT } from "./config.ts";

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
    });
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
