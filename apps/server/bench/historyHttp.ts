/**
 * Medians of history reads over HTTP on a 100,002-message thread, SQLite and PostgreSQL side by
 * side (one process each, same data: seeded into SQLite, copied into a throwaway cluster):
 *
 *   node --import tsx apps/server/bench/historyHttp.ts [requests per query, default 300]
 *
 * Requests alternate between the two servers, so machine load hits both alike.
 */
import { join } from "node:path";
import { startServer } from "../src/main.ts";
import { seedDemoThread, seededMessageCount } from "../src/seed.ts";
import { openDatabase } from "../src/storage/db.ts";
import { openStore } from "../src/storage/openStore.ts";
import { importSqliteIntoPostgres } from "../src/storage/postgres/importSqlite.ts";
import { makeTempDir, RecordingAdapter, removeDir } from "../src/testing/harness.ts";
import { startPostgresCluster } from "../src/testing/postgresCluster.ts";

const TURNS = 45_455;
const REQUESTS = Number(process.argv[2] ?? 300);
const dataDir = await makeTempDir("chat-history-http-");
const cluster = await startPostgresCluster();
try {
  const sqlite = await openStore({ databaseUrl: null, pgPoolSize: 1, dataDir });
  const threadId = await seedDemoThread(sqlite, { turns: TURNS });
  const total = seededMessageCount(TURNS);
  const middle = (await sqlite.messagesAfter(threadId, total / 2, 1)).messages[0]!;
  await sqlite.close();
  const databaseUrl = await cluster.createDatabase("history");
  const db = openDatabase(join(dataDir, "chat.sqlite"));
  await importSqliteIntoPostgres(db, databaseUrl);
  db.close();

  const common = {
    env: {},
    host: "127.0.0.1",
    port: 0,
    dataDir,
    webDist: dataDir,
    logLevel: "silent" as const,
  };
  const servers = {
    sqlite: await startServer({ ...common, adapter: new RecordingAdapter(), databaseUrl: null }),
    postgres: await startServer({ ...common, adapter: new RecordingAdapter(), databaseUrl }),
  };
  const queries = {
    "newest page": `/api/threads/${threadId}/messages?limit=50`,
    "around window": `/api/threads/${threadId}/messages?around=${middle.id}&limit=50`,
  };
  console.log(
    `${total.toLocaleString("en-US")} messages, ${REQUESTS} requests per query and store`,
  );
  for (const [name, path] of Object.entries(queries)) {
    const times: Record<string, number[]> = { sqlite: [], postgres: [] };
    for (let i = 0; i < REQUESTS + 20; i++) {
      for (const [store, server] of Object.entries(servers)) {
        const began = performance.now();
        const res = await fetch(`${server.url}${path}`);
        const page = (await res.json()) as { messages: unknown[] };
        if (page.messages.length !== 50) throw new Error(`${store}: ${page.messages.length} rows`);
        if (i >= 20) times[store]!.push(performance.now() - began); // first 20: warm-up
      }
    }
    for (const [store, list] of Object.entries(times)) {
      list.sort((a, b) => a - b);
      const at = (q: number) => list[Math.floor(q * (list.length - 1))]!.toFixed(2);
      console.log(`GET ${name} (${store}): median ${at(0.5)} ms, p90 ${at(0.9)} ms`);
    }
  }
  await Promise.all(Object.values(servers).map((server) => server.close()));
} finally {
  cluster.stop();
  await removeDir(dataDir);
}
