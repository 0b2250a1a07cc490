/**
 * Conversations that change (issue 30) over real HTTP, on SQLite and (server-pg) PostgreSQL:
 * edit and resend, regenerate, version switches, branches, the history the provider receives,
 * events, and the 4xx answers for bad requests.
 */
import { serializeAssistantCitation } from "@app/citations";
import type {
  AllThreadsSearchResponse,
  BranchResponse,
  CitedByPage,
  EditMessageResponse,
  Message,
  MessagePage,
  RegenerateResponse,
  ServerEvent,
  Thread,
  ThreadSearchResponse,
} from "@app/protocol";
import Database from "better-sqlite3";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  collectSse,
  RecordingAdapter,
  removeDir,
  startTestServer,
  type TestServer,
  testDatabaseUrl,
  testStoreKind,
  waitFor,
} from "../testing/harness.ts";

let server: TestServer;
const adapter = new RecordingAdapter(async (ctx, index) => {
  const writer = ctx.startMessage("answer");
  writer.append(`Answer ${index + 1} to: ${ctx.input.slice(0, 40)}`);
  writer.complete();
});

beforeAll(async () => {
  server = await startTestServer({ adapter, logLevel: "error" });
});

afterAll(async () => {
  await server.close();
  await removeDir(server.dataDir);
});

async function newThread(): Promise<string> {
  const res = await server.post("/api/threads", {});
  return ((await res.json()) as Thread).id;
}

async function send(threadId: string, input: string): Promise<Message> {
  const res = await server.post(`/api/threads/${threadId}/turns`, { input });
  expect(res.status).toBe(201);
  const { message } = (await res.json()) as { message: Message };
  await server.provider.whenIdle();
  return message;
}

async function shown(threadId: string): Promise<Message[]> {
  const page = await server.getJson<MessagePage>(`/api/threads/${threadId}/messages?limit=200`);
  return page.messages;
}

const texts = (messages: Message[]) => messages.map((m) => m.text);

async function edit(threadId: string, messageId: string, input: string) {
  const res = await server.post(`/api/threads/${threadId}/messages/${messageId}/edit`, { input });
  if (res.status !== 201) throw new Error(await res.text());
  const body = (await res.json()) as EditMessageResponse;
  await server.provider.whenIdle();
  return body;
}

async function regenerate(threadId: string, messageId: string) {
  const res = await server.post(`/api/threads/${threadId}/messages/${messageId}/regenerate`, {});
  expect(res.status).toBe(201);
  const body = (await res.json()) as RegenerateResponse;
  await server.provider.whenIdle();
  return body;
}

async function selectVersion(threadId: string, messageId: string, version: number) {
  return server.post(`/api/threads/${threadId}/messages/${messageId}/version`, { version });
}

function citationOf(message: Message, text: string): string {
  const start = message.text.indexOf(text);
  return serializeAssistantCitation({
    version: 1,
    environmentId: server.environmentId,
    threadId: message.threadId,
    messageId: message.id,
    text,
    start,
    end: start + text.length,
    prefix: message.text.slice(Math.max(0, start - 32), start),
    suffix: message.text.slice(start + text.length, start + text.length + 32),
    comment: "kept",
  });
}

describe("edit and resend", () => {
  it("makes a new version of the prompt; later history follows the version shown", async () => {
    const threadId = await newThread();
    const first = await send(threadId, "first question");
    await send(threadId, "second question");
    expect(await shown(threadId)).toHaveLength(4);

    const edited = await edit(threadId, first.id, "first question, better");
    expect(edited.stoppedTurnId).toBeNull();
    expect(edited.message.version).toBe(2);
    expect(edited.message.versions).toBe(2);
    const after = await shown(threadId);
    expect(texts(after)[0]).toBe("first question, better");
    expect(after).toHaveLength(2);
    expect(after[0]).toMatchObject({ version: 2, versions: 2 });
    // The provider saw the edited turn with no history (it is the first turn of its path).
    expect(adapter.turns.at(-1)!.history).toEqual([]);

    // Back to version 1: the old later history is shown again, and stays after a reload.
    const res = await selectVersion(threadId, edited.message.id, 1);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { messageId: string }).messageId).toBe(first.id);
    const back = await shown(threadId);
    expect(texts(back)).toEqual([
      "first question",
      back[1]!.text,
      "second question",
      back[3]!.text,
    ]);
    expect(back[0]).toMatchObject({ version: 1, versions: 2 });
    // And forth again.
    expect((await selectVersion(threadId, first.id, 2)).status).toBe(200);
    expect(texts(await shown(threadId))[0]).toBe("first question, better");
  });

  it("gives the provider exactly its own path's history, citations expanded once", async () => {
    const threadId = await newThread();
    await send(threadId, "one");
    const answerOne = (await shown(threadId))[1]!;
    const link = citationOf(answerOne, "Answer");
    const two = await send(threadId, `two ${link}`);
    await send(threadId, "three");
    await edit(threadId, two.id, `two, edited ${link}`);
    const seen = adapter.turns.at(-1)!;
    expect(seen.history.map((h) => h.role)).toEqual(["user", "assistant"]);
    expect(seen.history[0]!.text).toBe("one");
    expect(seen.input.startsWith("two, edited [assistant-quote-1]")).toBe(true);
    expect(seen.input.match(/<assistant_citations>/g)).toHaveLength(1);
    // The next turn sees the edited path, not "three".
    await send(threadId, "four");
    const next = adapter.turns.at(-1)!;
    expect(next.history.map((h) => h.text)).not.toContain("three");
    expect(next.history.filter((h) => h.role === "user")).toHaveLength(2);
    // The stored prompt keeps its link byte for byte.
    expect((await shown(threadId))[2]!.text).toBe(`two, edited ${link}`);
  });

  it("stops a later turn still running first, and says so", async () => {
    const blocking = new RecordingAdapter();
    const slow = await startTestServer({
      adapter: Object.assign(blocking, {
        runTurn: async (ctx: Parameters<RecordingAdapter["runTurn"]>[0]) => {
          const writer = ctx.startMessage("answer");
          writer.append("partial");
          await new Promise<void>((resolve) =>
            ctx.signal.addEventListener("abort", () => resolve()),
          );
        },
      }),
    });
    try {
      const created = await slow.post("/api/threads", {});
      const id = ((await created.json()) as Thread).id;
      const sent = await slow.post(`/api/threads/${id}/turns`, { input: "long one" });
      const { message, turn } = (await sent.json()) as { message: Message; turn: { id: string } };
      const res = await slow.post(`/api/threads/${id}/messages/${message.id}/edit`, {
        input: "short one",
      });
      expect(res.status).toBe(201);
      const body = (await res.json()) as EditMessageResponse;
      expect(body.stoppedTurnId).toBe(turn.id);
      const old = await slow.provider.cancelTurn(id, turn.id);
      expect(old.status).toBe("cancelled");
      await slow.provider.cancelTurn(id, body.turn.id).catch(() => undefined);
    } finally {
      await slow.close();
      await removeDir(slow.dataDir);
    }
  });
});

describe("regenerate", () => {
  it("streams a new version of the answer; the old keeps its backlinks, the new has none", async () => {
    const threadId = await newThread();
    await send(threadId, "explain");
    const oldAnswer = (await shown(threadId))[1]!;
    const citing = await send(threadId, `about ${citationOf(oldAnswer, "Answer")}`);
    expect(citing.role).toBe("user");
    const before = await shown(threadId);
    expect(before.find((m) => m.id === oldAnswer.id)!.citedBy!.count).toBe(1);

    const { turn } = await regenerate(threadId, oldAnswer.id);
    expect(turn.status).toBe("running");
    const after = await shown(threadId);
    expect(after).toHaveLength(2);
    const fresh = after[1]!;
    expect(fresh.id).not.toBe(oldAnswer.id);
    expect(fresh).toMatchObject({ version: 2, versions: 2, role: "assistant" });
    expect(fresh.citedBy).toEqual({ count: 0, ranges: [] });
    // The regeneration saw the same prompt and no later turn.
    expect(adapter.turns.at(-1)!.input).toBe("explain");
    expect(adapter.turns.at(-1)!.history).toEqual([]);

    // Version 1 is still cited, and shows its later history again.
    expect((await selectVersion(threadId, fresh.id, 1)).status).toBe(200);
    const back = await shown(threadId);
    expect(back.map((m) => m.id)).toContain(citing.id);
    expect(back.find((m) => m.id === oldAnswer.id)!.citedBy!.count).toBe(1);
    const list = await server.getJson<CitedByPage>(
      `/api/threads/${threadId}/messages/${oldAnswer.id}/cited-by`,
    );
    expect(list.citations.map((c) => c.messageId)).toEqual([citing.id]);
  });

  it("publishes thread.path so other views read history again", async () => {
    const threadId = await newThread();
    await send(threadId, "live");
    const answer = (await shown(threadId))[1]!;
    const { lastEventId } = await server.getJson<{ lastEventId: number }>(
      `/api/threads/${threadId}`,
    );
    const events = await collectSse(`${server.url}/api/threads/${threadId}/events`, {
      lastEventId: String(lastEventId),
      onOpen: async () => {
        await regenerate(threadId, answer.id);
      },
      until: (seen) =>
        seen.some((e) => (JSON.parse(e.data) as ServerEvent).type === "turn.updated") &&
        seen.some((e) => (JSON.parse(e.data) as ServerEvent).type === "thread.path"),
    });
    const path = events
      .map((e) => JSON.parse(e.data) as ServerEvent)
      .find((e) => e.type === "thread.path");
    expect(path).toBeDefined();
  });

  it("an around= window of a version not shown asks to show it first; show switches", async () => {
    const threadId = await newThread();
    await send(threadId, "q");
    const old = (await shown(threadId))[1]!;
    await regenerate(threadId, old.id);
    const res = await server.request(`/api/threads/${threadId}/messages?around=${old.id}`);
    expect(res.status).toBe(409);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe(
      "message_not_shown",
    );
    const show = await server.post(`/api/threads/${threadId}/messages/${old.id}/show`, {});
    expect(show.status).toBe(200);
    const page = await server.getJson<MessagePage>(
      `/api/threads/${threadId}/messages?around=${old.id}`,
    );
    expect(page.messages.map((m) => m.id)).toContain(old.id);
  });
});

describe("regenerate streams like any turn", () => {
  it("can be stopped: the turn ends cancelled and its partial version stays shown", async () => {
    let calls = 0;
    const slow = await startTestServer({
      adapter: Object.assign(new RecordingAdapter(), {
        runTurn: async (ctx: Parameters<RecordingAdapter["runTurn"]>[0]) => {
          calls++;
          const writer = ctx.startMessage("answer");
          writer.append(calls === 1 ? "first answer" : "partial again");
          if (calls === 1) {
            writer.complete();
            return;
          }
          await new Promise<void>((resolve) =>
            ctx.signal.addEventListener("abort", () => resolve()),
          );
        },
      }),
    });
    try {
      const id = ((await (await slow.post("/api/threads", {})).json()) as Thread).id;
      await slow.post(`/api/threads/${id}/turns`, { input: "q" });
      await slow.provider.whenIdle();
      const page = await slow.getJson<MessagePage>(`/api/threads/${id}/messages`);
      const answer = page.messages[1]!;
      const res = await slow.post(`/api/threads/${id}/messages/${answer.id}/regenerate`, {});
      const { turn } = (await res.json()) as RegenerateResponse;
      const streaming = await waitFor(async () => {
        const now = await slow.getJson<MessagePage>(`/api/threads/${id}/messages`);
        const fresh = now.messages[1];
        return fresh && fresh.id !== answer.id && fresh.text === "partial again"
          ? fresh
          : undefined;
      });
      expect(streaming).toMatchObject({ version: 2, versions: 2 });
      const cancelled = await slow.post(`/api/threads/${id}/turns/${turn.id}/cancel`, {});
      expect(((await cancelled.json()) as { turn: { status: string } }).turn.status).toBe(
        "cancelled",
      );
      const after = await slow.getJson<MessagePage>(`/api/threads/${id}/messages`);
      expect(after.messages.map((m) => m.text)).toEqual(["q", "partial again"]);
      expect(after.turns.find((t) => t.id === turn.id)?.status).toBe("cancelled");
    } finally {
      await slow.close();
      await removeDir(slow.dataDir);
    }
  });
});

describe("search and export follow the path shown", () => {
  it("finds only shown versions", async () => {
    const threadId = await newThread();
    const prompt = await send(threadId, "zebra crossing");
    await edit(threadId, prompt.id, "giraffe crossing");
    const search = (q: string) =>
      server.getJson<ThreadSearchResponse>(
        `/api/threads/${threadId}/search?q=${encodeURIComponent(q)}`,
      );
    expect((await search("zebra")).matches).toHaveLength(0);
    const giraffe = (await search("giraffe")).matches.filter((m) => m.role === "user");
    expect(giraffe).toHaveLength(1);
    // Search all threads (issue 31) follows the path shown too.
    const all = await server.getJson<AllThreadsSearchResponse>(
      `/api/search?q=${encodeURIComponent("crossing")}`,
    );
    const here = all.groups.find((group) => group.thread.id === threadId)!;
    const userHits = here.matches.filter((m) => m.role === "user");
    expect(userHits).toHaveLength(1);
    expect(
      (await server.getJson<AllThreadsSearchResponse>("/api/search?q=zebra")).groups.some((g) =>
        g.matches.some((m) => m.role === "user"),
      ),
    ).toBe(false);
    const exported = await (await server.request(`/api/threads/${threadId}/export.md`)).text();
    expect(exported).toContain("giraffe crossing");
    // The title keeps the first prompt's words; the message shown is the edited one.
    expect(exported.split("zebra crossing")).toHaveLength(2);
  });
});

describe("branch", () => {
  it("copies the path up to the message into a new thread, with copy links", async () => {
    const threadId = await newThread();
    await send(threadId, "alpha");
    const answerOne = (await shown(threadId))[1]!;
    const citing = await send(threadId, `beta ${citationOf(answerOne, "Answer")}`);
    await send(threadId, "gamma");
    const res = await server.post(`/api/threads/${threadId}/branch`, { messageId: citing.id });
    expect(res.status).toBe(201);
    const { thread } = (await res.json()) as BranchResponse;
    expect(thread.title.endsWith(" (branch)")).toBe(true);
    const copied = await shown(thread.id);
    expect(texts(copied)).toEqual(["alpha", answerOne.text, citing.text]);
    expect(copied.every((m) => m.threadId === thread.id)).toBe(true);
    // Links stay byte-identical; the chip's source has a copy in the branch.
    const copy = await server.getJson<{ messageId: string }>(
      `/api/threads/${thread.id}/copies/${answerOne.id}`,
    );
    expect(copy.messageId).toBe(copied[1]!.id);
    const missing = await server.request(`/api/threads/${thread.id}/copies/nope`);
    expect(missing.status).toBe(404);
    // Search works in the branch; the copy cites the same source (backlinks count it).
    // SQLite indexes a branch's copies in the background, right after the copy.
    const found = await waitFor(async () => {
      const page = await server.getJson<ThreadSearchResponse>(
        `/api/threads/${thread.id}/search?q=beta`,
      );
      return page.matches.length > 0 ? page : undefined;
    });
    expect(found.matches.map((m) => m.messageId)).toEqual([copied[2]!.id]);
    const list = await server.getJson<CitedByPage>(
      `/api/threads/${threadId}/messages/${answerOne.id}/cited-by`,
    );
    expect(list.citations.map((c) => c.messageId).sort()).toEqual(
      [citing.id, copied[2]!.id].sort(),
    );
    // A new turn in the branch sees the branch's history.
    await send(thread.id, "delta");
    expect(adapter.turns.at(-1)!.history.map((h) => h.text)).toContain("alpha");
    // A branch of the branch still finds the first source.
    const again = await server.post(`/api/threads/${thread.id}/branch`, {
      messageId: copied[1]!.id,
    });
    const second = ((await again.json()) as BranchResponse).thread;
    const deep = await server.getJson<{ messageId: string }>(
      `/api/threads/${second.id}/copies/${answerOne.id}`,
    );
    expect((await shown(second.id)).map((m) => m.id)).toContain(deep.messageId);
  });

  it("a fault in the middle of the copy leaves nothing written", async () => {
    const threadId = await newThread();
    const prompt = await send(threadId, "to copy");
    const before = await server.getJson<{ threads: Thread[] }>("/api/threads");
    const undo = await failCopyLinks();
    try {
      const res = await server.post(`/api/threads/${threadId}/branch`, { messageId: prompt.id });
      expect(res.status).toBeGreaterThanOrEqual(500);
    } finally {
      await undo();
    }
    const after = await server.getJson<{ threads: Thread[] }>("/api/threads");
    expect(after.threads.map((t) => t.id).sort()).toEqual(before.threads.map((t) => t.id).sort());
    const ok = await server.post(`/api/threads/${threadId}/branch`, { messageId: prompt.id });
    expect(ok.status).toBe(201);
  });
});

describe("bad requests", () => {
  it("answers a clear 4xx", async () => {
    const threadId = await newThread();
    const prompt = await send(threadId, "x");
    const answer = (await shown(threadId))[1]!;
    const other = await newThread();
    const otherPrompt = await send(other, "y");
    const code = async (res: Response) => [
      res.status,
      ((await res.json()) as { error: { code: string } }).error.code,
    ];
    expect(
      await code(await server.post(`/api/threads/${threadId}/messages/nope/edit`, { input: "a" })),
    ).toEqual([404, "message_not_found"]);
    expect(await code(await selectVersion(threadId, prompt.id, 2))).toEqual([
      400,
      "version_out_of_range",
    ]);
    expect(await code(await selectVersion(threadId, prompt.id, 0))).toEqual([
      400,
      "version_out_of_range",
    ]);
    expect(
      await code(
        await server.post(`/api/threads/${threadId}/messages/${answer.id}/edit`, { input: "a" }),
      ),
    ).toEqual([400, "not_editable"]);
    expect(
      await code(
        await server.post(`/api/threads/${threadId}/messages/${prompt.id}/regenerate`, {}),
      ),
    ).toEqual([400, "not_editable"]);
    expect(
      await code(
        await server.post(`/api/threads/${threadId}/branch`, { messageId: otherPrompt.id }),
      ),
    ).toEqual([400, "message_of_other_thread"]);
    expect(
      await code(await server.post(`/api/threads/${threadId}/branch`, { messageId: "nope" })),
    ).toEqual([404, "message_not_found"]);
    expect(
      await code(await server.post(`/api/threads/nope/branch`, { messageId: prompt.id })),
    ).toEqual([404, "thread_not_found"]);
    expect(
      await code(
        await server.post(`/api/threads/${threadId}/messages/${prompt.id}/edit`, { input: "  " }),
      ),
    ).toEqual([400, "empty_input"]);
  });

  it("keeps every new write behind the JSON and Origin checks", async () => {
    const threadId = await newThread();
    const prompt = await send(threadId, "x");
    const paths = [
      `/api/threads/${threadId}/messages/${prompt.id}/edit`,
      `/api/threads/${threadId}/messages/${prompt.id}/version`,
      `/api/threads/${threadId}/branch`,
    ];
    for (const path of paths) {
      const plain = await server.request(path, { method: "POST", body: "{}" });
      expect(plain.status).toBe(415);
      const foreign = await server.post(path, {}, { origin: "https://evil.example" });
      expect(foreign.status).toBe(403);
    }
  });
});

/** Makes the branch copy fail after its thread, turns and messages are written. */
async function failCopyLinks(): Promise<() => Promise<void>> {
  if (testStoreKind === "sqlite") {
    const db = new Database(`${server.dataDir}/chat.sqlite`);
    db.exec(`CREATE TRIGGER fail_copy BEFORE INSERT ON message_copies
      BEGIN SELECT RAISE(ABORT, 'injected fault'); END`);
    return async () => {
      db.exec("DROP TRIGGER fail_copy");
      db.close();
    };
  }
  const client = new pg.Client({ connectionString: (await testDatabaseUrl(server.dataDir))! });
  await client.connect();
  await client.query(`CREATE FUNCTION fail_copy() RETURNS trigger LANGUAGE plpgsql AS
    $$ BEGIN RAISE EXCEPTION 'injected fault'; END $$`);
  await client.query(
    "CREATE TRIGGER fail_copy BEFORE INSERT ON message_copies FOR EACH ROW EXECUTE FUNCTION fail_copy()",
  );
  return async () => {
    await client.query("DROP TRIGGER fail_copy ON message_copies");
    await client.query("DROP FUNCTION fail_copy()");
    await client.end();
  };
}
