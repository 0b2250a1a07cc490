/**
 * Branch in new thread (issue 30) on the seeded 2,000-turn thread (4,400 messages), SQLite or,
 * with BENCH_STORE=postgres, PostgreSQL: one request's work (`ConversationChanges.branch`:
 * checks, then the copy in one transaction) at turn 1,000 and at the newest message.
 */
import { join } from "node:path";
import { afterAll, bench, describe } from "vitest";
import { ConversationChanges } from "../src/domain/conversationChanges.ts";
import { ThreadEventLog } from "../src/domain/events.ts";
import { seedDemoThread } from "../src/seed.ts";
import { openDatabase } from "../src/storage/db.ts";
import { openStore } from "../src/storage/openStore.ts";
import { importSqliteIntoPostgres } from "../src/storage/postgres/importSqlite.ts";
import { makeTempDir, removeDir } from "../src/testing/harness.ts";
import { benchDatabaseUrl, noopAdapter, openServices, stopBenchDatabase } from "./fixtures.ts";

const TURNS = 2_000;
const dataDir = await makeTempDir("chat-bench-branch-");
const threadId = await seedThread();
const services = await openServices(dataDir, noopAdapter);
const changes = new ConversationChanges({
  store: services.store,
  events: new ThreadEventLog(services.store),
  provider: services.provider,
});
const turn1000 = (
  await services.threads.searchThread(threadId, {
    query: "Turn 1000:",
    caseSensitive: true,
    wholeWord: false,
    cursor: undefined,
    limit: 1,
  })
).matches[0]!.messageId;
const newest = (await services.threads.getMessagePage(threadId, { limit: 1 })).messages[0]!.id;

async function seedThread(): Promise<string> {
  const sqlite = await openStore({ databaseUrl: null, pgPoolSize: 1, dataDir });
  const id = await seedDemoThread(sqlite, { turns: TURNS });
  await sqlite.close();
  if (benchDatabaseUrl !== null) {
    const db = openDatabase(join(dataDir, "chat.sqlite"));
    await importSqliteIntoPostgres(db, benchDatabaseUrl);
    db.close();
  }
  return id;
}

afterAll(async () => {
  await services.provider.close();
  await services.store.close();
  stopBenchDatabase();
  await removeDir(dataDir);
});

describe(`branch of a ${TURNS}-turn thread (${benchDatabaseUrl ? "postgres" : "sqlite"})`, () => {
  bench("at turn 1,000 (2,200 messages copied)", async () => {
    await changes.branch(threadId, turn1000);
  });
  bench("at the newest message (4,400 messages copied)", async () => {
    await changes.branch(threadId, newest);
  });
});
