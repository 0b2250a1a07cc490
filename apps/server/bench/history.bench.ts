/**
 * History reads on a 100,000-message thread (seeded once into a temp dir, or into PostgreSQL
 * with BENCH_STORE=postgres): the newest page, a page deep in the past, and an around window, in
 * process and over real HTTP.
 */
import { join } from "node:path";
import { afterAll, bench, describe } from "vitest";
import type { RunningServer } from "../src/main.ts";
import { startServer } from "../src/main.ts";
import { seedDemoThread, seededMessageCount } from "../src/seed.ts";
import { openDatabase } from "../src/storage/db.ts";
import { openStore } from "../src/storage/openStore.ts";
import { importSqliteIntoPostgres } from "../src/storage/postgres/importSqlite.ts";
import { makeTempDir, RecordingAdapter, removeDir } from "../src/testing/harness.ts";
import { benchDatabaseUrl, noopAdapter, openServices, stopBenchDatabase } from "./fixtures.ts";

const TURNS = 45_455; // 100,002 messages
const dataDir = await makeTempDir("chat-bench-history-");
// PostgreSQL: seeded into SQLite and copied over in batches (100,000 single inserts take minutes).
const threadId = await seedThread();
const services = await openServices(dataDir, noopAdapter);
const total = seededMessageCount(TURNS);
const middle = (
  await services.threads.getMessagePage(threadId, { after: String(total / 2), limit: 1 })
).messages[0]!;
const server: RunningServer = await startServer({
  env: {},
  host: "127.0.0.1",
  port: 0,
  dataDir,
  databaseUrl: benchDatabaseUrl,
  adapter: new RecordingAdapter(),
  webDist: dataDir,
  workspaceDir: dataDir,
  logLevel: "silent",
});

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
  await server.close();
  await services.provider.close();
  await services.store.close();
  stopBenchDatabase();
  await removeDir(dataDir);
});

function check(count: number, expected: number): void {
  if (count !== expected) throw new Error(`expected ${expected} messages, got ${count}`);
}

describe(`history of a ${total.toLocaleString("en-US")}-message thread, 50 per page (in process)`, () => {
  bench("newest page", async () => {
    check((await services.threads.getMessagePage(threadId, {})).messages.length, 50);
  });
  bench("page before the middle", async () => {
    const page = await services.threads.getMessagePage(threadId, { before: String(total / 2) });
    check(page.messages.length, 50);
  });
  bench("around window in the middle", async () => {
    const page = await services.threads.getMessagePage(threadId, { around: middle.id });
    check(page.messages.length, 50);
  });
});

describe(`history of a ${total.toLocaleString("en-US")}-message thread, 50 per page (HTTP)`, () => {
  bench("GET newest page", async () => {
    const res = await fetch(`${server.url}/api/threads/${threadId}/messages?limit=50`);
    check(((await res.json()) as { messages: unknown[] }).messages.length, 50);
  });
  bench("GET around window in the middle", async () => {
    const res = await fetch(
      `${server.url}/api/threads/${threadId}/messages?around=${middle.id}&limit=50`,
    );
    check(((await res.json()) as { messages: unknown[] }).messages.length, 50);
  });
});
