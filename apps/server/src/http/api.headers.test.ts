/**
 * Security headers (issue 19 item 8, DESIGN.md section 7) on a real server: every response
 * carries nosniff and no-referrer; HTML carries the app's CSP (its inline scripts allowed by the
 * hash computed at start) and X-Frame-Options. Raw HTTP, so refusals by Host are covered too.
 */
import { createHash } from "node:crypto";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Thread } from "@app/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  makeTempDir,
  RecordingAdapter,
  removeDir,
  startTestServer,
  type TestServer,
} from "../testing/harness.ts";
import { type RawResponse, rawRequest } from "../testing/rawHttp.ts";
import { inlineScriptHashes } from "./securityHeaders.ts";

const PREFETCH = "\n      (() => { window.__early = location.pathname; })();\n    ";
const INDEX = `<!doctype html><html><head><title>app</title>
<script type="module" crossorigin src="/assets/app-1.js"></script></head>
<body><div id="root"></div><script>${PREFETCH}</script></body></html>`;

let server: TestServer;
let root: string;
let host: string;
let thread: Thread;

beforeAll(async () => {
  root = await makeTempDir("chat-headers-");
  const dist = join(root, "dist");
  await mkdir(join(dist, "assets"), { recursive: true });
  await writeFile(join(dist, "index.html"), INDEX);
  await writeFile(join(dist, "assets", "app-1.js"), "console.log('app')");
  server = await startTestServer({ adapter: new RecordingAdapter(), webDist: dist });
  host = new URL(server.url).host;
  thread = (await (await server.post("/api/threads", { title: "headers" })).json()) as Thread;
});

afterAll(async () => {
  await server.close();
  await removeDir(server.dataDir);
  await removeDir(root);
});

const get = (path: string, headers: Record<string, string> = {}) =>
  rawRequest(`${server.url}${path}`, { headers: { host, ...headers } });

function expectCommonHeaders(res: RawResponse, what: string): void {
  expect({ what, nosniff: res.headers["x-content-type-options"] }).toEqual({
    what,
    nosniff: "nosniff",
  });
  expect({ what, referrer: res.headers["referrer-policy"] }).toEqual({
    what,
    referrer: "no-referrer",
  });
}

/** The CSP's directives by name. */
function directives(res: RawResponse): Map<string, string[]> {
  const header = String(res.headers["content-security-policy"] ?? "");
  return new Map(
    header
      .split(";")
      .map((part) => part.trim().split(/\s+/))
      .filter((words) => words[0])
      .map(([name, ...values]) => [name!, values]),
  );
}

describe("security headers", () => {
  it("every response carries nosniff and no-referrer: API, errors, export, files, pages", async () => {
    const responses: [string, RawResponse][] = [
      ["environment", await get("/api/environment")],
      ["thread list", await get("/api/threads")],
      ["unknown thread (404)", await get("/api/threads/nope")],
      ["unknown route (404)", await get("/api/nope")],
      ["bad query (400)", await get(`/api/threads/${thread.id}/messages?limit=x`)],
      ["export.md", await get(`/api/threads/${thread.id}/export.md`)],
      ["asset", await get("/assets/app-1.js")],
      ["missing asset", await get("/assets/missing.js")],
      ["page", await get("/some/route", { accept: "text/html" })],
      [
        "foreign host (403)",
        await rawRequest(`${server.url}/`, { headers: { host: "x.example" } }),
      ],
      [
        "refused write (415)",
        await rawRequest(`${server.url}/api/threads`, {
          method: "POST",
          headers: { host, "content-type": "text/plain" },
          body: "{}",
        }),
      ],
    ];
    for (const [what, res] of responses) expectCommonHeaders(res, what);
    expect(responses.find(([what]) => what === "export.md")![1].status).toBe(200);
    // JSON and scripts are not pages: no CSP or frame header needed there.
    expect(responses[0]![1].headers["x-frame-options"]).toBeUndefined();
  });

  it("the event stream carries them too", async () => {
    const controller = new AbortController();
    const res = await server.request(`/api/threads/${thread.id}/events`, {
      signal: controller.signal,
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("referrer-policy")).toBe("no-referrer");
    controller.abort();
  });

  it("HTML carries a CSP that allows this origin's scripts and the inline script's hash only", async () => {
    const expectedHash = `'sha256-${createHash("sha256").update(PREFETCH).digest("base64")}'`;
    for (const path of ["/", "/env/thread-1", "/index.html"]) {
      const res = await get(path, { accept: "text/html" });
      expect(res.status).toBe(200);
      expect(res.headers["content-type"]).toContain("text/html");
      expectCommonHeaders(res, path);
      expect(res.headers["x-frame-options"]).toBe("DENY");
      const csp = directives(res);
      expect(csp.get("frame-ancestors")).toEqual(["'none'"]);
      expect(csp.get("script-src")).toEqual(["'self'", expectedHash]);
      expect(csp.get("object-src")).toEqual(["'none'"]);
      expect(csp.get("base-uri")).toEqual(["'none'"]);
      expect(csp.get("default-src")).toEqual(["'self'"]);
      expect(csp.get("connect-src")).toEqual(["'self'"]);
      expect([...csp.values()].flat()).not.toContain("'unsafe-inline'");
      expect([...csp.values()].flat()).not.toContain("'unsafe-eval'");
    }
  });

  it("hashes every inline script exactly as served, and skips scripts with src", () => {
    const a = "console.log(1)";
    const b = "\n  let x = 'é';\n";
    const sha = (text: string) =>
      `'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`;
    expect(
      inlineScriptHashes(
        `<script src="/x.js"></script><script>${a}</script><SCRIPT type="text/javascript">${b}</SCRIPT >`,
      ),
    ).toEqual([sha(a), sha(b)]);
    expect(inlineScriptHashes("<p>no scripts</p>")).toEqual([]);
  });
});
