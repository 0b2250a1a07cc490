/**
 * Browser safety (DESIGN.md section 7, issue 12): DNS rebinding (Host), CSRF (Origin and JSON
 * only), cookie auth for same-origin requests only, and well-formed text. Raw HTTP requests on a
 * real server, so every header is exactly what a browser or an attacker would send.
 */
import type { Thread } from "@app/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  RecordingAdapter,
  removeDir,
  startTestServer,
  type TestServer,
} from "../testing/harness.ts";
import { type RawResponse, rawRequest } from "../testing/rawHttp.ts";
import { storedThreadCount } from "../testing/storedThreadCount.ts";
import { isAllowedHost } from "./browserSafety.ts";

let server: TestServer;
let host: string;

beforeAll(async () => {
  server = await startTestServer({
    adapter: new RecordingAdapter(),
    allowedHosts: ["chat.example", "other.example:8443"],
  });
  host = new URL(server.url).host;
});

afterAll(async () => {
  await server.close();
  await removeDir(server.dataDir);
});

function expectError(res: RawResponse, status: number, code: string): void {
  expect(res.status).toBe(status);
  expect(res.json<{ error: { code: string; message: string } }>().error).toMatchObject({ code });
}

// Empty threads are not listed by the API, so count the stored ones.
const threadCount = () => storedThreadCount(server.dataDir);

const post = (path: string, headers: Record<string, string>, body = "{}") =>
  rawRequest(`${server.url}${path}`, { method: "POST", headers: { host, ...headers }, body });

describe("Host header (DNS rebinding)", () => {
  it("refuses a foreign Host on the API and on pages, with 403 bad_host", async () => {
    for (const path of ["/api/threads", "/api/environment", "/"]) {
      const res = await rawRequest(`${server.url}${path}`, {
        headers: { host: "attacker.example" },
      });
      expectError(res, 403, "bad_host");
      expect(res.text).not.toContain("environmentId");
    }
    const wrongPort = await rawRequest(`${server.url}/api/threads`, {
      headers: { host: "127.0.0.1:1" },
    });
    expectError(wrongPort, 403, "bad_host");
  });

  it("accepts the bound host:port, loopback names on that port, and ALLOWED_HOSTS", async () => {
    const port = new URL(server.url).port;
    for (const name of [
      host,
      `localhost:${port}`,
      `[::1]:${port}`,
      "chat.example",
      "CHAT.example:9",
      "other.example:8443",
    ]) {
      const res = await rawRequest(`${server.url}/api/environment`, { headers: { host: name } });
      expect([name, res.status]).toEqual([name, 200]);
    }
    expectError(
      await rawRequest(`${server.url}/api/environment`, { headers: { host: "other.example:80" } }),
      403,
      "bad_host",
    );
  });
});

describe("Host header on a server bound to every interface (HOST=0.0.0.0 or ::)", () => {
  it("accepts loopback names and this machine's addresses on its port, and nothing else", () => {
    for (const boundHost of ["0.0.0.0", "::"]) {
      const policy = { boundHost, port: () => 4310, allowedHosts: [] };
      for (const name of ["localhost:4310", "LOCALHOST:4310", "127.0.0.1:4310", "[::1]:4310"]) {
        expect([boundHost, name, isAllowedHost(name, policy)]).toEqual([boundHost, name, true]);
      }
      for (const name of [
        "localhost:4311",
        "localhost",
        "attacker.example:4310",
        "localhost.attacker.example:4310",
        "203.0.113.9:4310",
      ]) {
        expect([boundHost, name, isAllowedHost(name, policy)]).toEqual([boundHost, name, false]);
      }
    }
  });
});

describe("state-changing requests (CSRF)", () => {
  it("refuses non-JSON bodies with 415 and creates nothing", async () => {
    const before = await threadCount();
    for (const type of [
      "text/plain",
      "application/x-www-form-urlencoded",
      "multipart/form-data; boundary=x",
    ]) {
      expectError(
        await post("/api/threads", { "content-type": type }),
        415,
        "unsupported_media_type",
      );
    }
    expectError(await post("/api/threads", {}), 415, "unsupported_media_type");
    expect(await threadCount()).toBe(before);
  });

  it("refuses another origin (another port, another host, null) with 403 bad_origin", async () => {
    const before = await threadCount();
    const port = Number(new URL(server.url).port);
    for (const origin of [
      `http://127.0.0.1:${port + 1}`,
      "http://attacker.example",
      "null",
      `https://${host}.evil`,
    ]) {
      expectError(
        await post("/api/threads", { "content-type": "application/json", origin }),
        403,
        "bad_origin",
      );
    }
    expect(await threadCount()).toBe(before);
    const own = await post("/api/threads", {
      "content-type": "application/json; charset=utf-8",
      origin: `http://${host}`,
    });
    expect(own.status).toBe(201);
    expect(await threadCount()).toBe(before + 1);
  });

  it("accepts cookie auth only from the same origin; a bearer token works from anywhere", async () => {
    const secured = await startTestServer({ adapter: new RecordingAdapter(), authToken: "tok" });
    try {
      const securedHost = new URL(secured.url).host;
      const get = (headers: Record<string, string>) =>
        rawRequest(`${secured.url}/api/threads`, { headers: { host: securedHost, ...headers } });
      const cookie = "auth_token=tok";
      expect((await get({ cookie })).status).toBe(200);
      expect((await get({ cookie, "sec-fetch-site": "same-origin" })).status).toBe(200);
      // A page on another port of the same host is same-site: the browser sends the cookie.
      expectError(await get({ cookie, "sec-fetch-site": "same-site" }), 401, "unauthorized");
      expectError(await get({ cookie, "sec-fetch-site": "cross-site" }), 401, "unauthorized");
      expectError(await get({ cookie, origin: "http://127.0.0.1:1" }), 401, "unauthorized");
      expect(
        (await get({ authorization: "Bearer tok", "sec-fetch-site": "cross-site" })).status,
      ).toBe(200);
    } finally {
      await secured.close();
      await removeDir(secured.dataDir);
    }
  });
});

describe("text fields", () => {
  it("rejects lone surrogates in any text field with 400 invalid_text and stores nothing", async () => {
    const thread = (await (await server.post("/api/threads", {})).json()) as Thread;
    const turns = `/api/threads/${thread.id}/turns`;
    const json = { "content-type": "application/json" };
    for (const body of [
      '{"input":"\\ud800"}',
      `{"input":"${"\\ud800".repeat(120_000)}"}`,
      '{"input":"ok \\udc00 after a low one"}',
      '{"input":"\\ud83d"}',
    ]) {
      const res = await post(turns, json, body);
      expectError(res, 400, "invalid_text");
      expect(res.json<{ error: { message: string } }>().error.message).toMatch(/input/);
    }
    expectError(await post("/api/threads", json, '{"title":"a\\ud800b"}'), 400, "invalid_text");
    // Bytes that are not UTF-8 at all.
    expectError(
      await post(
        turns,
        json,
        Buffer.from([
          0x7b, 0x22, 0x69, 0x6e, 0x70, 0x75, 0x74, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d,
        ]) as unknown as string,
      ),
      400,
      "invalid_text",
    );
    const detail = await server.getJson<{ thread: Thread }>(`/api/threads/${thread.id}`);
    expect(detail.thread.messageCount).toBe(0);

    // A proper pair is text like any other.
    const ok = await post(turns, json, '{"input":"smile \\ud83d\\ude00"}');
    expect(ok.status).toBe(201);
    await server.provider.whenIdle();
  });

  it("refuses a __proto__ key in answers instead of silently dropping it", async () => {
    const thread = (await (await server.post("/api/threads", {})).json()) as Thread;
    const res = await post(
      `/api/threads/${thread.id}/user-input`,
      { "content-type": "application/json" },
      '{"requestId":"r1","answers":{"__proto__":{"choice":"A"}}}',
    );
    expectError(res, 400, "invalid_request");
    expect(res.json<{ error: { message: string } }>().error.message).toMatch(/__proto__/);
  });
});
