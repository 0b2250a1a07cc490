/**
 * The search index of a long text in pieces (issue 33) on the store under test (SQLite here,
 * PostgreSQL in server-pg, where the database server indexes a text as one row and pieces are
 * not written, so the same answers are expected): a phrase that spans a piece boundary is
 * found, with the same ranges as the whole rendered text gives; a message matching in many
 * pieces is one candidate; purging its thread removes every piece; a process killed between
 * two pieces leaves nothing searchable, and the next start indexes the message exactly.
 */
import { spawn } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { findTextMatches, renderedTextOfMarkdown } from "@app/markdown";
import type { ThreadSearchMatch } from "@app/protocol";
import { describe, expect, it } from "vitest";
import { searchAllThreads } from "../domain/crossThreadSearch.ts";
import { searchThread } from "../domain/threadSearch.ts";
import {
  makeTempDir,
  openTestStore,
  removeDir,
  testDatabaseUrl,
  testStoreKind,
} from "../testing/harness.ts";
import { nodeEntryArgs } from "../testing/nodeEntry.ts";
import { SQLITE_UNDO_SEARCH_PIECES } from "../testing/schemaRollback.ts";
import { storeTurnWithStreamingReply } from "../testing/streamingTurn.ts";
import type { ChatStore } from "./chatStore.ts";
import { openDatabase } from "./db.ts";
import { SEARCH_PIECE_CHARS, SEARCH_QUERY_MAX_CHARS, searchPieceCount } from "./searchPieces.ts";
import { foldedSearchText } from "./searchText.ts";
import { sqliteSearchQueries } from "./sqliteSearch.ts";
import { ftsRange } from "./sqliteSearchFts.ts";

const NOW = "2026-01-01T00:00:00.000Z";
const FILLER = "lorem ipsum dolor sit amet ";
const OPTIONS = { caseSensitive: false, wholeWord: false };

/**
 * `length` units found nowhere else, every trigram different (so the index is asked for the
 * phrase, not for each trigram alone): CJK ideographs from `first` on.
 */
function needle(first: number, length: number): string {
  return Array.from({ length }, (_, i) => String.fromCharCode(first + i)).join("");
}

/** Filler up to `at`, then `text`. */
function placeAt(before: string, at: number, text: string): string {
  let out = before;
  while (out.length < at) out += FILLER;
  return out.slice(0, at) + text;
}

// The longest query, from one unit before the first boundary to the end of the overlap; a
// shorter one across the second boundary.
const ACROSS_FIRST = needle(0x4e00, SEARCH_QUERY_MAX_CHARS);
const ACROSS_SECOND = needle(0x5000, 150);
const REPLY = `${placeAt(
  placeAt("", SEARCH_PIECE_CHARS - 1, ACROSS_FIRST),
  SEARCH_PIECE_CHARS * 2 - 100,
  ACROSS_SECOND,
)} ${FILLER.repeat(2000)}end.`;
const RENDERED = renderedTextOfMarkdown(REPLY, "assistant");
/** Inside the overlap of the first two pieces: a1 matches it in both. */
const IN_OVERLAP = ACROSS_FIRST.slice(10, 30);
const GHOST = `${"ghostly ".repeat(SEARCH_PIECE_CHARS / 4)}end.`;

/** Thread `t`: prompt u1, reply a1 still streaming. */
async function threadWithStreamingReply(store: ChatStore): Promise<void> {
  await store.transaction(async (tx) => {
    await tx.createThread({ id: "t", title: null, now: NOW });
    await storeTurnWithStreamingReply(tx, {
      threadId: "t",
      turnId: "turn-1",
      promptId: "u1",
      prompt: "a prompt about lorem",
      providerInput: "a prompt",
      replyId: "a1",
      now: NOW,
    });
  });
}

/** Every page of a search of thread `t`. */
async function findInThread(store: ChatStore, query: string) {
  const matches: ThreadSearchMatch[] = [];
  let cursor: string | undefined;
  do {
    const page = await searchThread(store, "t", { query, ...OPTIONS, limit: 1000, cursor });
    matches.push(...page.matches);
    cursor = page.nextCursor ?? undefined;
  } while (cursor !== undefined);
  return matches;
}

const findEverywhere = async (store: ChatStore, query: string, plan: "walk" | "index") =>
  (await searchAllThreads(store, { query, ...OPTIONS, plan })).groups.flatMap((group) =>
    group.matches.map((match) => ({ messageId: match.messageId, ranges: match.ranges })),
  );

/** SQLite: the FTS rows (pieces) of a message, read from the file. */
function sqlitePieces(dir: string, messageId: string): number {
  const db = openDatabase(join(dir, "chat.sqlite"));
  try {
    const row = db.prepare("SELECT id FROM message_search WHERE message_id = ?").get(messageId) as
      | { id: number }
      | undefined;
    if (!row) return 0;
    return (
      db
        .prepare("SELECT count(*) AS n FROM message_search_fts WHERE rowid >= ? AND rowid < ?")
        .get(...ftsRange(row.id)) as { n: number }
    ).n;
  } finally {
    db.close();
  }
}

/** SQLite: the candidates the trigram index gives for `query` in thread `t`, read from the file. */
function sqliteCandidates(dir: string, query: string): string[] {
  const db = openDatabase(join(dir, "chat.sqlite"));
  try {
    return sqliteSearchQueries(db)
      .searchCandidates({ threadId: "t", query, caseSensitive: false, afterKey: 0, limit: 10 })
      .map((candidate) => candidate.messageId);
  } finally {
    db.close();
  }
}

async function expectExactAnswers(store: ChatStore): Promise<void> {
  for (const query of [ACROSS_FIRST, ACROSS_SECOND]) {
    const expected = findTextMatches(RENDERED, query, OPTIONS).ranges;
    expect(expected).toHaveLength(1);
    expect(await findInThread(store, query)).toEqual([
      { messageId: "a1", role: "assistant", ranges: expected },
    ]);
    for (const plan of ["walk", "index"] as const) {
      expect(await findEverywhere(store, query, plan)).toEqual([
        { messageId: "a1", ranges: expected },
      ]);
    }
  }
}

// The search-text worker renders below the event loop's priority (nice 10): on a machine busy
// with other work (CI runs the browser suite beside this one) it waits for a core, so these
// tests wait for the index longer than the default 20 s. Nothing here is timed.
describe("the search index of a long text, in pieces", { timeout: 90_000 }, () => {
  it("finds a phrase across a piece boundary exactly, and a message matching in every piece once", async () => {
    expect(RENDERED.indexOf(ACROSS_FIRST)).toBe(SEARCH_PIECE_CHARS - 1);
    expect(RENDERED.indexOf(ACROSS_SECOND)).toBe(SEARCH_PIECE_CHARS * 2 - 100);
    expect(searchPieceCount(RENDERED)).toBe(3);
    const dir = await makeTempDir("chat-search-pieces-");
    const store = await openTestStore(dir);
    try {
      await threadWithStreamingReply(store);
      await store.transaction((tx) => tx.finishMessage("a1", REPLY, "complete"));
      // Seven more matches after a1: a batch of candidates (8 at first) counts messages, not pieces.
      await store.transaction(async (tx) => {
        for (let i = 2; i <= 8; i++) {
          await tx.insertTurnWithPrompt({
            threadId: "t",
            turnId: `turn-${i}`,
            messageId: `u${i}`,
            text: `dolor sit ${i} ${IN_OVERLAP}`,
            providerInput: "a prompt",
            now: NOW,
          });
        }
      });
      await store.searchIndexIdle();
      await expectExactAnswers(store);
      // In every piece: one match entry, the same ranges as the whole text.
      const common = await findInThread(store, "dolor sit");
      const expected = findTextMatches(RENDERED, "dolor sit", OPTIONS);
      expect(common.map((m) => m.messageId)).toEqual([
        "a1",
        "u2",
        "u3",
        "u4",
        "u5",
        "u6",
        "u7",
        "u8",
      ]);
      expect(common[0]!.ranges).toEqual(expected.ranges);
      expect(common[0]!.truncated).toBe(expected.truncated ? true : undefined);
      // Two hits of a1 (one per piece) take one place in a batch of candidates.
      expect((await findInThread(store, IN_OVERLAP)).map((m) => m.messageId)).toEqual([
        "a1",
        "u2",
        "u3",
        "u4",
        "u5",
        "u6",
        "u7",
        "u8",
      ]);
      // Batches of one candidate, after each candidate: each message once, in order.
      const prompt = await searchThread(store, "t", { query: "lorem", ...OPTIONS, limit: 1 });
      expect(prompt.matches.map((m) => m.messageId)).toEqual(["u1"]);
      const next = await searchThread(store, "t", {
        query: "lorem",
        ...OPTIONS,
        limit: 1,
        cursor: prompt.nextCursor!,
      });
      expect(next.matches.map((m) => m.messageId)).toEqual(["a1"]);
      if (testStoreKind === "sqlite")
        expect(sqlitePieces(dir, "a1")).toBe(searchPieceCount(RENDERED));
    } finally {
      await store.close();
      await removeDir(dir);
    }
  });

  it("removes every piece of a message with its purged thread", async () => {
    const dir = await makeTempDir("chat-search-pieces-purge-");
    const store = await openTestStore(dir);
    try {
      await threadWithStreamingReply(store);
      await store.transaction((tx) => tx.finishMessage("a1", REPLY, "complete"));
      await store.searchIndexIdle();
      expect(await findEverywhere(store, ACROSS_FIRST, "index")).toHaveLength(1);
      await store.setThreadDeleted({ id: "t", deletedAt: NOW });
      await store.transaction((tx) => tx.purgeThread("t"));
      expect(await findEverywhere(store, ACROSS_FIRST, "index")).toEqual([]);
      if (testStoreKind === "sqlite") {
        const db = openDatabase(join(dir, "chat.sqlite"));
        try {
          const { n } = db.prepare("SELECT count(*) AS n FROM message_search_fts").get() as {
            n: number;
          };
          expect(n).toBe(0);
        } finally {
          db.close();
        }
      }
    } finally {
      await store.close();
      await removeDir(dir);
    }
  });

  it("leaves nothing searchable when killed between two pieces, and indexes the message exactly on the next start", async () => {
    const dir = await makeTempDir("chat-search-pieces-crash-");
    try {
      let store = await openTestStore(dir);
      await threadWithStreamingReply(store);
      await store.close();
      await writeFile(join(dir, "reply.md"), REPLY);
      await writeFile(join(dir, "ghost.txt"), GHOST);
      const databaseUrl = await testDatabaseUrl(dir);
      const child = spawn(process.execPath, nodeEntryArgs("searchPieceCrash"), {
        cwd: resolve(import.meta.dirname, "../.."),
        env: {
          ...process.env,
          DATA_DIR: dir,
          DATABASE_URL: databaseUrl ?? "",
          PIECE_CRASH_REPLY: join(dir, "reply.md"),
          PIECE_CRASH_GHOST: join(dir, "ghost.txt"),
        },
        stdio: ["ignore", "pipe", "inherit"],
      });
      let output = "";
      child.stdout!.on("data", (chunk: Buffer) => {
        output += chunk.toString();
      });
      const signal = await new Promise((done) => child.once("exit", (_code, sig) => done(sig)));
      expect(signal).toBe("SIGKILL");
      expect(output).toContain("PIECES WRITTEN");
      if (testStoreKind === "sqlite") {
        // The kill left two pieces of the other text, and the message unsearchable.
        expect(sqlitePieces(dir, "a1")).toBe(2);
        expect(sqliteCandidates(dir, "ghostly")).toEqual([]);
      }
      store = await openTestStore(dir);
      try {
        await store.searchIndexIdle();
        expect(await findInThread(store, "ghostly")).toEqual([]);
        await expectExactAnswers(store);
        if (testStoreKind === "sqlite") {
          // Indexed anew: the pieces the kill left are gone, not only hidden by the exact check.
          expect(sqlitePieces(dir, "a1")).toBe(searchPieceCount(RENDERED));
          expect(sqliteCandidates(dir, "ghostly")).toEqual([]);
          expect(sqliteCandidates(dir, ACROSS_FIRST)).toEqual(["a1"]);
        }
      } finally {
        await store.close();
      }
    } finally {
      await removeDir(dir);
    }
  });

  it.runIf(testStoreKind === "sqlite")(
    "migration 10 rebuilds a database's one-row-per-message index as pieces",
    async () => {
      const dir = await makeTempDir("chat-search-pieces-migration-");
      try {
        let store = await openTestStore(dir);
        await threadWithStreamingReply(store);
        await store.transaction((tx) => tx.finishMessage("a1", REPLY, "complete"));
        await store.searchIndexIdle();
        await store.close();
        // Back to migration 9: one FTS row per message, rowid = its `message_search` id.
        const db = openDatabase(join(dir, "chat.sqlite"));
        db.exec(SQLITE_UNDO_SEARCH_PIECES);
        const rows = db.prepare("SELECT id, text FROM message_search").all() as {
          id: number;
          text: string;
        }[];
        const insert = db.prepare("INSERT INTO message_search_fts (rowid, folded) VALUES (?, ?)");
        for (const row of rows) insert.run(row.id, foldedSearchText(row.text));
        expect(db.pragma("user_version", { simple: true })).toBe(9);
        db.close();

        store = await openTestStore(dir);
        try {
          expect(sqlitePieces(dir, "a1")).toBe(searchPieceCount(RENDERED));
          await expectExactAnswers(store);
          expect((await findInThread(store, "a prompt")).map((m) => m.messageId)).toEqual(["u1"]);
        } finally {
          await store.close();
        }
      } finally {
        await removeDir(dir);
      }
    },
  );
});
