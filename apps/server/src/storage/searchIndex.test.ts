/**
 * The find-in-thread index (issue 23) on the store under test (SQLite here, PostgreSQL in
 * server-pg): the backfill migration indexes a database from before the index exactly as new
 * messages are indexed, results follow thread order even when a queued prompt is indexed before
 * the reply above it, a reply is indexed with whatever text it ended with, and a streaming one
 * is not indexed at all.
 */
import { join } from "node:path";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { SLICE_CHARS, searchThread } from "../domain/threadSearch.ts";
import { seedDemoThread } from "../seed.ts";
import {
  makeTempDir,
  openTestStore,
  removeDir,
  testDatabaseUrl,
  testStoreKind,
} from "../testing/harness.ts";
import {
  PG_UNDO_LATER_MIGRATIONS,
  SQLITE_UNDO_LATER_MIGRATIONS,
} from "../testing/schemaRollback.ts";
import { storeTurnWithStreamingReply } from "../testing/streamingTurn.ts";
import type { ChatStore } from "./chatStore.ts";
import { openDatabase } from "./db.ts";

const QUERIES: [string, { caseSensitive?: boolean; wholeWord?: boolean }][] = [
  ["p50", {}],
  ["short version", {}],
  ["Step", { caseSensitive: true }],
  ["index", { wholeWord: true }],
  ["ms", {}],
  ["turn1", {}],
];

async function snapshot(store: ChatStore, threadId: string) {
  const results: Record<string, unknown> = {};
  for (const [query, options] of QUERIES) {
    const { matches } = await searchThread(store, threadId, {
      query,
      caseSensitive: options.caseSensitive ?? false,
      wholeWord: options.wholeWord ?? false,
      limit: 1000,
    });
    results[query] = matches;
  }
  return results;
}

// The search-text worker renders below the event loop's priority (nice 10): on a machine busy
// with other work (CI runs the browser suite beside this one) it waits for a core, so these
// tests wait for the index longer than the default 20 s. Nothing here is timed.
describe("the find-in-thread index", { timeout: 90_000 }, () => {
  it("is backfilled for a database from before it exactly as new messages are indexed", async () => {
    const dir = await makeTempDir("chat-search-backfill-");
    try {
      let store = await openTestStore(dir);
      const threadId = await seedDemoThread(store, { turns: 40 });
      // A reply left streaming: not searchable before or after the backfill.
      await store.transaction(async (tx) => {
        const turnId = "streaming-turn";
        await tx.insertTurnWithPrompt({
          threadId,
          turnId,
          messageId: "streaming-prompt",
          text: "last prompt",
          providerInput: "last prompt",
          now: "2026-02-01T00:00:00.000Z",
        });
        await tx.insertAssistantMessage({
          id: "streaming-reply",
          threadId,
          turnId,
          kind: "answer",
          text: "p50 in a reply still streaming",
          status: "streaming",
          now: "2026-02-01T00:00:01.000Z",
        });
      });
      const expected = await snapshot(store, threadId);
      const p50 = expected.p50 as { messageId: string }[];
      expect(p50).toHaveLength(40);
      expect(p50.map((m) => m.messageId)).not.toContain("streaming-reply");
      // Two characters: the thread is scanned instead of the trigram index.
      expect((expected.ms as unknown[]).length).toBeGreaterThanOrEqual(40);
      await store.close();
      // Back to the schema before the index, with the same messages.
      if (testStoreKind === "sqlite") {
        const db = openDatabase(join(dir, "chat.sqlite"));
        db.exec(
          "DROP TABLE search_pending; DROP TABLE message_search; DROP TABLE message_search_fts; PRAGMA user_version = 5;",
        );
        db.exec(SQLITE_UNDO_LATER_MIGRATIONS);
        db.close();
      } else {
        const client = new pg.Client({ connectionString: (await testDatabaseUrl(dir))! });
        await client.connect();
        await client.query("DROP TABLE search_pending; DROP TABLE message_search");
        await client.query(PG_UNDO_LATER_MIGRATIONS);
        await client.query("DELETE FROM schema_migrations WHERE version >= 3");
        await client.end();
      }
      store = await openTestStore(dir);
      expect(await snapshot(store, threadId)).toEqual(expected);
      // The reply that was streaming is found once it finishes.
      await store.transaction((tx) =>
        tx.finishMessage("streaming-reply", "p50 at last", "complete"),
      );
      const after = await snapshot(store, threadId);
      expect((after.p50 as { messageId: string }[]).at(-1)?.messageId).toBe("streaming-reply");
      await store.close();
    } finally {
      await removeDir(dir);
    }
  });

  it("keeps thread order when a queued prompt is indexed before the reply above it, and indexes a stopped reply's text", async () => {
    const dir = await makeTempDir("chat-search-order-");
    const store = await openTestStore(dir);
    try {
      const now = "2026-01-01T00:00:00.000Z";
      await store.transaction(async (tx) => {
        await tx.createThread({ id: "t", title: null, now });
        await storeTurnWithStreamingReply(tx, {
          threadId: "t",
          turnId: "turn-1",
          promptId: "u1",
          prompt: "first **kiwi** question",
          providerInput: "first",
          replyId: "a1",
          now,
        });
        // Sent while the reply above streams: stored (and indexed) at once.
        await tx.insertTurnWithPrompt({
          threadId: "t",
          turnId: "turn-2",
          messageId: "u2",
          text: "queued kiwi question",
          providerInput: "queued",
          now,
        });
      });
      const kiwi = async () =>
        (await searchThread(store, "t", { query: "kiwi", caseSensitive: false, wholeWord: false }))
          .matches;
      expect((await kiwi()).map((m) => m.messageId)).toEqual(["u1", "u2"]);
      // The reply is stopped (cancelled, failed: an error status) with its partial text.
      await store.transaction((tx) => tx.finishMessage("a1", "A partial `kiwi` rep", "error"));
      const matches = await kiwi();
      expect(matches.map((m) => [m.messageId, m.role, m.ranges])).toEqual([
        ["u1", "user", [[6, 10]]],
        ["a1", "assistant", [[10, 14]]],
        ["u2", "user", [[7, 11]]],
      ]);
      // Markdown too deep to render (the parser's stack) is stored and indexed as its source.
      const deep = `${">".repeat(20_000)} abyss`;
      await store.transaction((tx) =>
        tx.insertTurnWithPrompt({
          threadId: "t",
          turnId: "turn-3",
          messageId: "u3",
          text: deep,
          providerInput: deep,
          now,
        }),
      );
      // Long: indexed by the background indexer, right after.
      await store.searchIndexIdle();
      const abyss = await searchThread(store, "t", {
        query: "abyss",
        caseSensitive: false,
        wholeWord: false,
      });
      expect(abyss.matches).toEqual([
        { messageId: "u3", role: "user", ranges: [[20_001, 20_006]] },
      ]);
      // Two characters: the scan of the thread finds the same messages in the same order.
      const short = await searchThread(store, "t", {
        query: "ki",
        caseSensitive: false,
        wholeWord: false,
      });
      expect(short.matches.map((m) => m.messageId)).toEqual(["u1", "a1", "u2"]);
    } finally {
      await store.close();
      await removeDir(dir);
    }
  });

  it("finds a rare match past the first 1,000 rows, and every match of a shorter rest of the thread", async () => {
    const dir = await makeTempDir("chat-search-window-");
    const store = await openTestStore(dir);
    try {
      const at = (n: number) => new Date(Date.UTC(2026, 0, 1) + n * 1000).toISOString();
      const turns = (thread: string, count: number, rare: (n: number) => boolean) =>
        Array.from({ length: count }, (_, n) => {
          const text = rare(n) ? `a zebra in turn ${n}` : `plain turn ${n}`;
          return {
            turnId: `${thread}-t${n}`,
            prompt: {
              id: `${thread}-u${n}`,
              text,
              searchText: text,
              providerInput: text,
              now: at(n),
            },
            replies: [
              {
                id: `${thread}-a${n}`,
                kind: "answer" as const,
                text: `reply ${n}`,
                searchText: `reply ${n}`,
                now: at(n),
              },
            ],
            citations: [],
          };
        });
      await store.transaction(async (tx) => {
        await tx.createThread({ id: "long", title: null, now: at(0) });
        await tx.createThread({ id: "short", title: null, now: at(0) });
        await tx.appendFinishedTurns(
          "long",
          turns("long", 560, (n) => n === 3 || n === 540),
        );
        await tx.appendFinishedTurns(
          "short",
          turns("short", 20, (n) => n % 7 === 0),
        );
      });
      const found = async (threadId: string, cursor?: string) =>
        searchThread(store, threadId, {
          query: "zebra",
          caseSensitive: false,
          wholeWord: false,
          limit: 1,
          cursor,
        });
      // The first 1,000 rows hold one match: the trigram index finds the next one, 1,081 rows on.
      const first = await found("long");
      expect(first.matches.map((m) => m.messageId)).toEqual(["long-u3"]);
      const second = await found("long", first.nextCursor!);
      expect(second.matches.map((m) => m.messageId)).toEqual(["long-u540"]);
      expect(second.nextCursor).toBeNull();
      // Under 1,000 rows left: the window holds every match.
      const ids: string[] = [];
      let cursor: string | undefined;
      do {
        const page = await found("short", cursor);
        ids.push(...page.matches.map((m) => m.messageId));
        cursor = page.nextCursor ?? undefined;
      } while (cursor !== undefined);
      expect(ids).toEqual(["short-u0", "short-u7", "short-u14"]);
    } finally {
      await store.close();
      await removeDir(dir);
    }
  });

  it("finds every match in a thread of long replies, their texts read about a slice at a time", async () => {
    const dir = await makeTempDir("chat-search-slices-");
    const store = await openTestStore(dir);
    try {
      const now = "2026-01-01T00:00:00.000Z";
      // Eight replies of 300,000 characters: a first batch of eight is cut after the fourth.
      const long = (n: number) => `kiwi ${n} ${"lorem ipsum dolor ".repeat(16_700)}`;
      await store.transaction(async (tx) => {
        await tx.createThread({ id: "t", title: null, now });
        await tx.appendFinishedTurns(
          "t",
          Array.from({ length: 8 }, (_, n) => ({
            turnId: `t${n}`,
            prompt: { id: `u${n}`, text: `q${n}`, searchText: `q${n}`, providerInput: "q", now },
            replies: [
              { id: `a${n}`, kind: "answer" as const, text: long(n), searchText: long(n), now },
            ],
            citations: [],
          })),
        );
      });
      expect(long(0).length).toBeGreaterThan(SLICE_CHARS / 4);
      const cut = await store.searchCandidates({
        threadId: "t",
        query: "kiwi",
        caseSensitive: false,
        afterKey: 0,
        limit: 8,
        maxChars: SLICE_CHARS,
      });
      if (testStoreKind === "sqlite") expect(cut).toHaveLength(4);
      const { matches, nextCursor } = await searchThread(store, "t", {
        query: "kiwi",
        caseSensitive: false,
        wholeWord: false,
      });
      expect(matches.map((m) => m.messageId)).toEqual(Array.from({ length: 8 }, (_, n) => `a${n}`));
      expect(nextCursor).toBeNull();
    } finally {
      await store.close();
      await removeDir(dir);
    }
  });
});
