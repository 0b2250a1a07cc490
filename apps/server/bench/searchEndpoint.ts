/**
 * Find in thread (issue 23) over HTTP on a 100,002-message thread, SQLite and PostgreSQL side by
 * side (one process each, same data: seeded into SQLite, copied into a throwaway cluster), p50
 * and p99 of the first page for a rare word, a common word, a substring, two-character queries:
 *
 *   node --import tsx apps/server/bench/searchEndpoint.ts [requests per query, default 200]
 *
 * Requests alternate between the two servers, so machine load hits both alike. Not part of the
 * test suite; figures go in the root PERFORMANCE.md.
 */
import { join } from "node:path";
import { ThreadSearchResponseSchema } from "@app/protocol";
import { startServer } from "../src/main.ts";
import { seedDemoThread, seededMessageCount } from "../src/seed.ts";
import { openDatabase } from "../src/storage/db.ts";
import { openStore } from "../src/storage/openStore.ts";
import { importSqliteIntoPostgres } from "../src/storage/postgres/importSqlite.ts";
import { makeTempDir, RecordingAdapter, removeDir } from "../src/testing/harness.ts";
import { startPostgresCluster } from "../src/testing/postgresCluster.ts";

const TURNS = 45_455;
const REQUESTS = Number(process.argv[2] ?? 200);
/** Query, and whether the first page must hold a match (a sanity check). */
const QUERIES: [name: string, q: string, found: boolean][] = [
  ["rare word (1 message)", "turn31337", true],
  ["common word (every answer)", "index", true],
  ["substring (every answer)", "endTur", true],
  ["2 characters, common", "p5", true],
  ["2 characters, rare (scans the thread)", "zq", false],
];

const dataDir = await makeTempDir("chat-search-bench-");
const cluster = await startPostgresCluster();
try {
  let began = performance.now();
  const sqlite = await openStore({ databaseUrl: null, pgPoolSize: 1, dataDir });
  const threadId = await seedDemoThread(sqlite, { turns: TURNS });
  await sqlite.close();
  const total = seededMessageCount(TURNS);
  console.log(
    `seeded ${total} messages (SQLite, indexed) in ${((performance.now() - began) / 1000).toFixed(1)} s`,
  );
  began = performance.now();
  const databaseUrl = await cluster.createDatabase("search");
  const db = openDatabase(join(dataDir, "chat.sqlite"));
  await importSqliteIntoPostgres(db, databaseUrl);
  db.close();
  console.log(`copied into PostgreSQL in ${((performance.now() - began) / 1000).toFixed(1)} s`);

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
  console.log(`${REQUESTS} requests per query and store (first page, default limit 200)`);
  for (const [name, q, found] of QUERIES) {
    const path = `/api/threads/${threadId}/search?q=${encodeURIComponent(q)}`;
    const times: Record<string, number[]> = { sqlite: [], postgres: [] };
    const counts: Record<string, number> = {};
    for (let i = 0; i < REQUESTS + 20; i++) {
      for (const [store, server] of Object.entries(servers)) {
        const start = performance.now();
        const res = await fetch(`${server.url}${path}`);
        const page = ThreadSearchResponseSchema.parse(await res.json());
        if (i >= 20) times[store]!.push(performance.now() - start); // first 20: warm-up
        counts[store] = page.matches.length;
      }
    }
    if (counts.sqlite !== counts.postgres || counts.sqlite! > 0 !== found) {
      throw new Error(`${name}: ${JSON.stringify(counts)} messages on the first page`);
    }
    for (const [store, list] of Object.entries(times)) {
      list.sort((a, b) => a - b);
      const at = (p: number) => list[Math.floor(p * (list.length - 1))]!.toFixed(2);
      console.log(
        `${name} q=${JSON.stringify(q)} (${store}, ${counts[store]} messages): p50 ${at(0.5)} ms, p99 ${at(0.99)} ms`,
      );
    }
  }
  await Promise.all(Object.values(servers).map((server) => server.close()));
} finally {
  cluster.stop();
  await removeDir(dataDir);
}
