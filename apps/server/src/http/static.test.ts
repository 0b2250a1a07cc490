import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  makeTempDir,
  RecordingAdapter,
  removeDir,
  startTestServer,
  type TestServer,
} from "../testing/harness.ts";

let server: TestServer;
let root: string;

beforeAll(async () => {
  root = await makeTempDir("chat-static-");
  const dist = join(root, "dist");
  await mkdir(join(dist, "assets"), { recursive: true });
  await writeFile(join(dist, "index.html"), "<!doctype html><title>app</title><div id=root></div>");
  await writeFile(join(dist, "assets", "app-123.js"), "console.log('app')");
  await writeFile(join(dist, "assets", "app-123.css"), "body{}");
  await writeFile(join(root, "secret.txt"), "outside the web root");
  server = await startTestServer({ adapter: new RecordingAdapter(), webDist: dist });
});

afterAll(async () => {
  await server.close();
  await removeDir(server.dataDir);
  await removeDir(root);
});

describe("static web app", () => {
  it("serves index.html at / and files with their content types", async () => {
    const index = await server.request("/");
    expect(index.status).toBe(200);
    expect(index.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(await index.text()).toContain("<title>app</title>");

    const js = await server.request("/assets/app-123.js");
    expect(js.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(js.headers.get("cache-control")).toContain("immutable");
    expect(await js.text()).toBe("console.log('app')");
    const css = await server.request("/assets/app-123.css");
    expect(css.headers.get("content-type")).toBe("text/css; charset=utf-8");
  });

  it("falls back to index.html for client routes but not for missing assets", async () => {
    const route = await server.request("/env-1/thread-1");
    expect(route.status).toBe(200);
    expect(await route.text()).toContain("<title>app</title>");
    const withHash = await server.request("/env-1/thread-1?x=1", {
      headers: { accept: "text/html" },
    });
    expect(withHash.status).toBe(200);
    expect((await server.request("/assets/missing.js")).status).toBe(404);
  });

  it("never serves a file outside the web root", async () => {
    for (const path of [
      "/../secret.txt",
      "/%2e%2e/secret.txt",
      "/assets/%2e%2e/%2e%2e/secret.txt",
      "/..%2fsecret.txt",
    ]) {
      const res = await server.request(path, { headers: { accept: "text/html" } });
      expect(await res.text()).not.toContain("outside the web root");
    }
  });

  it("shows a placeholder page when the web app is not built", async () => {
    const bare = await startTestServer({ adapter: new RecordingAdapter() });
    try {
      const res = await bare.request("/some/route");
      expect(res.status).toBe(200);
      expect(await res.text()).toContain("pnpm run build");
      expect((await bare.request("/api/environment")).status).toBe(200);
    } finally {
      await bare.close();
      await removeDir(bare.dataDir);
    }
  });
});
