import type { Message, MessagePage } from "@app/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedDemoThread, seededMessageCount } from "../seed.ts";
import {
  makeTempDir,
  openTestStore,
  RecordingAdapter,
  removeDir,
  startTestServer,
  type TestServer,
} from "../testing/harness.ts";

const TURNS = 110;
const TOTAL = seededMessageCount(TURNS);
let server: TestServer;
let threadId: string;
let otherThreadId: string;

beforeAll(async () => {
  const dataDir = await makeTempDir();
  const store = await openTestStore(dataDir);
  threadId = await seedDemoThread(store, { turns: TURNS });
  otherThreadId = await seedDemoThread(store, { turns: 2 });
  await store.close();
  server = await startTestServer({ adapter: new RecordingAdapter(), dataDir });
});

afterAll(async () => {
  await server.close();
  await removeDir(server.dataDir);
});

const page = (query: string) =>
  server.getJson<MessagePage>(`/api/threads/${threadId}/messages${query}`);
const seqs = (messages: Message[]) => messages.map((m) => m.seq);
const range = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, i) => from + i);

describe("history pages", () => {
  it("serves the newest page by default, oldest first, with a cursor to older messages", async () => {
    const newest = await page("");
    expect(newest.messages).toHaveLength(50);
    expect(seqs(newest.messages)).toEqual(range(TOTAL - 49, TOTAL));
    expect(newest.nextCursor).not.toBeNull();
    expect(newest.newerCursor).toBeNull();
  });

  it("walks back to the start of the thread without gaps or repeats, ending with nextCursor null", async () => {
    const seen: number[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const current: MessagePage = await page(`?limit=37${cursor ? `&before=${cursor}` : ""}`);
      seen.unshift(...seqs(current.messages));
      cursor = current.nextCursor;
      pages++;
    } while (cursor !== null);
    expect(seen).toEqual(range(1, TOTAL));
    expect(pages).toBe(Math.ceil(TOTAL / 37));
    const start = await page("?before=1");
    expect(start).toMatchObject({ messages: [], nextCursor: null, newerCursor: null, turns: [] });
  });

  it("includes exactly the turns of the returned messages", async () => {
    const current = await page("?limit=9");
    const turnIds = [...new Set(current.messages.map((m) => m.turnId))];
    expect(current.turns.map((t) => t.id)).toEqual(turnIds);
    expect(current.turns.every((t) => t.status === "completed")).toBe(true);
  });

  it("clamps the limit at 200", async () => {
    expect((await page("?limit=100000")).messages).toHaveLength(200);
    expect((await page("?limit=1")).messages).toHaveLength(1);
  });

  it("fetches newer messages with after=<cursor>", async () => {
    const next = await page("?after=5&limit=5");
    expect(seqs(next.messages)).toEqual(range(6, 10));
    expect(next.newerCursor).toBe("10");
    expect(next.nextCursor).toBe("6");
    const end = await page(`?after=${TOTAL - 2}&limit=5`);
    expect(seqs(end.messages)).toEqual([TOTAL - 1, TOTAL]);
    expect(end.newerCursor).toBeNull();
    expect((await page(`?after=${TOTAL}`)).messages).toEqual([]);
  });
});

describe("around windows", () => {
  async function idOfSeq(seq: number): Promise<string> {
    const p = await page(`?after=${seq - 1}&limit=1`);
    return p.messages[0]!.id;
  }

  it("centres the window on the message", async () => {
    const id = await idOfSeq(100);
    const window = await page(`?around=${id}&limit=5`);
    expect(seqs(window.messages)).toEqual([98, 99, 100, 101, 102]);
    expect(window.nextCursor).toBe("98");
    expect(window.newerCursor).toBe("102");
    const even = await page(`?around=${id}&limit=4`);
    expect(seqs(even.messages)).toEqual([99, 100, 101, 102]);
  });

  it("fills the window from the other side at the start and the end of the thread", async () => {
    const first = await page(`?around=${await idOfSeq(1)}&limit=5`);
    expect(seqs(first.messages)).toEqual(range(1, 5));
    expect(first.nextCursor).toBeNull();
    expect(first.newerCursor).toBe("5");
    const second = await page(`?around=${await idOfSeq(2)}&limit=5`);
    expect(seqs(second.messages)).toEqual(range(1, 5));

    const last = await page(`?around=${await idOfSeq(TOTAL)}&limit=5`);
    expect(seqs(last.messages)).toEqual(range(TOTAL - 4, TOTAL));
    expect(last.newerCursor).toBeNull();
    expect(last.nextCursor).toBe(String(TOTAL - 4));
  });

  it("continues seamlessly from a window in both directions", async () => {
    const window = await page(`?around=${await idOfSeq(60)}&limit=3`);
    const older = await page(`?before=${window.nextCursor}&limit=3`);
    const newer = await page(`?after=${window.newerCursor}&limit=3`);
    expect([...seqs(older.messages), ...seqs(window.messages), ...seqs(newer.messages)]).toEqual(
      range(56, 64),
    );
  });

  it("rejects an unknown id or a message of another thread with 404", async () => {
    const res = await server.request(`/api/threads/${threadId}/messages?around=nope`);
    expect(res.status).toBe(404);
    const foreign = await server.getJson<MessagePage>(`/api/threads/${otherThreadId}/messages`);
    const other = await server.request(
      `/api/threads/${threadId}/messages?around=${foreign.messages[0]!.id}`,
    );
    expect(other.status).toBe(404);
    expect(((await other.json()) as { error: { code: string } }).error.code).toBe(
      "message_not_found",
    );
  });
});

describe("seeded content", () => {
  it("folds progress messages into turns and cites earlier answers by their real ids", async () => {
    const all: Message[] = [];
    let cursor: string | null = null;
    do {
      const current: MessagePage = await page(`?limit=200${cursor ? `&before=${cursor}` : ""}`);
      all.unshift(...current.messages);
      cursor = current.nextCursor;
    } while (cursor !== null);
    expect(all.filter((m) => m.kind === "progress")).toHaveLength(
      seededMessageCount(TURNS) - TURNS * 2,
    );
    const citing = all.find((m) => m.kind === "prompt" && m.text.includes("t3-citation://v1/"))!;
    expect(citing.text).toContain(`/${server.environmentId}/${threadId}/`);
    const citedId = all.filter((m) => m.kind === "answer")[4]!.id; // turn 25 cites turn 5
    expect(citing.text).toContain(citedId);
  });
});
