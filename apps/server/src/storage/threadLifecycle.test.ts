/**
 * Issue 31 on both stores (SQLite here, PostgreSQL in `server-pg`): the paged thread list with
 * ties in `updated_at`, rename, delete, restore and purge (with the citation index and
 * backlinks), and search across all threads: order, paging and Unicode.
 */
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { searchAllThreads } from "../domain/crossThreadSearch.ts";
import { ThreadEventLog } from "../domain/events.ts";
import { ThreadLifecycle } from "../domain/threadLifecycle.ts";
import {
  makeTempDir,
  openTestStore,
  removeDir,
  testDatabaseUrl,
  testStoreKind,
} from "../testing/harness.ts";
import { ManualClock } from "../testing/manualClock.ts";
import type { ChatStore } from "./chatStore.ts";
import { openDatabase } from "./db.ts";
import {
  type CrossThreadPlan,
  INDEX_FIRST_BELOW,
  ORDERED_WINDOW,
  searchTextOf,
  WALK_WINDOWS,
} from "./searchText.ts";
import { StorageUnavailableError } from "./storageErrors.ts";

let dir: string;
let store: ChatStore;
let lifecycle: ThreadLifecycle;
let counter = 0;

beforeAll(async () => {
  dir = await makeTempDir("chat-lifecycle-");
  store = await openTestStore(dir);
  lifecycle = new ThreadLifecycle({
    store,
    events: new ThreadEventLog(store),
    turns: { cancelTurn: async () => {} },
  });
});

afterAll(async () => {
  await lifecycle.close();
  await store.close();
  await removeDir(dir);
});

/** A thread with one prompt and one answer per text pair, stamped `now`. */
async function thread(id: string, now: string, texts: [string, string][]): Promise<string[]> {
  const ids: string[] = [];
  await store.transaction(async (tx) => {
    await tx.createThread({ id, title: null, now });
    for (const [prompt, answer] of texts) {
      const n = ++counter;
      await tx.insertTurnWithPrompt({
        threadId: id,
        turnId: `${id}-t${n}`,
        messageId: `${id}-p${n}`,
        text: prompt,
        providerInput: prompt,
        now,
      });
      await tx.insertAssistantMessage({
        id: `${id}-a${n}`,
        threadId: id,
        turnId: `${id}-t${n}`,
        kind: "answer",
        text: answer,
        status: "complete",
        now,
      });
      ids.push(`${id}-p${n}`, `${id}-a${n}`);
    }
  });
  return ids;
}

/**
 * {@link thread} in bulk (`appendFinishedTurns`, the seed's write, held to the one-row-at-a-time
 * writes by `seed.bulk.test.ts`): the same rows and search index in a few statements, for
 * filler that the searches must walk past; every thread in one transaction.
 */
async function bulkThreads(
  threads: readonly { id: string; now: string; texts: [string, string][] }[],
): Promise<void> {
  // The filler repeats a few dozen texts thousands of times: each is rendered once.
  const rendered = new Map<string, string>();
  const searchTextOnce = (role: "user" | "assistant", text: string) => {
    const key = `${role}\n${text}`;
    let searchText = rendered.get(key);
    if (searchText === undefined) {
      searchText = searchTextOf(role, text);
      rendered.set(key, searchText);
    }
    return searchText;
  };
  await store.transaction(async (tx) => {
    for (const { id, now, texts } of threads) {
      await tx.createThread({ id, title: null, now });
      await tx.appendFinishedTurns(
        id,
        texts.map(([prompt, answer]) => {
          const n = ++counter;
          return {
            turnId: `${id}-t${n}`,
            prompt: {
              id: `${id}-p${n}`,
              text: prompt,
              providerInput: prompt,
              searchText: searchTextOnce("user", prompt),
              now,
            },
            replies: [
              {
                id: `${id}-a${n}`,
                kind: "answer",
                text: answer,
                searchText: searchTextOnce("assistant", answer),
                now,
              },
            ],
            citations: [],
          };
        }),
      );
    }
  });
}

async function allPages(limit: number, prefix: string): Promise<string[]> {
  const ids: string[] = [];
  let after: { updatedAt: string; id: string } | null = null;
  for (;;) {
    const page = await store.listThreads({ after, limit });
    ids.push(...page.map((t) => t.id).filter((id) => id.startsWith(prefix)));
    const last = page.at(-1);
    if (page.length < limit || !last) return ids;
    after = { updatedAt: last.updatedAt, id: last.id };
  }
}

describe("the thread list", () => {
  it("pages newest first by cursor, with ties in updated_at in id order, none lost or repeated", async () => {
    const stamps = ["2030-01-03T00:00:00.000Z", "2030-01-02T00:00:00.000Z"];
    const made: { id: string; at: string }[] = [];
    for (let i = 0; i < 23; i++) {
      // Eleven threads share each of two instants; one is older still.
      const at = i === 22 ? "2030-01-01T00:00:00.000Z" : stamps[i % 2]!;
      const id = `list-${String(i).padStart(2, "0")}`;
      await thread(id, at, [["hello", "world"]]);
      made.push({ id, at });
    }
    const expected = made
      .sort((a, b) => (a.at === b.at ? (a.id < b.id ? -1 : 1) : a.at > b.at ? -1 : 1))
      .map((t) => t.id);
    for (const limit of [1, 4, 7, 23, 50]) expect(await allPages(limit, "list-")).toEqual(expected);
  });

  it("renames in place: a custom title, the same place in the list", async () => {
    await thread("rename-me", "2029-06-01T00:00:00.000Z", [["a question", "an answer"]]);
    const before = (await store.getThread("rename-me"))!;
    const renamed = await lifecycle.rename("rename-me", "  My   own   name ");
    expect(renamed.title).toBe("My own name");
    const after = (await store.getThread("rename-me"))!;
    expect(after.titleSource).toBe("custom");
    expect(after.thread.updatedAt).toBe(before.thread.updatedAt);
    await expect(lifecycle.rename("rename-me", "   ")).rejects.toMatchObject({
      code: "invalid_request",
    });
    await expect(lifecycle.rename("nope", "x")).rejects.toMatchObject({ code: "thread_not_found" });
  });
});

describe("delete, restore and purge", () => {
  it("hides a deleted thread, brings it back whole, and purges it with everything it holds", async () => {
    const [, sourceAnswer] = await thread("kept", "2029-05-01T00:00:00.000Z", [
      ["what is lifecycleword", "lifecycleword is a cited answer"],
    ]);
    const [citing] = await thread("doomed", "2029-05-02T00:00:00.000Z", [
      ["quoting lifecycleword here", "doomed answer with lifecycleword"],
    ]);
    const quote = { text: "cited", start: 17, end: 22, prefix: "", suffix: "" };
    await store.transaction((tx) =>
      tx.insertCitations([
        {
          citingMessageId: citing!,
          citingThreadId: "doomed",
          citingTurnId: `${citing!.replace("-p", "-t")}`,
          sourceEnvironmentId: store.environmentId,
          sourceThreadId: "kept",
          sourceMessageId: sourceAnswer!,
          quote,
          comment: null,
          createdAt: "2029-05-02T00:00:00.000Z",
        },
      ]),
    );
    expect((await store.citedByOf("kept", [sourceAnswer!])).get(sourceAnswer!)?.count).toBe(1);
    const threadsMatching = async () =>
      (
        await searchAllThreads(store, {
          query: "lifecycleword",
          caseSensitive: false,
          wholeWord: false,
        })
      ).groups.map((g) => g.thread.id);
    expect(await threadsMatching()).toEqual(["doomed", "kept"]);

    const deletion = await lifecycle.delete("doomed");
    expect(deletion.restorableUntil).not.toBeNull();
    expect(await allPages(500, "doomed")).toEqual([]);
    expect(await threadsMatching()).toEqual(["kept"]);

    await lifecycle.restore("doomed");
    expect(await allPages(500, "doomed")).toEqual(["doomed"]);
    expect(await threadsMatching()).toEqual(["doomed", "kept"]);
    expect((await store.messagesBefore("doomed", null, 10)).messages).toHaveLength(2);

    await lifecycle.delete("doomed");
    expect(await lifecycle.purge("doomed")).toBe(true);
    expect(await store.getThread("doomed")).toBeNull();
    expect(await store.threadWasPurged("doomed")).toBe(true);
    expect(await store.getMessage(citing!)).toBeNull();
    expect(await store.eventsAfter("doomed", 0, 10)).toEqual([]);
    expect(
      await store.searchCandidates({
        threadId: "doomed",
        query: "lifecycleword",
        caseSensitive: false,
        afterKey: 0,
        limit: 10,
      }),
    ).toEqual([]);
    // The backlinks of the message it cited are summed again, and said in that thread.
    expect((await store.citedByOf("kept", [sourceAnswer!])).get(sourceAnswer!)).toBeUndefined();
    const events = await store.eventsAfter("kept", 0, 100);
    expect(events.at(-1)?.event).toEqual({
      type: "message.cited",
      messageId: sourceAnswer,
      citedBy: { count: 0, ranges: [] },
    });
    expect(await threadsMatching()).toEqual(["kept"]);
    // Restoring after the purge: gone.
    await expect(lifecycle.restore("doomed")).rejects.toMatchObject({ code: "thread_deleted" });
  });

  it("purges only threads past the undo window", async () => {
    const clock = new ManualClock(Date.parse("2031-01-01T00:00:00.000Z"));
    const timed = new ThreadLifecycle({
      store,
      events: new ThreadEventLog(store),
      turns: { cancelTurn: async () => {} },
      undoWindowMs: 10_000,
      clock,
    });
    try {
      await thread("windowed", "2029-04-01T00:00:00.000Z", [["x", "y"]]);
      await timed.delete("windowed");
      clock.advance(9_999);
      await timed.purgeExpired();
      expect(await store.getThread("windowed")).not.toBeNull();
      clock.advance(1);
      await timed.purgeExpired();
      expect(await store.getThread("windowed")).toBeNull();
    } finally {
      await timed.close();
    }
  });
});

describe("purging a branch", () => {
  /** One statement on the test's own connection (beside the store's), `?` for parameters. */
  async function query(sql: string, params: unknown[]): Promise<{ n?: number }[]> {
    if (testStoreKind === "sqlite") {
      const db = openDatabase(join(dir, "chat.sqlite"));
      try {
        const stmt = db.prepare(sql);
        if (stmt.reader) return stmt.all(...params) as { n: number }[];
        stmt.run(...params);
        return [];
      } finally {
        db.close();
      }
    }
    const client = new pg.Client({ connectionString: (await testDatabaseUrl(dir))! });
    await client.connect();
    try {
      let n = 0;
      const numbered = sql.replace(/\?/g, () => `$${++n}`);
      return (await client.query(numbered, params)).rows.map((row) => ({ n: Number(row.n) }));
    } finally {
      await client.end();
    }
  }
  const count = async (sql: string, params: unknown[] = []) => (await query(sql, params))[0]!.n;

  // PostgreSQL keeps no cascading key from these rows to the thread (its migration 7): the
  // purge deletes them itself.
  it("leaves none of its copy links or queued search texts; its source keeps all of its own", async () => {
    const [, answer] = await thread("branched-src", "2029-06-01T00:00:00.000Z", [
      ["branch source prompt", "branch source answer"],
    ]);
    await store.transaction((tx) =>
      tx.branchThread({
        sourceThreadId: "branched-src",
        messageId: answer!,
        threadId: "branched-copy",
        title: "copy",
        branchName: null,
        now: "2029-06-02T00:00:00.000Z",
      }),
    );
    const copy = await store.copyOf("branched-copy", answer!);
    expect(copy).not.toBeNull();
    // A queued search text of the branch's (the indexer may have written it already).
    await query(
      testStoreKind === "sqlite"
        ? "INSERT OR IGNORE INTO search_pending (message_id) VALUES (?)"
        : "INSERT INTO search_pending (message_id) VALUES (?) ON CONFLICT DO NOTHING",
      [copy],
    );
    await lifecycle.delete("branched-copy");
    expect(await lifecycle.purge("branched-copy")).toBe(true);
    expect(await store.copyOf("branched-copy", answer!)).toBeNull();
    expect(
      await count("SELECT count(*) AS n FROM message_copies WHERE thread_id = ?", [
        "branched-copy",
      ]),
    ).toBe(0);
    expect(
      await count(`SELECT count(*) AS n FROM search_pending p
         WHERE NOT EXISTS (SELECT 1 FROM messages m WHERE m.id = p.message_id)`),
    ).toBe(0);
    expect((await store.messagesBefore("branched-src", null, 10)).messages).toHaveLength(2);
  });
});

describe("the purge sweep", () => {
  it("reports a storage fault instead of throwing it (the process never ends on one)", async () => {
    const failing: ChatStore = Object.assign(Object.create(store) as ChatStore, {
      threadsDeletedBefore: () =>
        Promise.reject(new StorageUnavailableError("connection_lost", { cause: new Error("x") })),
    });
    const reported: unknown[] = [];
    let reportedOnce: () => void = () => {};
    const once = new Promise<void>((resolve) => {
      reportedOnce = resolve;
    });
    const sweeping = new ThreadLifecycle({
      store: failing,
      events: new ThreadEventLog(store),
      turns: { cancelTurn: async () => {} },
      onPurgeError: (_id, error) => {
        reported.push(error);
        reportedOnce();
      },
    });
    sweeping.start();
    await once;
    await sweeping.close();
    expect(reported[0]).toBeInstanceOf(StorageUnavailableError);
  });
});

describe("search all threads", () => {
  it("groups matches by thread, newest first, in thread order, and pages without loss", async () => {
    // 240 matching messages: batches come from the rows in list order (a common word), then
    // from the trigram index once fewer than a batch are left.
    const pairs: [string, string][] = Array.from({ length: 60 }, (_, i) => [
      `q ${i} zebracorn`,
      `a ${i} the Zebracorn runs`,
    ]);
    await thread("zebra-old", "2028-01-01T00:00:00.000Z", pairs);
    await thread("zebra-new", "2028-01-02T00:00:00.000Z", pairs);
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    for (;;) {
      const page = await searchAllThreads(store, {
        query: "zebracorn",
        caseSensitive: false,
        wholeWord: true,
        ...(cursor === undefined ? {} : { cursor }),
      });
      pages++;
      for (const group of page.groups) {
        for (const match of group.matches) {
          seen.push(`${group.thread.id}/${match.messageId}`);
          expect(
            match.snippet.text
              .slice(match.snippet.ranges[0]![0], match.snippet.ranges[0]![1])
              .toLowerCase(),
          ).toBe("zebracorn");
        }
      }
      if (page.nextCursor === null) break;
      cursor = page.nextCursor;
    }
    expect(pages).toBeGreaterThan(1);
    expect(seen).toHaveLength(240);
    expect(new Set(seen).size).toBe(240);
    expect(seen[0]!.startsWith("zebra-new/")).toBe(true);
    expect(seen.at(-1)!.startsWith("zebra-old/")).toBe(true);
    const caseSensitive = await searchAllThreads(store, {
      query: "Zebracorn",
      caseSensitive: true,
      wholeWord: false,
    });
    expect(
      caseSensitive.groups.flatMap((g) => g.matches).every((m) => m.role === "assistant"),
    ).toBe(true);
  });

  it("finds Unicode by its case fold, and whole words only when asked", async () => {
    await thread("unicode", "2027-01-01T00:00:00.000Z", [
      ["ÜBERGRÖẞE Straße 🦊 fox", "Kelvin \u212a and ǅemal"],
    ]);
    const hit = async (query: string, wholeWord = false) =>
      (await searchAllThreads(store, { query, caseSensitive: false, wholeWord })).groups
        .filter((g) => g.thread.id === "unicode")
        .flatMap((g) => g.matches.map((m) => m.snippet.text));
    expect(await hit("übergröße")).toHaveLength(1);
    expect(await hit("🦊 fox")).toHaveLength(1);
    expect(await hit("straß", true)).toHaveLength(0);
    expect(await hit("straße", true)).toHaveLength(1);
  });

  it("walks common matches window by window, then finds the rare rest through the index: exact, in order, paged", async () => {
    // Newest first: 10 threads dense with matches (a full batch inside one window), one of
    // them deleted; then more than a window of rows without one; then 3 threads with one each
    // (found through the trigram index once a window has too few matches).
    const variants = [
      "the shared notes",
      "the \u017fhared notes", // LONG S folds to "s": found only by the case fold
      "THE SHARED NOTES",
      "the shared notesy", // not a whole word
    ];
    const at = (second: number) => new Date(Date.UTC(2031, 0, 1) - second * 1000).toISOString();
    const expected: { id: string; text: string }[] = [];
    const add = async (
      id: string,
      second: number,
      pairs: [string, string][],
      write: "one by one" | "in bulk" = "one by one",
    ) => {
      const first = counter + 1;
      let ids: string[];
      if (write === "one by one") {
        ids = await thread(id, at(second), pairs);
      } else {
        await bulkThreads([{ id, now: at(second), texts: pairs }]);
        ids = pairs.flatMap((_, i) => [`${id}-p${first + i}`, `${id}-a${first + i}`]);
      }
      pairs.forEach(([prompt, answer], i) => {
        expected.push({ id: `${id}/${ids[2 * i]}`, text: prompt });
        expected.push({ id: `${id}/${ids[2 * i + 1]}`, text: answer });
      });
    };
    // First, more substring matches than a batch that are not whole words, and enough matches
    // in all that SQLite does not ask the trigram index first (a rare query). Written in bulk
    // (the same rows as one by one, see bulkThreads); the dense threads below, one by one.
    await add(
      "walk-dense-notesy",
      -1,
      Array.from({ length: INDEX_FIRST_BELOW / 2 + 20 }, (_, n) => [
        `${variants[3]} ${n}`,
        // A few whole words among them, far past the first batch.
        n % 100 === 70 ? `${variants[0]}!` : `${variants[3]}!`,
      ]),
      "in bulk",
    );
    for (let t = 0; t < 10; t++) {
      await add(
        `walk-dense-${t}`,
        t,
        Array.from({ length: 20 }, (_, n) => [
          `plain prompt ${n}`,
          `${variants[(t + n) % 4]} ${n}`,
        ]),
      );
    }
    await store.setThreadDeleted({ id: "walk-dense-3", deletedAt: at(3) });
    // More rows without a match than a batch walks, after the last window that had some.
    const fillerThreads = Math.ceil((ORDERED_WINDOW * (WALK_WINDOWS + 1) + 200) / 40);
    await bulkThreads(
      Array.from({ length: fillerThreads }, (_, t) => ({
        id: `walk-filler-${t}`,
        now: at(10 + t),
        texts: Array.from({ length: 20 }, (_, n): [string, string] => [
          `filler ${n}`,
          `nothing to see ${n}`,
        ]),
      })),
    );
    for (let t = 0; t < 3; t++) {
      await add(`walk-sparse-${t}`, 10 + fillerThreads + t, [
        ["nothing", "nothing"],
        ["and then", `${variants[t]} at last`],
      ]);
    }
    const search = async (caseSensitive: boolean, wholeWord: boolean) => {
      const seen: string[] = [];
      let cursor: string | undefined;
      for (;;) {
        const page = await searchAllThreads(store, {
          query: caseSensitive ? "shared notes" : "Shared Notes",
          caseSensitive,
          wholeWord,
          ...(cursor === undefined ? {} : { cursor }),
        });
        expect(page.limited).toBeNull();
        for (const group of page.groups) {
          for (const match of group.matches) seen.push(`${group.thread.id}/${match.messageId}`);
        }
        if (page.nextCursor === null) return seen.filter((id) => id.startsWith("walk-"));
        cursor = page.nextCursor;
      }
    };
    const listed = expected.filter(({ id }) => !id.startsWith("walk-dense-3/"));
    const ids = (keep: (text: string) => boolean) =>
      listed.filter(({ text }) => keep(text)).map(({ id }) => id);
    expect(await search(false, false)).toEqual(ids((text) => /notes/i.test(text)));
    expect(await search(false, true)).toEqual(
      ids((text) => /notes/i.test(text) && !text.includes("notesy")),
    );
    expect(await search(true, false)).toEqual(ids((text) => text.includes("the shared notes")));
    expect(await search(true, true)).toEqual(
      ids((text) => text.includes("the shared notes") && !text.includes("notesy")),
    );
    // Writing more than WALK_WINDOWS windows of rows, one thread at a time, takes a while on a
    // loaded machine's PostgreSQL.
  }, 180_000);

  it("gives the same answers whichever way the store finds them: walk, trigram index, or its own choice", async () => {
    // On the data of the tests above: dense matches, a deleted thread, more than WALK_WINDOWS
    // windows of rows without one, then sparse ones; and a rare word.
    const pagesOf = async (
      query: string,
      caseSensitive: boolean,
      wholeWord: boolean,
      plan: CrossThreadPlan,
    ) => {
      const seen: string[] = [];
      let cursor: string | undefined;
      for (;;) {
        const page = await searchAllThreads(store, {
          query,
          caseSensitive,
          wholeWord,
          plan,
          ...(cursor === undefined ? {} : { cursor }),
        });
        for (const group of page.groups) {
          for (const match of group.matches) {
            seen.push(`${group.thread.id}/${match.messageId}${JSON.stringify(match.ranges)}`);
          }
        }
        if (page.nextCursor === null) return seen;
        cursor = page.nextCursor;
      }
    };
    const cases: [string, boolean, boolean][] = [
      ["Shared Notes", false, false],
      ["shared notes", true, true],
      ["notesy", false, false],
      ["at last", false, true],
      ["zebracorn", false, true],
      ["übergröße", false, false],
      ["nothing to see 7", false, false],
    ];
    for (const [query, caseSensitive, wholeWord] of cases) {
      const walked = await pagesOf(query, caseSensitive, wholeWord, "walk");
      expect(walked.length, query).toBeGreaterThan(0);
      expect(await pagesOf(query, caseSensitive, wholeWord, "index"), query).toEqual(walked);
      expect(await pagesOf(query, caseSensitive, wholeWord, "auto"), query).toEqual(walked);
    }
  });

  it("caps a one- or two-character query and says so", async () => {
    const page = await searchAllThreads(store, {
      query: "a",
      caseSensitive: false,
      wholeWord: false,
    });
    expect(page.groups.length).toBeGreaterThan(0);
    // Fewer messages than one scan here: nothing left unread, so not limited.
    expect(page.limited === null || page.limited.reason === "short_query").toBe(true);
    await expect(
      searchAllThreads(store, { query: "x", caseSensitive: false, wholeWord: false, cursor: "!!" }),
    ).rejects.toMatchObject({ code: "invalid_cursor" });
  });
});
