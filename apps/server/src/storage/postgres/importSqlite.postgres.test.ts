/** Moving an installation from SQLite to PostgreSQL keeps every row and the environment id. */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { searchThread } from "../../domain/threadSearch.ts";
import { seedDemoThread, seededMessageCount } from "../../seed.ts";
import { makeTempDir, removeDir, testDatabaseUrl } from "../../testing/harness.ts";
import type { ChatStore } from "../chatStore.ts";
import { openDatabase } from "../db.ts";
import { openStore } from "../openStore.ts";
import { importSqliteIntoPostgres } from "./importSqlite.ts";

describe("importSqliteIntoPostgres", () => {
  it("copies threads, messages, turns and events, and the same pages come back", async () => {
    const dir = await makeTempDir("chat-import-");
    try {
      const sqlite = await openStore({ databaseUrl: null, pgPoolSize: 1, dataDir: dir });
      const threadId = await seedDemoThread(sqlite, { turns: 30 });
      // What a stopped SQLite server may leave: a started turn and a queued one behind it.
      const left = await sqlite.transaction(async (tx) => {
        await tx.createThread({ id: "left", title: null, now: "2026-12-04T00:00:00.000Z" });
        for (const turnId of ["left-started", "left-queued"]) {
          await tx.insertTurnWithPrompt({
            threadId: "left",
            turnId,
            messageId: `${turnId}-prompt`,
            text: turnId,
            providerInput: turnId,
            now: "2026-12-04T00:00:01.000Z",
          });
        }
        return tx.claimTurn("left-started", "a-stopped-sqlite-server", 60_000);
      });
      expect(left).toBe("left-started");
      const before = await sqlite.messagesBefore(threadId, null, 40);
      const search = (store: ChatStore) =>
        searchThread(store, threadId, { query: "p50", caseSensitive: false, wholeWord: false });
      const found = await search(sqlite);
      const environmentId = sqlite.environmentId;
      await sqlite.close();

      const url = (await testDatabaseUrl(join(dir, "pg")))!;
      const db = openDatabase(join(dir, "chat.sqlite"));
      const counts = await importSqliteIntoPostgres(db, url);
      db.close();
      expect(counts).toMatchObject({
        threads: 2,
        turns: 32,
        messages: seededMessageCount(30) + 2,
        message_search: seededMessageCount(30) + 2,
      });

      const postgres = await openStore({ databaseUrl: url, pgPoolSize: 2, dataDir: dir });
      try {
        expect(postgres.environmentId).toBe(environmentId);
        expect(await postgres.messagesBefore(threadId, null, 40)).toEqual(before);
        // The find-in-thread index comes along (keys differ: SQLite's row ids, PostgreSQL's seq).
        expect((await search(postgres)).matches).toEqual(found.matches);
        expect(found.matches).toHaveLength(30);
        expect((await postgres.getThread(threadId))?.thread.messageCount).toBe(
          seededMessageCount(30),
        );
        // The started turn is to be interrupted (an expired lease), the queued one to run.
        expect(await postgres.queueHead("left")).toMatchObject({
          turn: { id: "left-started" },
          state: "expired",
        });
        expect((await postgres.startedUnfinishedTurns()).map((t) => t.id)).toEqual([
          "left-started",
        ]);
        // A second import into the same database is refused.
        const again = openDatabase(join(dir, "chat.sqlite"));
        await expect(importSqliteIntoPostgres(again, url)).rejects.toThrow(/already has threads/);
        again.close();
      } finally {
        await postgres.close();
      }
    } finally {
      await removeDir(dir);
    }
  });
});
