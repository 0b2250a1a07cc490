/**
 * Static files over real HTTP (127.0.0.1, port 0): the hand-written handler (src/http/static.ts)
 * against support/honoStatic.ts (Hono's serveStatic with the same SPA fallback and cache headers),
 * each with and without hono/compress.
 * Serves index.html, a client route (SPA fallback) and a 1 MB hashed asset.
 */
import { mkdir, writeFile } from "node:fs/promises";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { type ServerType, serve } from "@hono/node-server";
import { Hono } from "hono";
import { compress } from "hono/compress";
import { afterAll, bench, describe } from "vitest";

import { createStaticHandler as createHandWrittenHandler } from "../src/http/static.ts";
import { makeTempDir, removeDir } from "../src/testing/harness.ts";
import { createStaticHandler as createHonoHandler } from "./support/honoStatic.ts";

const opts = { time: 3_000, warmupTime: 500 };

const root = await makeTempDir("chat-bench-static-");
const dist = join(root, "dist");
await mkdir(join(dist, "assets"), { recursive: true });
await writeFile(
  join(dist, "index.html"),
  `<!doctype html><title>app</title>${"<!-- pad -->".repeat(40)}<div id=root></div>`,
);
const line = "export function f(a,b){return a.map((x)=>x*b).filter(Boolean).join(',')}\n";
await writeFile(
  join(dist, "assets", "index-abc123.js"),
  line.repeat(Math.ceil(1_000_000 / line.length)),
);

function handWritten(withCompress: boolean): Hono {
  const app = new Hono();
  if (withCompress) app.use("*", compress());
  const handler = createHandWrittenHandler(dist);
  app.on(["GET", "HEAD"], "*", (c) => handler(c));
  return app;
}

function hono(withCompress: boolean): Hono {
  const app = new Hono();
  if (withCompress) app.use("*", compress());
  const handler = createHonoHandler(dist);
  app.on(["GET", "HEAD"], "*", (c) => handler(c));
  return app;
}

async function listen(app: Hono): Promise<{ server: ServerType; base: string }> {
  return new Promise((done) => {
    const server = serve(
      { fetch: app.fetch, hostname: "127.0.0.1", port: 0 },
      (info: AddressInfo) => done({ server, base: `http://127.0.0.1:${info.port}` }),
    );
  });
}

const servers = {
  hand: await listen(handWritten(false)),
  handGzip: await listen(handWritten(true)),
  hono: await listen(hono(false)),
  honoGzip: await listen(hono(true)),
};

async function get(base: string, path: string, gzip: boolean): Promise<void> {
  const res = await fetch(base + path, {
    headers: { "accept-encoding": gzip ? "gzip" : "identity" },
  });
  if (res.status !== 200) throw new Error(`${path}: ${res.status}`);
  await res.arrayBuffer();
}

afterAll(async () => {
  for (const { server } of Object.values(servers)) server.close();
  await removeDir(root);
});

describe("GET /index.html", () => {
  bench("hand-written", () => get(servers.hand.base, "/", false), opts);
  bench("hono serveStatic", () => get(servers.hono.base, "/", false), opts);
});

describe("GET /env-1/thread-1 (SPA fallback)", () => {
  bench("hand-written", () => get(servers.hand.base, "/env-1/thread-1", false), opts);
  bench("hono serveStatic", () => get(servers.hono.base, "/env-1/thread-1", false), opts);
});

describe("GET 1 MB hashed asset, identity", () => {
  bench("hand-written", () => get(servers.hand.base, "/assets/index-abc123.js", false), opts);
  bench("hono serveStatic", () => get(servers.hono.base, "/assets/index-abc123.js", false), opts);
});

describe("GET 1 MB hashed asset, gzip (hono/compress)", () => {
  bench(
    "hand-written + compress",
    () => get(servers.handGzip.base, "/assets/index-abc123.js", true),
    opts,
  );
  bench(
    "hono serveStatic + compress",
    () => get(servers.honoGzip.base, "/assets/index-abc123.js", true),
    opts,
  );
});
