/**
 * Find in thread (issue 23) over real HTTP, on SQLite and (server-pg) PostgreSQL: substrings,
 * half words, `p50`/`useThread`, case and whole words, CJK, emoji and combining marks, ranges
 * that slice the message's rendered text (code, tables, links, emphasis, chips), 1,000 matches
 * paged by cursor in thread order, a streaming reply found only once it completes, and the
 * refusals (bad query 400, unknown thread 404).
 */
import { serializeAssistantCitation } from "@app/citations";
import { renderedTextOfMarkdown } from "@app/markdown";
import {
  type Message,
  type MessagePage,
  type ThreadSearchResponse,
  ThreadSearchResponseSchema,
} from "@app/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { searchTextOf } from "../storage/searchText.ts";
import {
  makeTempDir,
  openTestStore,
  RecordingAdapter,
  removeDir,
  startTestServer,
  type TestServer,
  waitFor,
} from "../testing/harness.ts";

const CHIP = serializeAssistantCitation({
  version: 1,
  environmentId: "env",
  threadId: "t",
  messageId: "m",
  text: "the cited   words",
  start: 0,
  end: 17,
  prefix: "",
  suffix: "",
});

/** The conversation searched below: [user, assistant] turns. */
const TURNS: [string, string][] = [
  [
    "How do I read a thread with `useThread`?",
    "Call **useThread** like this:\n\n```ts\nconst thread = useThread(id);\n```\n\n| metric | value |\n|---|---|\n| p50 | 12 ms |\n| p99 | 40 ms |\n\nSee [the useThread docs](https://example.com/useThread).",
  ],
  [
    `Compare ${CHIP} with @src/thread.ts please`,
    "Threads: THREAD, thread_id, threads and a thread.",
  ],
  ["数据库 means database 🙂🙂 ok", "Café and cafe\u0301 and cafe."],
];

let server: TestServer;
let threadId: string;
let bigThreadId: string;
let otherThreadId: string;
const BIG_TURNS = 500;

let release: () => void = () => {};
const adapter = new RecordingAdapter(async (ctx) => {
  const writer = ctx.startMessage("answer");
  writer.append("The zebrafish answer is still ");
  await new Promise<void>((resolve) => {
    release = resolve;
  });
  writer.append("streaming, and now done.");
  writer.complete();
});

beforeAll(async () => {
  const dataDir = await makeTempDir("chat-search-");
  const store = await openTestStore(dataDir);
  const now = "2026-01-01T00:00:00.000Z";
  threadId = "search-thread";
  bigThreadId = "search-big";
  otherThreadId = "search-other";
  await store.transaction(async (tx) => {
    for (const id of [threadId, bigThreadId, otherThreadId]) {
      await tx.createThread({ id, title: `Search ${id}`, now });
    }
    const turn = async (thread: string, n: number, user: string, answer: string) => {
      const turnId = `${thread}-turn-${n}`;
      await tx.insertTurnWithPrompt({
        threadId: thread,
        turnId,
        messageId: `${thread}-u${n}`,
        text: user,
        providerInput: user,
        now,
      });
      await tx.insertAssistantMessage({
        id: `${thread}-a${n}`,
        threadId: thread,
        turnId,
        kind: "answer",
        text: answer,
        status: "complete",
        now,
      });
      await tx.updateTurn({ id: turnId, status: "completed", completedAt: now });
    };
    for (const [n, [user, answer]] of TURNS.entries()) await turn(threadId, n, user, answer);
    // The big thread goes in as the seed writes (`appendFinishedTurns`: the rows and index of
    // the writes above, held to them by `seed.bulk.test.ts`), fifty turns at a time.
    const finished = (thread: string, n: number, user: string, answer: string) => {
      const message = (id: string, text: string, role: "user" | "assistant") => ({
        id,
        text,
        searchText: searchTextOf(role, text),
        now,
      });
      return {
        turnId: `${thread}-turn-${n}`,
        prompt: { ...message(`${thread}-u${n}`, user, "user"), providerInput: user },
        replies: [{ ...message(`${thread}-a${n}`, answer, "assistant"), kind: "answer" as const }],
        citations: [],
      };
    };
    for (let n = 0; n < BIG_TURNS; n += 50) {
      // Another thread's matches interleave with the big thread's in the index.
      await turn(otherThreadId, n, "needle elsewhere", "needle too");
      await tx.appendFinishedTurns(
        bigThreadId,
        Array.from({ length: 50 }, (_, i) =>
          finished(
            bigThreadId,
            n + i,
            `needle ${n + i}`,
            `Answer ${n + i} has one *needle* in it.`,
          ),
        ),
      );
    }
  });
  await store.close();
  server = await startTestServer({ adapter, dataDir });
});

afterAll(async () => {
  release();
  await server.close();
  await removeDir(server.dataDir);
});

function searchUrl(thread: string, q: string, params: Record<string, string> = {}): string {
  const query = new URLSearchParams({ q, ...params });
  return `/api/threads/${thread}/search?${query}`;
}

async function search(
  q: string,
  params: Record<string, string> = {},
  thread = threadId,
): Promise<ThreadSearchResponse> {
  return ThreadSearchResponseSchema.parse(await server.getJson(searchUrl(thread, q, params)));
}

async function messagesOf(thread: string): Promise<Map<string, Message>> {
  const page = await server.getJson<MessagePage>(`/api/threads/${thread}/messages?limit=200`);
  return new Map(page.messages.map((m) => [m.id, m]));
}

/** Each match as the words its ranges cover in the message's rendered text. */
async function found(q: string, params: Record<string, string> = {}): Promise<string[][]> {
  const [result, messages] = await Promise.all([search(q, params), messagesOf(threadId)]);
  return result.matches.map((match) => {
    const message = messages.get(match.messageId)!;
    expect(match.role).toBe(message.role);
    const text = renderedTextOfMarkdown(message.text, message.role);
    return match.ranges.map(([start, end]) => text.slice(start, end));
  });
}

describe("GET /api/threads/:threadId/search", () => {
  it("finds substrings and half words as shown, in code, tables, links and emphasis", async () => {
    const result = await search("useThread");
    expect(result.nextCursor).toBeNull();
    expect(result.matches.map((m) => m.messageId)).toEqual([`${threadId}-u0`, `${threadId}-a0`]);
    // The assistant's: bold, code block, link label (its URL is not shown, so not found).
    expect(result.matches[1]!.ranges).toHaveLength(3);
    expect(await found("p50")).toEqual([["p50"]]);
    expect(await found("p50\t12")).toEqual([["p50\t12"]]);
    expect(await found("Thre")).toEqual([
      ["thre", "Thre"],
      ["Thre", "thre", "Thre", "Thre"],
      ["thre"],
      ["Thre", "THRE", "thre", "thre", "thre"],
    ]);
    expect(await found("**")).toEqual([]);
    expect(await found("example.com")).toEqual([]);
  });

  it("finds a chip's label in a user message, never its link", async () => {
    expect(await found("cited words")).toEqual([["cited words"]]);
    expect(await found("t3-citation")).toEqual([]);
    expect(await found("@src/thread")).toEqual([["@src/thread"]]);
  });

  it("matches case only with case=1, and whole words only with word=1", async () => {
    expect(await found("thread", { case: "1" })).toEqual([
      ["thread"],
      ["thread"],
      ["thread"],
      ["thread", "thread", "thread"],
    ]);
    expect(await found("THREAD", { case: "1" })).toEqual([["THREAD"]]);
    // Not in useThread, threads or thread_id; "@src/thread.ts" and "THREAD," are whole words.
    expect(await found("thread", { word: "1" })).toEqual([
      ["thread"],
      ["thread"],
      ["thread"],
      ["THREAD", "thread"],
    ]);
    expect(await found("thread", { word: "1", case: "1" })).toEqual([
      ["thread"],
      ["thread"],
      ["thread"],
      ["thread"],
    ]);
  });

  it("finds CJK, emoji and combining marks by UTF-16 offsets", async () => {
    expect(await found("数据")).toEqual([["数据"]]);
    expect(await found("数据库 means")).toEqual([["数据库 means"]]);
    const emoji = await search("🙂");
    // "数据库 means database " is 19 UTF-16 units; each emoji is a surrogate pair.
    expect(emoji.matches[0]!.ranges).toEqual([
      [19, 21],
      [21, 23],
    ]);
    expect(await found("🙂🙂 ok")).toEqual([["🙂🙂 ok"]]);
    expect(await found("cafe")).toEqual([["cafe", "cafe"]]);
    expect(await found("cafe", { word: "1" })).toEqual([["cafe"]]);
    expect(await found("cafe\u0301")).toEqual([["cafe\u0301"]]);
    expect(await found("CAFÉ")).toEqual([["Café"]]);
    expect(await found("e\u0301")).toEqual([["e\u0301"]]);
  });

  it("pages 1,000 matches by cursor, in thread order, each message once", async () => {
    const ids: string[] = [];
    let ranges = 0;
    let cursor: string | null = null;
    let pages = 0;
    do {
      const params: Record<string, string> = { limit: "150" };
      if (cursor !== null) params.cursor = cursor;
      const page = await search("needle", params, bigThreadId);
      pages++;
      const pageRanges = page.matches.reduce((n, m) => n + m.ranges.length, 0);
      expect(pageRanges).toBeGreaterThanOrEqual(1);
      expect(pageRanges).toBeLessThanOrEqual(150);
      ids.push(...page.matches.map((m) => m.messageId));
      ranges += pageRanges;
      cursor = page.nextCursor;
    } while (cursor !== null);
    expect(ranges).toBe(BIG_TURNS * 2);
    expect(pages).toBe(Math.ceil((BIG_TURNS * 2) / 150));
    const expected = Array.from({ length: BIG_TURNS }, (_, n) => [
      `${bigThreadId}-u${n}`,
      `${bigThreadId}-a${n}`,
    ]).flat();
    expect(ids).toEqual(expected);
    // The default page holds 200 ranges; the largest, 1,000 (limit is capped there).
    expect((await search("needle", {}, bigThreadId)).matches).toHaveLength(200);
    const whole = await search("needle", { limit: "5000" }, bigThreadId);
    expect(whole.matches).toHaveLength(1000);
    expect(whole.nextCursor).toBeNull();
    // Two-character queries page the same way (a scan instead of the trigram index).
    const short = await search("ee", { limit: "1000" }, bigThreadId);
    expect(short.matches.map((m) => m.messageId)).toEqual(expected);
  });

  it("finds a streaming reply only once it has completed", async () => {
    const sent = await server.post(`/api/threads/${threadId}/turns`, { input: "Tell me" });
    expect(sent.status).toBe(201);
    // The first chunk is stored (a delta row) and the message is still streaming.
    await waitFor(async () => {
      const page = await server.getJson<MessagePage>(`/api/threads/${threadId}/messages`);
      const last = page.messages.at(-1)!;
      return last.role === "assistant" && last.status === "streaming" && last.text !== ""
        ? true
        : undefined;
    });
    expect((await search("zebrafish")).matches).toEqual([]);
    release();
    await waitFor(async () =>
      (await search("zebrafish")).matches.length === 1 ? true : undefined,
    );
    expect(await found("zebrafish answer is still streaming")).toEqual([
      ["zebrafish answer is still streaming"],
    ]);
  });

  it("refuses a bad query (400 invalid_query) and an unknown thread (404)", async () => {
    const bad = [
      `/api/threads/${threadId}/search`,
      `/api/threads/${threadId}/search?q=`,
      `/api/threads/${threadId}/search?q=${"x".repeat(201)}`,
      `/api/threads/${threadId}/search?q=a%00b`,
      `/api/threads/${threadId}/search?q=%ED%A0%80`,
      `/api/threads/${threadId}/search?q=%E0%A4`,
    ];
    for (const path of bad) {
      const res = await server.request(path);
      expect(res.status, path).toBe(400);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe("invalid_query");
    }
    expect((await search("x".repeat(200))).matches).toEqual([]);
    const cursor = await server.request(searchUrl(threadId, "thread", { cursor: "abc" }));
    expect(cursor.status).toBe(400);
    const flag = await server.request(searchUrl(threadId, "thread", { case: "yes" }));
    expect(flag.status).toBe(400);
    const missing = await server.request(searchUrl("no-such-thread", "thread"));
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { error: { code: string } }).error.code).toBe(
      "thread_not_found",
    );
  });
});
