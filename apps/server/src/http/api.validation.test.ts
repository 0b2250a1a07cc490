import { once } from "node:events";
import { connect } from "node:net";
import type { Thread, ThreadDetail } from "@app/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  RecordingAdapter,
  removeDir,
  startTestServer,
  type TestServer,
} from "../testing/harness.ts";
import { storedThreadCount } from "../testing/storedThreadCount.ts";

type ErrorJson = { error: { code: string; message: string } };

let server: TestServer;
let adapter: RecordingAdapter;
let thread: Thread;

beforeAll(async () => {
  adapter = new RecordingAdapter();
  server = await startTestServer({ adapter });
  thread = (await (await server.post("/api/threads", {})).json()) as Thread;
});

afterAll(async () => {
  await server.close();
  await removeDir(server.dataDir);
});

async function expectError(res: Response, status: number, code: string): Promise<ErrorJson> {
  expect(res.status).toBe(status);
  expect(res.headers.get("content-type")).toContain("application/json");
  const body = (await res.json()) as ErrorJson;
  expect(body.error.code).toBe(code);
  expect(body.error.message.length).toBeGreaterThan(0);
  return body;
}

async function expectUnchanged(): Promise<void> {
  await server.provider.whenIdle();
  const detail = await server.getJson<ThreadDetail>(`/api/threads/${thread.id}`);
  expect(detail.thread.messageCount).toBe(0);
  expect(detail.lastEventId).toBe(0);
  expect(adapter.turns).toHaveLength(0);
  // Rejected `POST /api/threads` bodies created no thread either (the list hides empty ones).
  expect(await storedThreadCount(server.dataDir)).toBe(1);
}

const turnsPath = () => `/api/threads/${thread.id}/turns`;

describe("bad requests get clear 4xx errors and change nothing", () => {
  it("rejects malformed JSON with invalid_json", async () => {
    const res = await server.request(turnsPath(), {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: '{"input": "unterminated',
    });
    await expectError(res, 400, "invalid_json");
    await expectError(
      await server.request(turnsPath(), {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: "",
      }),
      400,
      "invalid_json",
    );
    await expectUnchanged();
  });

  it("rejects wrong types and unknown fields with invalid_request naming the field", async () => {
    const wrongType = await expectError(
      await server.post(turnsPath(), { input: 42 }),
      400,
      "invalid_request",
    );
    expect(wrongType.error.message).toContain("input");
    await expectError(await server.post(turnsPath(), ["input"]), 400, "invalid_request");
    await expectError(await server.post(turnsPath(), null), 400, "invalid_request");
    await expectError(
      await server.post(turnsPath(), { input: "hi", extra: true }),
      400,
      "invalid_request",
    );
    await expectError(await server.post("/api/threads", { title: 7 }), 400, "invalid_request");
    await expectError(
      await server.post(`/api/threads/${thread.id}/user-input`, { requestId: "", answers: {} }),
      400,
      "invalid_request",
    );
    await expectError(
      await server.post(`/api/threads/${thread.id}/user-input`, {
        requestId: "r",
        answers: { a: 1 },
      }),
      400,
      "invalid_request",
    );
    await expectUnchanged();
  });

  it("rejects bodies over 1 MB by Content-Length and by streamed size", async () => {
    const huge = JSON.stringify({ input: "a".repeat(1024 * 1024 + 10) });
    await expectError(
      await server.request(turnsPath(), {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: huge,
      }),
      413,
      "payload_too_large",
    );
    // Chunked upload without Content-Length: the limit applies to the bytes actually read.
    const bytes = new TextEncoder().encode(huge);
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < bytes.length; i += 64 * 1024) {
          controller.enqueue(bytes.subarray(i, i + 64 * 1024));
        }
        controller.close();
      },
    });
    const chunked = await server.request(turnsPath(), {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: stream,
      duplex: "half",
    } as RequestInit);
    await expectError(chunked, 413, "payload_too_large");
    await expectUnchanged();
  });

  it("answers a 10 MB body 413 only once it is read, so the client gets the answer, not a reset (issue 29)", async () => {
    const size = 10 * 1024 * 1024;
    const { port } = new URL(server.url);
    const socket = connect(Number(port), "127.0.0.1");
    await once(socket, "connect");
    const received: Buffer[] = [];
    socket.on("data", (part: Buffer) => received.push(part));
    const closed = new Promise<Error | null>((resolve) => {
      socket.once("error", (error) => resolve(error));
      socket.once("close", () => resolve(null));
    });
    const write = async (data: Buffer | string) => {
      if (!socket.write(data)) await once(socket, "drain");
    };
    await write(
      `POST ${turnsPath()} HTTP/1.1\r\nHost: ${new URL(server.url).host}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${size}\r\n\r\n`,
    );
    const part = Buffer.alloc(256 * 1024, "a");
    for (let sent = 0; sent < size - 1; sent += part.length) {
      await write(part.subarray(0, Math.min(part.length, size - 1 - sent)));
    }
    // All but the last byte is sent; the server has had a full request's time to answer (a
    // request on another connection went through), and it has not: it waits for the body.
    expect((await server.request("/api/environment")).status).toBe(200);
    expect(Buffer.concat(received).length).toBe(0);
    await write("a");
    expect(await closed).toBeNull();
    const text = Buffer.concat(received).toString("utf8");
    expect(text.startsWith("HTTP/1.1 413")).toBe(true);
    expect(text).toMatch(/connection: close/i);
    expect(JSON.parse(text.slice(text.indexOf("\r\n\r\n") + 4))).toMatchObject({
      error: { code: "payload_too_large" },
    });
    await expectUnchanged();
  });

  it("answers unknown threads with thread_not_found on every thread route", async () => {
    const id = "no-such-thread";
    await expectError(await server.request(`/api/threads/${id}`), 404, "thread_not_found");
    await expectError(await server.request(`/api/threads/${id}/messages`), 404, "thread_not_found");
    await expectError(await server.request(`/api/threads/${id}/events`), 404, "thread_not_found");
    await expectError(
      await server.request(`/api/threads/${id}/export.md`),
      404,
      "thread_not_found",
    );
    await expectError(
      await server.request(`/api/threads/${id}/turns/t/provider-input`),
      404,
      "thread_not_found",
    );
    await expectError(
      await server.post(`/api/threads/${id}/turns`, { input: "hello" }),
      404,
      "thread_not_found",
    );
    await expectError(
      await server.post(`/api/threads/${id}/user-input`, { requestId: "r", answers: {} }),
      404,
      "thread_not_found",
    );
    await expectError(
      await server.request(`/api/threads/${thread.id}/turns/nope/provider-input`),
      404,
      "turn_not_found",
    );
    expect(await storedThreadCount(server.dataDir)).toBe(1);
  });

  it("answers unknown API routes and methods with 404 JSON", async () => {
    await expectError(await server.request("/api/nope"), 404, "not_found");
    await expectError(await server.request("/api"), 404, "not_found");
    await expectError(
      await server.request(`/api/threads/${thread.id}`, { method: "DELETE" }),
      404,
      "not_found",
    );
  });

  it("validates query parameters", async () => {
    const base = `/api/threads/${thread.id}`;
    await expectError(await server.request(`${base}/messages?limit=0`), 400, "invalid_request");
    await expectError(await server.request(`${base}/messages?limit=abc`), 400, "invalid_request");
    await expectError(await server.request(`${base}/messages?before=xyz`), 400, "invalid_cursor");
    await expectError(await server.request(`${base}/messages?after=-1`), 400, "invalid_cursor");
    await expectError(
      await server.request(`${base}/messages?before=1&around=m`),
      400,
      "invalid_request",
    );
    await expectError(
      await server.request(`${base}/messages?around=missing`),
      404,
      "message_not_found",
    );
    await expectError(
      await server.request(`${base}/events`, { headers: { "last-event-id": "soon" } }),
      400,
      "invalid_request",
    );
  });
});

describe("environment and threads", () => {
  it("reports the environment and lists threads newest first", async () => {
    const env = await server.getJson<{
      environmentId: string;
      provider: string;
      maxInputChars: number;
    }>("/api/environment");
    expect(env).toEqual({
      environmentId: server.environmentId,
      provider: "recording",
      maxInputChars: 120_000,
    });
    expect(thread.environmentId).toBe(server.environmentId);
    expect(thread).toMatchObject({ title: "New thread", branchName: null, messageCount: 0 });
  });
});

describe("auth", () => {
  it("requires the token on every /api request when AUTH_TOKEN is set", async () => {
    const secured = await startTestServer({
      adapter: new RecordingAdapter(),
      authToken: "s3cret-token",
    });
    try {
      await expectError(await secured.request("/api/environment"), 401, "unauthorized");
      await expectError(
        await secured.request("/api/threads", { headers: { authorization: "Bearer wrong" } }),
        401,
        "unauthorized",
      );
      await expectError(await secured.post("/api/threads", {}), 401, "unauthorized");
      // Percent-encoded spellings of /api reach the same routes, so they need the token too.
      for (const path of ["/%61pi/threads", "/%61%70%69/environment", "/api/%74hreads"]) {
        await expectError(await secured.request(path), 401, "unauthorized");
      }
      const created = await secured.post(
        "/api/threads",
        {},
        { authorization: "Bearer s3cret-token" },
      );
      expect(created.status).toBe(201);
      const createdId = ((await created.json()) as Thread).id;
      const byCookie = await secured.request(`/api/threads/${createdId}`, {
        headers: { cookie: "auth_token=s3cret-token" },
      });
      expect(byCookie.status).toBe(200);
      expect(((await byCookie.json()) as ThreadDetail).thread.id).toBe(createdId);

      // ?token= on a page URL sets the cookie and redirects to the clean URL.
      const page = await secured.request("/env/thread?token=s3cret-token&x=1", {
        redirect: "manual",
      });
      expect(page.status).toBe(302);
      expect(page.headers.get("location")).toBe("/env/thread?x=1");
      expect(page.headers.get("set-cookie")).toMatch(/auth_token=s3cret-token.*HttpOnly/i);
      // Pages themselves load without a token; only the API is guarded.
      expect((await secured.request("/")).status).toBe(200);
    } finally {
      await secured.close();
      await removeDir(secured.dataDir);
    }
  });
});
