/**
 * Hostile input never gets a 5xx, on either store (issue 19, DESIGN.md section 7): NUL in text
 * (400 `invalid_text`) and in ids (404), JSON nested deeper than 64 levels (400 `invalid_json`),
 * a `Last-Event-ID` past the thread's last event (400 `invalid_cursor`) and a `?token=` redirect
 * that would leave the origin. Runs on SQLite and, in `server-pg`, on PostgreSQL.
 */
import type { MessagePage, Thread, ThreadDetail } from "@app/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  citationLink,
  RecordingAdapter,
  removeDir,
  startTestServer,
  type TestServer,
} from "../testing/harness.ts";
import { rawRequest } from "../testing/rawHttp.ts";

type ErrorJson = { error: { code: string; message: string } };

let server: TestServer;
let adapter: RecordingAdapter;

beforeAll(async () => {
  adapter = new RecordingAdapter();
  server = await startTestServer({ adapter });
});

afterAll(async () => {
  await server.close();
  await removeDir(server.dataDir);
});

async function expectError(res: Response, status: number, code: string): Promise<ErrorJson> {
  const body = (await res.json()) as ErrorJson;
  expect({ status: res.status, code: body.error.code }).toEqual({ status, code });
  return body;
}

const newThread = async () => (await (await server.post("/api/threads", {})).json()) as Thread;

const postText = (path: string, body: string) =>
  server.request(path, { method: "POST", headers: { "content-type": "application/json" }, body });

describe("NUL (U+0000)", () => {
  it("refuses NUL in any input text with 400 invalid_text and stores nothing", async () => {
    const thread = await newThread();
    const turns = `/api/threads/${thread.id}/turns`;
    for (const input of ["\0", "before\0after", `${"x".repeat(50_000)}\0`]) {
      const body = await expectError(await server.post(turns, { input }), 400, "invalid_text");
      expect(body.error.message).toMatch(/input/);
      expect(body.error.message).toMatch(/NUL/);
    }
    // The JSON escape and the raw character are the same string once parsed.
    await expectError(await postText(turns, '{"input":"a\\u0000b"}'), 400, "invalid_text");
    await expectError(await server.post("/api/threads", { title: "t\0" }), 400, "invalid_text");
    await expectError(
      await server.post(`/api/threads/${thread.id}/user-input`, {
        requestId: "r1",
        answers: { choice: "A\0" },
      }),
      400,
      "invalid_text",
    );
    await expectError(
      await server.post(`/api/threads/${thread.id}/user-input`, {
        requestId: "r1",
        answers: { "ch\0ice": "A" },
      }),
      400,
      "invalid_text",
    );
    const detail = await server.getJson<ThreadDetail>(`/api/threads/${thread.id}`);
    expect(detail.thread.messageCount).toBe(0);
    expect(detail.lastEventId).toBe(0);
    expect(adapter.turns.filter((t) => t.threadId === thread.id)).toHaveLength(0);
    const { threads } = await server.getJson<{ threads: Thread[] }>("/api/threads");
    expect(threads.some((t) => t.title?.includes("\0"))).toBe(false);
  });

  it("answers an id holding NUL as an unknown id: 404 of its kind", async () => {
    const thread = await newThread();
    const nul = "%00";
    for (const [path, code] of [
      [`/api/threads/${nul}`, "thread_not_found"],
      [`/api/threads/a${nul}b/messages`, "thread_not_found"],
      [`/api/threads/${nul}/events`, "thread_not_found"],
      [`/api/threads/${nul}/export.md`, "thread_not_found"],
      [`/api/threads/${thread.id}/messages?around=m${nul}`, "message_not_found"],
      [`/api/threads/${thread.id}/turns/t${nul}/provider-input`, "turn_not_found"],
    ] as const) {
      await expectError(await server.request(path), 404, code);
    }
    for (const [path, body, code] of [
      [`/api/threads/${nul}/turns`, { input: "hi" }, "thread_not_found"],
      [`/api/threads/${thread.id}/turns/t${nul}/cancel`, {}, "turn_not_found"],
      [
        `/api/threads/${thread.id}/user-input`,
        { requestId: "r\0", answers: {} },
        "user_input_request_not_found",
      ],
    ] as const) {
      await expectError(await server.post(path, body), 404, code);
    }
  });
});

describe("NUL inside a citation link (issue 29)", () => {
  it("refuses %00 in any of a link's fields with 400 invalid_text on both stores", async () => {
    const thread = await newThread();
    const turns = `/api/threads/${thread.id}/turns`;
    for (const field of [
      "environmentId",
      "threadId",
      "messageId",
      "text",
      "prefix",
      "suffix",
      "comment",
    ] as const) {
      const link = citationLink({ text: "quoted", end: 6, [field]: `a\u0000b` });
      expect(link).toContain("%00");
      const body = await expectError(
        await server.post(turns, { input: `see ${link}` }),
        400,
        "invalid_text",
      );
      expect(body.error.message).toContain(field);
    }
    const detail = await server.getJson<ThreadDetail>(`/api/threads/${thread.id}`);
    expect(detail.thread.messageCount).toBe(0);
  });
});

describe("lone surrogates from the provider (issue 29)", () => {
  it("are stored as one U+FFFD each on both stores, and a pair split across chunks stays whole", async () => {
    const thread = await newThread();
    const script = adapter.script;
    adapter.script = async (ctx) => {
      const writer = ctx.startMessage("answer");
      writer.append("a\ud800b\udc00c\ud83d");
      writer.append("\ude00 end \ud83d");
      writer.complete();
    };
    try {
      const res = await server.post(`/api/threads/${thread.id}/turns`, { input: "hi" });
      expect(res.status).toBe(201);
      await server.provider.whenIdle();
    } finally {
      adapter.script = script;
    }
    const page = await server.getJson<MessagePage>(`/api/threads/${thread.id}/messages`);
    const answer = page.messages.find((m) => m.role === "assistant");
    expect(answer?.text).toBe("a\uFFFDb\uFFFDc\ud83d\ude00 end \uFFFD");
  });
});

describe("a URL over 16 KB (issue 29)", () => {
  it("gets 431 headers_too_large in the API's error shape, with the headers every response has", async () => {
    const res = await rawRequest(`${server.url}/api/threads?q=${"x".repeat(20_000)}`);
    expect(res.status).toBe(431);
    expect(res.headers["x-content-type-options"]).toBe("nosniff");
    expect(res.headers["referrer-policy"]).toBe("no-referrer");
    expect(res.headers["content-type"]).toMatch(/^application\/json/);
    expect(res.json()).toEqual({
      error: { code: "headers_too_large", message: expect.any(String) },
    });
    // The server goes on answering.
    expect((await server.request("/api/environment")).status).toBe(200);
  });
});

describe("deeply nested JSON", () => {
  const nested = (depth: number) => `{"input":${"[".repeat(depth)}${"]".repeat(depth)}}`;

  it("refuses nesting deeper than 64 levels with 400 invalid_json, up to a 1 MB body", async () => {
    const thread = await newThread();
    const turns = `/api/threads/${thread.id}/turns`;
    for (const body of [nested(64), nested(4_000), nested(500_000), "[".repeat(1_000_000)]) {
      await expectError(await postText(turns, body), 400, "invalid_json");
    }
    // Brackets inside strings are text, however many.
    const inString = await postText(turns, JSON.stringify({ input: "[".repeat(10_000) }));
    expect(inString.status).toBe(201);
    // 64 levels in all (the body object is one) is the limit, and is only a wrong shape.
    await expectError(await postText(turns, nested(63)), 400, "invalid_request");
    await server.provider.whenIdle();
  });
});

describe("Last-Event-ID", () => {
  it("answers a resume point past the thread's last event with 400 invalid_cursor", async () => {
    const thread = await newThread();
    const events = `/api/threads/${thread.id}/events`;
    await server.post(`/api/threads/${thread.id}/turns`, { input: "hello" });
    await server.provider.whenIdle();
    const { lastEventId } = await server.getJson<ThreadDetail>(`/api/threads/${thread.id}`);
    expect(lastEventId).toBeGreaterThan(0);
    for (const id of [lastEventId + 1, 999_999_999]) {
      const body = await expectError(
        await server.request(events, { headers: { "last-event-id": String(id) } }),
        400,
        "invalid_cursor",
      );
      expect(body.error.message).toContain(String(lastEventId));
      await expectError(await server.request(`${events}?lastEventId=${id}`), 400, "invalid_cursor");
    }
    // The last id itself is a valid resume point (nothing to replay, then live).
    const controller = new AbortController();
    const open = await server.request(events, {
      headers: { "last-event-id": String(lastEventId) },
      signal: controller.signal,
    });
    expect(open.status).toBe(200);
    controller.abort();
  });
});

describe("?token= redirect", () => {
  it("redirects only to a path of this origin, whatever the request path", async () => {
    const secured = await startTestServer({ adapter: new RecordingAdapter(), authToken: "s3cret" });
    try {
      const { host, origin } = new URL(secured.url);
      for (const path of [
        "//evil.example/",
        "//evil.example/a/b",
        "///evil.example/",
        "/\\evil.example/",
        "/%2F%2Fevil.example/",
        "/threads/x",
      ]) {
        const res = await rawRequest(`${secured.url}${path}?token=s3cret&keep=1`, {
          headers: { host },
        });
        expect(res.status).toBe(302);
        const location = String(res.headers.location);
        expect(location).toMatch(/^\/(?![/\\])/);
        const target = new URL(location, secured.url);
        expect(target.origin).toBe(origin);
        expect(target.searchParams.get("token")).toBeNull();
        expect(target.searchParams.get("keep")).toBe("1");
      }
    } finally {
      await secured.close();
      await removeDir(secured.dataDir);
    }
  });
});

describe("a POST answered before its body was read", () => {
  it("closes the connection (Connection: close); a POST whose body was read keeps it", async () => {
    const thread = await newThread();
    const { host } = new URL(server.url);
    const post = (path: string) =>
      rawRequest(`${server.url}${path}`, {
        method: "POST",
        headers: { host, "content-type": "application/json", connection: "keep-alive" },
        body: JSON.stringify({ input: "x".repeat(50_000) }),
      });
    const unknown = await post("/api/threads/no-such-thread/turns");
    expect(unknown.status).toBe(404);
    expect(unknown.headers.connection).toBe("close");
    const nulId = await post("/api/threads/a%00/turns");
    expect(nulId.status).toBe(404);
    expect(nulId.headers.connection).toBe("close");
    const accepted = await post(`/api/threads/${thread.id}/turns`);
    expect(accepted.status).toBe(201);
    expect(accepted.headers.connection).toBe("keep-alive");
    await server.provider.whenIdle();
  });
});
