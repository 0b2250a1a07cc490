import { afterEach, describe, expect, it, vi } from "vitest";
import { ApiError, getMessages, listFiles, searchThread, sendTurn, toApiError } from "./client.ts";
import { takeThreadPrefetch } from "./threadPrefetch.ts";

function respond(status: number, body: unknown, statusText = "") {
  const fetchMock = vi.fn(async (_input: RequestInfo | URL, _init?: RequestInit) => {
    const text = typeof body === "string" ? body : JSON.stringify(body);
    return new Response(text, {
      status,
      statusText,
      headers: { "content-type": "application/json" },
    });
  });
  vi.stubGlobal("fetch", fetchMock);
  return fetchMock;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("api client", () => {
  it("turns an error body into an ApiError with status, code, message and details", async () => {
    respond(413, {
      error: {
        code: "input_too_long",
        message: "Input is 5 characters over",
        details: { excess: 5 },
      },
    });
    const error = await sendTurn("t1", "hello").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 413,
      code: "input_too_long",
      message: "Input is 5 characters over",
      details: { excess: 5 },
    });
  });

  it("reports a non-JSON error response by its status", () => {
    const error = toApiError({ status: 502, statusText: "Bad Gateway" }, undefined);
    expect(error).toMatchObject({
      status: 502,
      code: "http_502",
      message: "Server error 502: Bad Gateway",
    });
  });

  it("rejects a success response that does not match the protocol", async () => {
    respond(200, { threads: "nope" });
    await expect(getMessages("t1")).rejects.toMatchObject({ code: "invalid_response" });
  });

  it("maps a network failure to status 0", async () => {
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => {
        throw new TypeError("Failed to fetch");
      }),
    );
    await expect(listFiles("src")).rejects.toMatchObject({ status: 0, code: "network_error" });
  });

  it("encodes ids and query parameters and posts JSON", async () => {
    const fetchMock = respond(200, { files: ["src/a.ts"] });
    await expect(listFiles("src/a b", 5)).resolves.toEqual(["src/a.ts"]);
    expect(fetchMock.mock.calls[0]?.[0]).toBe("/api/files?query=src%2Fa+b&limit=5");

    const page = { messages: [], nextCursor: null, newerCursor: null, turns: [] };
    respond(200, page);
    await expect(getMessages("a/b", { before: "c1", limit: 10 })).resolves.toEqual(page);
    expect(vi.mocked(fetch).mock.calls[0]?.[0]).toBe(
      "/api/threads/a%2Fb/messages?before=c1&limit=10",
    );
  });

  it("searches a thread with its options on the query string, parsed with the protocol", async () => {
    const body = {
      matches: [{ messageId: "m1", role: "assistant", ranges: [[3, 7]] }],
      nextCursor: "c2",
    };
    const fetchMock = respond(200, body);
    await expect(
      searchThread("t/1", {
        q: "step 1&2",
        cursor: "c1",
        limit: 50,
        matchCase: true,
        wholeWords: true,
      }),
    ).resolves.toEqual(body);
    expect(fetchMock.mock.calls[0]?.[0]).toBe(
      "/api/threads/t%2F1/search?q=step+1%262&cursor=c1&limit=50&case=1&word=1",
    );
    // Defaults send neither option.
    respond(200, { matches: [], nextCursor: null });
    await searchThread("t1", { q: "x" });
    expect(vi.mocked(fetch).mock.calls[0]?.[0]).toBe("/api/threads/t1/search?q=x");
    // An empty range is not a match the client accepts.
    respond(200, {
      matches: [{ messageId: "m1", role: "user", ranges: [[4, 4]] }],
      nextCursor: null,
    });
    await expect(searchThread("t1", { q: "x" })).rejects.toMatchObject({
      code: "invalid_response",
    });
  });

  it("consumes the index.html prefetch once, for its own thread, validating both responses", async () => {
    const thread = {
      id: "t1",
      environmentId: "env",
      title: "T",
      branchName: null,
      createdAt: "2026-01-01T00:00:00.000Z",
      updatedAt: "2026-01-01T00:00:00.000Z",
      messageCount: 0,
    };
    const detail = { thread, activeTurn: null, pendingUserInput: null, lastEventId: 4 };
    const holder = globalThis as { __threadPrefetch?: unknown };
    holder.__threadPrefetch = {
      threadId: "t1",
      detail: Promise.resolve(new Response(JSON.stringify(detail), { status: 200 })),
      page: Promise.resolve(new Response(JSON.stringify({ messages: "bad" }), { status: 200 })),
    };
    expect(takeThreadPrefetch("other")).toBeNull();
    const taken = takeThreadPrefetch("t1");
    expect(takeThreadPrefetch("t1")).toBeNull();
    await expect(taken?.detail).resolves.toEqual(detail);
    await expect(taken?.page).rejects.toMatchObject({ code: "invalid_response" });
  });
});
