/**
 * The citation index (backlinks): its pure rules, and the backfill migration on the store under
 * test (SQLite here, PostgreSQL in server-pg): a database from before the index gets exactly the
 * rows accepted prompts would have written.
 */
import { join } from "node:path";
import { serializeAssistantCitation } from "@app/citations";
import type { CitedBy } from "@app/protocol";
import fc from "fast-check";
import pg from "pg";
import { describe, expect, it } from "vitest";
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
import type { ChatStore } from "./chatStore.ts";
import { type CitedByRow, citationEntriesOf, summarizeCitedBy } from "./citationIndex.ts";
import { openDatabase } from "./db.ts";

const link = (messageId: string, text: string, extra: { comment?: string; env?: string } = {}) =>
  serializeAssistantCitation({
    version: 1,
    environmentId: extra.env ?? "env",
    threadId: "t",
    messageId,
    text,
    start: 0,
    end: text.length,
    prefix: "",
    suffix: "",
    ...(extra.comment === undefined ? {} : { comment: extra.comment }),
  });

describe("citationEntriesOf", () => {
  it("keeps each distinct citation once, in order, other environments included; broken links are text", () => {
    const a = link("m1", "alpha");
    const text = [
      a,
      a,
      link("m1", "alpha", { comment: "note" }),
      link("m1", "alpha", { env: "elsewhere" }),
      "[Assistant quote](not-a-citation)",
      link("m2", "beta"),
    ].join(" ");
    const entries = citationEntriesOf({
      messageId: "p",
      threadId: "t2",
      turnId: "u",
      text,
      createdAt: "2026-01-01T00:00:00.000Z",
    });
    expect(
      entries.map((e) => [e.sourceEnvironmentId, e.sourceMessageId, e.quote.text, e.comment]),
    ).toEqual([
      ["env", "m1", "alpha", null],
      ["env", "m1", "alpha", "note"],
      ["elsewhere", "m1", "alpha", null],
      ["env", "m2", "beta", null],
    ]);
    expect(new Set(entries.map((e) => `${e.citingMessageId}/${e.citingThreadId}`))).toEqual(
      new Set(["p/t2"]),
    );
  });
});

describe("summarizeCitedBy", () => {
  it("counts distinct citing messages and keeps distinct ranges in first-cited order", () => {
    const row = fc.record({
      sourceMessageId: fc.constantFrom("a", "b", "c"),
      citingMessageId: fc.constantFrom("p1", "p2", "p3", "p4"),
      quote: fc
        .record({ start: fc.nat(3), len: fc.integer({ min: 1, max: 2 }), comment: fc.boolean() })
        .map(({ start, len }) => ({
          text: "x".repeat(len),
          start,
          end: start + len,
          prefix: "",
          suffix: "",
        })),
    });
    fc.assert(
      fc.property(fc.array(row, { maxLength: 40 }), (rows: CitedByRow[]) => {
        const summary = summarizeCitedBy(rows);
        const sources = new Set(rows.map((r) => r.sourceMessageId));
        expect(new Set(summary.keys())).toEqual(sources);
        for (const source of sources) {
          const mine = rows.filter((r) => r.sourceMessageId === source);
          const citedBy = summary.get(source)!;
          expect(citedBy.count).toBe(new Set(mine.map((r) => r.citingMessageId)).size);
          const firstSeen: string[] = [];
          for (const r of mine) {
            const key = JSON.stringify(r.quote);
            if (!firstSeen.includes(key)) firstSeen.push(key);
          }
          expect(citedBy.ranges.map((q) => JSON.stringify(q))).toEqual(firstSeen);
        }
      }),
    );
  });
});

/** Every answer's backlinks and full cited-by list (index ids left out: they are internal). */
async function snapshot(store: ChatStore, threadId: string) {
  const messages = (await store.messagesBefore(threadId, null, 100_000)).messages;
  const answers = messages.filter((m) => m.role === "assistant").map((m) => m.id);
  const citedBy: Map<string, CitedBy> = await store.citedByOf(threadId, answers);
  const lists: Record<string, unknown[]> = {};
  for (const id of answers) {
    const rows = await store.citingMessagesOf(threadId, id, 0, 1000);
    if (rows.length > 0) lists[id] = rows.map(({ id: _id, ...rest }) => rest);
  }
  return { citedBy: Object.fromEntries(citedBy), lists };
}

describe("the backfill migration", () => {
  it("indexes the prompts of a database from before the index exactly as accepted prompts are", async () => {
    const dir = await makeTempDir("chat-backfill-");
    try {
      let store = await openTestStore(dir);
      const threadId = await seedDemoThread(store, { turns: 130 });
      const expected = await snapshot(store, threadId);
      // Seeded prompts cite every 25th turn's answer 20 back, the last one 5 more.
      expect(Object.keys(expected.lists).length).toBeGreaterThanOrEqual(7);
      await store.close();
      // Back to the schema before the index, with the same messages.
      if (testStoreKind === "sqlite") {
        const db = openDatabase(join(dir, "chat.sqlite"));
        // The find-in-thread index (migration 6) came later: it goes too, and is rebuilt.
        db.exec(
          `DROP TABLE message_citations; DROP TABLE message_backlinks;
           DROP TABLE search_pending; DROP TABLE message_search; DROP TABLE message_search_fts;
           PRAGMA user_version = 4;`,
        );
        db.exec(SQLITE_UNDO_LATER_MIGRATIONS);
        db.close();
      } else {
        const client = new pg.Client({ connectionString: (await testDatabaseUrl(dir))! });
        await client.connect();
        // The find-in-thread index (migration 3) came later: it goes too, and is rebuilt.
        await client.query(
          "DROP TABLE message_citations, message_backlinks, search_pending, message_search",
        );
        await client.query(PG_UNDO_LATER_MIGRATIONS);
        await client.query("DELETE FROM schema_migrations WHERE version >= 2");
        await client.end();
      }
      store = await openTestStore(dir);
      expect(await snapshot(store, threadId)).toEqual(expected);
      await store.close();
    } finally {
      await removeDir(dir);
    }
  });
});
