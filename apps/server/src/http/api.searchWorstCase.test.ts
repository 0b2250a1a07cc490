/**
 * The worst case of find-in-thread (issue 29): prompts of 120,000 × "x" and queries of 200 × "x"
 * (on SQLite one such query used to hold the event loop for seconds: FTS5 evaluated a phrase of
 * 198 identical trigrams against every position of every such row). While four clients send
 * such searches, `GET /api/environment` keeps being answered, and the searches still find every
 * message. On SQLite and, in `server-pg`, on PostgreSQL.
 */
import { type Thread, ThreadSearchResponseSchema } from "@app/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { searchThread } from "../domain/threadSearch.ts";
import {
  openTestStore,
  RecordingAdapter,
  removeDir,
  startTestServer,
  type TestServer,
} from "../testing/harness.ts";

const PROMPTS = 10;
const LONG = "x".repeat(120_000);
const WORST = "x".repeat(200);
let server: TestServer;
let seeded: Thread;
let other: Thread;

/** Every page of a search: the ids of the messages that match. */
async function search(threadId: string, q: string): Promise<{ matches: string[] }> {
  const matches: string[] = [];
  let cursor: string | null = null;
  do {
    const after: string = cursor === null ? "" : `&cursor=${cursor}`;
    const res = await server.request(
      `/api/threads/${threadId}/search?q=${encodeURIComponent(q)}&limit=1000${after}`,
    );
    expect(res.status).toBe(200);
    const page = ThreadSearchResponseSchema.parse(await res.json());
    matches.push(...page.matches.map((m) => m.messageId));
    cursor = page.nextCursor;
  } while (cursor !== null);
  return { matches };
}

beforeAll(async () => {
  server = await startTestServer({ adapter: new RecordingAdapter() });
  seeded = (await (await server.post("/api/threads", {})).json()) as Thread;
  other = (await (await server.post("/api/threads", {})).json()) as Thread;
  for (let i = 0; i < PROMPTS; i++) {
    const res = await server.post(`/api/threads/${seeded.id}/turns`, { input: LONG });
    expect(res.status).toBe(201);
  }
  await server.post(`/api/threads/${other.id}/turns`, { input: "nothing to see" });
  await server.provider.whenIdle();
  // Long prompts are indexed in the background, by a worker below the event loop's priority
  // (on a busy machine it waits for a core): await the indexer's own idle signal, not a poll
  // whose every worst-case search would compete with it for that core.
  await server.searchIndexIdle();
  expect((await search(seeded.id, "xxx")).matches).toHaveLength(PROMPTS);
}, 120_000);

afterAll(async () => {
  await server?.close();
  if (server) await removeDir(server.dataDir);
});

describe("worst-case searches", () => {
  it("find every long run, in its own thread only", async () => {
    const found = await search(seeded.id, WORST);
    expect(found.matches).toHaveLength(PROMPTS);
    expect((await search(other.id, WORST)).matches).toEqual([]);
  });

  it("leave the server answering other requests while four clients send them", async () => {
    const ROUNDS = 4;
    let searching = 4;
    let answeredDuringSearches = 0;
    const searchers = Array.from({ length: 4 }, async (_, c) => {
      try {
        for (let round = 0; round < ROUNDS; round++) {
          const threadId = (c + round) % 2 === 0 ? seeded.id : other.id;
          const result = await search(threadId, WORST);
          expect(result.matches).toHaveLength(threadId === seeded.id ? PROMPTS : 0);
        }
      } finally {
        searching--;
      }
    });
    // Environment requests, one after another, while the searches run.
    const statuses: number[] = [];
    while (searching > 0) {
      const res = await server.request("/api/environment");
      statuses.push(res.status);
      await res.arrayBuffer();
      if (searching > 0) answeredDuringSearches++;
    }
    await Promise.all(searchers);
    expect(statuses.every((status) => status === 200)).toBe(true);
    // Every search answered, and the environment was answered in between, not after them all.
    expect(answeredDuringSearches).toBeGreaterThan(0);
  }, 60_000);

  it("check a bounded amount of text per page: a page that finds nothing ends at the budget", async () => {
    const store = await openTestStore(server.dataDir);
    try {
      const found: string[] = [];
      let cursor: string | undefined;
      let pages = 0;
      do {
        // Every message is a candidate (it holds "xxx") and none matches (no whole word).
        const page = await searchThread(store, seeded.id, {
          query: "xxx",
          caseSensitive: false,
          wholeWord: true,
          scanBudgetChars: 250_000,
          cursor,
        });
        pages++;
        found.push(...page.matches.map((m) => m.messageId));
        cursor = page.nextCursor ?? undefined;
      } while (cursor !== undefined);
      expect(found).toEqual([]);
      // 250,000 characters: at most three messages of 120,000 per page (the one that crosses
      // the budget is the page's last), so ten take four pages.
      expect(pages).toBe(4);
    } finally {
      await store.close();
    }
  });
});
