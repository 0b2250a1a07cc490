/**
 * Issue 31 over real HTTP, on SQLite and (server-pg) PostgreSQL: the paged thread list, rename
 * (and its `thread.updated` event), delete with undo and the purge after the window, a running
 * turn stopped by a delete, search across all threads, and the refusals (bad input 4xx, the
 * same browser-safety checks as every write).
 */
import type { AllThreadsSearchResponse, Thread, ThreadDeletion, ThreadList } from "@app/protocol";
import {
  AllThreadsSearchResponseSchema,
  ThreadDeletionSchema,
  ThreadListSchema,
} from "@app/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { UNDO_WINDOW_MS } from "../domain/threadLifecycle.ts";
import {
  collectSse,
  RecordingAdapter,
  removeDir,
  startTestServer,
  type TestServer,
  waitFor,
} from "../testing/harness.ts";
import { ManualClock } from "../testing/manualClock.ts";

let server: TestServer;
/**
 * The server's timers: the undo window passes only when a test advances it, whatever the load
 * (the turns here need no timer to finish).
 */
const clock = new ManualClock(Date.now());
const adapter = new RecordingAdapter(async (ctx) => {
  const writer = ctx.startMessage("answer");
  if (ctx.input.includes("hang")) {
    writer.append("partial ");
    await new Promise((_, reject) => {
      if (ctx.signal.aborted) reject(ctx.signal.reason);
      ctx.signal.addEventListener("abort", () => reject(ctx.signal.reason));
    });
  }
  writer.append(`Answer to: ${ctx.input}`);
});

beforeAll(async () => {
  // Short keep-alives: a stream reader checks its stop condition at least this often.
  server = await startTestServer({ adapter, clock, heartbeatMs: 250 });
});

afterAll(async () => {
  await server.close();
  await removeDir(server.dataDir);
});

const json = (method: string, body: unknown, headers: Record<string, string> = {}) => ({
  method,
  headers: { "content-type": "application/json", ...headers },
  body: JSON.stringify(body),
});

async function threadWith(input: string): Promise<Thread> {
  const thread = (await (await server.post("/api/threads", {})).json()) as Thread;
  const res = await server.post(`/api/threads/${thread.id}/turns`, { input });
  expect(res.status).toBe(201);
  if (!input.includes("hang")) await server.provider.whenIdle();
  return thread;
}

describe("GET /api/threads", () => {
  it("pages every thread by cursor, newest first, past the old cap", async () => {
    const made: string[] = [];
    for (let i = 0; i < 7; i++) made.push((await threadWith(`paging ${i}`)).id);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const query: string = cursor === null ? "" : `&cursor=${cursor}`;
      const page: ThreadList = ThreadListSchema.parse(
        await server.getJson(`/api/threads?limit=3${query}`),
      );
      expect(page.threads.length).toBeLessThanOrEqual(3);
      seen.push(...page.threads.map((t) => t.id));
      cursor = page.nextCursor;
    } while (cursor !== null);
    expect(seen.filter((id) => made.includes(id))).toEqual([...made].reverse());
    expect(new Set(seen).size).toBe(seen.length);
  });

  it("refuses a cursor no page gave and a bad limit with 400", async () => {
    expect((await server.request("/api/threads?cursor=%25%25")).status).toBe(400);
    expect((await server.request("/api/threads?cursor=WzFd")).status).toBe(400);
    expect((await server.request("/api/threads?limit=0")).status).toBe(400);
  });
});

describe("PATCH /api/threads/:threadId", () => {
  it("renames, tells watchers, and keeps the title through later turns", async () => {
    const thread = await threadWith("first prompt names it");
    const detail = await server.getJson<{ lastEventId: number }>(`/api/threads/${thread.id}`);
    const events = collectSse(`${server.url}/api/threads/${thread.id}/events`, {
      lastEventId: String(detail.lastEventId),
      until: (list) => list.some((e) => e.data.includes('"thread.updated"')),
    });
    const res = await server.request(`/api/threads/${thread.id}`, json("PATCH", { title: "Mine" }));
    expect(res.status).toBe(200);
    expect(((await res.json()) as { thread: Thread }).thread.title).toBe("Mine");
    const updated = (await events).find((e) => e.data.includes('"thread.updated"'))!;
    expect(JSON.parse(updated.data).thread.title).toBe("Mine");
    await server.post(`/api/threads/${thread.id}/turns`, { input: "another prompt" });
    await server.provider.whenIdle();
    expect(
      (await server.getJson<{ thread: Thread }>(`/api/threads/${thread.id}`)).thread.title,
    ).toBe("Mine");
  });

  it("refuses an empty or long title, another shape, a foreign origin and a non-JSON body", async () => {
    const thread = await threadWith("to be misnamed");
    const path = `/api/threads/${thread.id}`;
    expect((await server.request(path, json("PATCH", { title: "  " }))).status).toBe(400);
    expect((await server.request(path, json("PATCH", { title: "x".repeat(201) }))).status).toBe(
      400,
    );
    expect((await server.request(path, json("PATCH", { name: "x" }))).status).toBe(400);
    expect((await server.request(path, json("PATCH", { title: "a\ud800" }))).status).toBe(400);
    const foreign = await server.request(
      path,
      json("PATCH", { title: "x" }, { origin: "https://evil.example" }),
    );
    expect(foreign.status).toBe(403);
    const plain = await server.request(path, {
      method: "PATCH",
      headers: { "content-type": "text/plain" },
      body: '{"title":"x"}',
    });
    expect(plain.status).toBe(415);
    expect((await server.request("/api/threads/nope", json("PATCH", { title: "x" }))).status).toBe(
      404,
    );
  });
});

describe("GET /api/threads/events", () => {
  type Change = { type: "upsert"; thread: Thread } | { type: "remove"; threadId: string };
  const changesOf = (events: { event: string | null; data: string }[]): Change[] =>
    events
      .filter((e) => e.event === "threads")
      .flatMap((e) => (JSON.parse(e.data) as { changes: Change[] }).changes);

  it("streams the list's changes: a new thread, a rename, a delete, a restore, a branch", async () => {
    const thread = await threadWith("listed live");
    const path = `/api/threads/${thread.id}`;
    let seen: { event: string | null; data: string }[] = [];
    let done = false;
    const has = (test: (c: Change) => boolean) =>
      waitFor(() => (changesOf(seen).some(test) ? true : undefined));
    // Each step waits until its change arrived: changes within one round arrive as the state
    // they leave (a rename then a delete in the same 150 ms is one `remove`).
    const steps = async () => {
      const fresh = await threadWith("a new thread appears");
      await has((c) => c.type === "upsert" && c.thread.id === fresh.id);
      await server.request(path, json("PATCH", { title: "Renamed live" }));
      await has((c) => c.type === "upsert" && c.thread.title === "Renamed live");
      await server.request(path, json("DELETE", {}));
      await has((c) => c.type === "remove" && c.threadId === thread.id);
      const restoredAfter = changesOf(seen).length;
      await server.post(`${path}/restore`, {});
      await waitFor(() =>
        changesOf(seen)
          .slice(restoredAfter)
          .some((c) => c.type === "upsert" && c.thread.id === thread.id)
          ? true
          : undefined,
      );
      const [prompt] = (
        await server.getJson<{ messages: { id: string }[] }>(`${path}/messages?limit=2`)
      ).messages;
      const res = await server.post(`${path}/branch`, { messageId: prompt!.id });
      const branch = ((await res.json()) as { thread: Thread }).thread;
      await has((c) => c.type === "upsert" && c.thread.id === branch.id);
      expect(branch.title).toBe("Renamed live (branch)");
    };
    let finished: Promise<void> = Promise.resolve();
    await collectSse(`${server.url}/api/threads/events`, {
      onOpen: () => {
        finished = steps().finally(() => {
          done = true;
        });
      },
      until: (list) => {
        seen = list;
        return done;
      },
    });
    await finished;
  });
});

describe("DELETE /api/threads/:threadId and restore", () => {
  it("hides the thread at once, restores it whole, and purges it after the window", async () => {
    const thread = await threadWith("delete me please");
    const path = `/api/threads/${thread.id}`;
    const deleted = ThreadDeletionSchema.parse(
      await (await server.request(path, json("DELETE", {}))).json(),
    ) satisfies ThreadDeletion;
    expect(deleted.restorableUntil).toBe(new Date(clock.now() + UNDO_WINDOW_MS).toISOString());
    expect((await server.request(path)).status).toBe(410);
    expect((await server.request(`${path}/messages`)).status).toBe(410);
    const restored = await server.post(`${path}/restore`, {});
    expect(restored.status).toBe(200);
    const page = await server.getJson<{ messages: unknown[] }>(`${path}/messages`);
    expect(page.messages).toHaveLength(2);

    expect((await server.request(path, json("DELETE", {}))).status).toBe(200);
    // The purge runs once the window is over: the thread is gone for good.
    const purged = async () => {
      const res = await server.request(path);
      const body = (await res.json()) as { error: { code: string; details: { purged: boolean } } };
      return body.error.details.purged ? body : undefined;
    };
    clock.advance(UNDO_WINDOW_MS - 1);
    expect(await purged()).toBeUndefined();
    clock.advance(UNDO_WINDOW_MS);
    expect((await waitFor(purged)).error.code).toBe("thread_deleted");
    expect((await server.post(`${path}/restore`, {})).status).toBe(410);
  });

  it("stops a running turn before deleting its thread", async () => {
    const thread = await threadWith("hang until stopped");
    await waitFor(async () => {
      const detail = await server.getJson<{ activeTurn: { status: string } | null }>(
        `/api/threads/${thread.id}`,
      );
      return detail.activeTurn?.status === "running" ? true : undefined;
    });
    const res = await server.request(`/api/threads/${thread.id}`, json("DELETE", {}));
    expect(res.status).toBe(200);
    await server.post(`/api/threads/${thread.id}/restore`, {});
    const detail = await server.getJson<{ activeTurn: unknown }>(`/api/threads/${thread.id}`);
    expect(detail.activeTurn).toBeNull();
  });

  it("refuses a foreign origin, a non-JSON body and an unknown thread", async () => {
    const thread = await threadWith("guarded");
    const path = `/api/threads/${thread.id}`;
    expect(
      (await server.request(path, json("DELETE", {}, { origin: "https://evil.example" }))).status,
    ).toBe(403);
    expect((await server.request(path, { method: "DELETE" })).status).toBe(415);
    expect((await server.request("/api/threads/nope", json("DELETE", {}))).status).toBe(404);
    expect((await server.post("/api/threads/nope/restore", {})).status).toBe(404);
    expect((await server.request(path)).status).toBe(200);
  });
});

describe("GET /api/search", () => {
  it("finds words in every thread, grouped newest first, and refuses a bad query", async () => {
    const older = await threadWith("the quokkaphrase is here");
    const newer = await threadWith("a Quokkaphrase again");
    const body: AllThreadsSearchResponse = AllThreadsSearchResponseSchema.parse(
      await server.getJson("/api/search?q=quokkaphrase"),
    );
    const ids = body.groups.map((g) => g.thread.id);
    expect(ids).toEqual([newer.id, older.id]);
    expect(body.groups[0]!.matches[0]!.snippet.text).toContain("Quokkaphrase");
    const exact = AllThreadsSearchResponseSchema.parse(
      await server.getJson("/api/search?q=Quokkaphrase&case=1"),
    );
    expect(exact.groups.map((g) => g.thread.id)).toEqual([newer.id]);
    expect((await server.request("/api/search?q=")).status).toBe(400);
    expect((await server.request("/api/search?q=x&cursor=zz!")).status).toBe(400);
    const short = AllThreadsSearchResponseSchema.parse(await server.getJson("/api/search?q=qu"));
    expect(short.groups.length).toBeGreaterThan(0);
  });

  it("cuts snippets between words, with an ellipsis where cut and the match highlighted", async () => {
    // The reported snippets: "hort demo reply", "received git swit", "received fun".
    const thread = await threadWith(
      "A short demo reply follows. You began with give me a snipbulleted list. The demo " +
        "provider repeats this sentence on purpose.\n\nThis reply is turn 2 of the thread. It " +
        "shows bold, emphasis and inline code so you can try selecting and citing rendered text.",
    );
    const search = async (q: string) =>
      AllThreadsSearchResponseSchema.parse(
        await server.getJson(`/api/search?q=${encodeURIComponent(q)}`),
      ).groups.flatMap((g) => (g.thread.id === thread.id ? g.matches : []));
    const matches = await search("snipbulleted list");
    expect(matches.map((m) => m.role)).toEqual(["user", "assistant"]);
    const [prompt, answer] = matches.map((m) => m.snippet);
    expect(prompt).toEqual({
      text: "…follows. You began with give me a snipbulleted list. The demo provider repeats this sentence on purpose. This reply is turn 2 of…",
      start: 19,
      ranges: [[35, 52]],
    });
    // The answer is "Answer to: " and the prompt: its snippet starts 11 units further on.
    expect(answer).toEqual({ ...prompt, start: 30 });
    for (const m of matches) {
      const [[s, e]] = m.snippet.ranges as [[number, number]];
      expect(m.snippet.text.slice(s, e)).toBe("snipbulleted list");
    }
    const end = (await search("citing rendered text"))[1]!.snippet;
    expect(end.text).toBe("…code so you can try selecting and citing rendered text.");
    expect(end.text.slice(...(end.ranges[0] as [number, number]))).toBe("citing rendered text");
  });
});
