/**
 * Issue 31 over HTTP, SQLite and PostgreSQL side by side (one process each, same data: seeded
 * into SQLite, copied into a throwaway cluster): p50 and p99 of the thread list's first page and
 * a deep page, and of search all threads for a rare word, a word in every thread, and a
 * two-character query (capped):
 *
 *   node --import tsx apps/server/bench/threadsAndSearchAll.ts [threads] [turns per thread] [requests]
 *
 * Defaults: 100,000 threads of one turn (200,000 messages), 100 requests per query and store.
 * Requests alternate between the two servers, so machine load hits both alike. Not part of the
 * test suite; figures go in the root PERFORMANCE.md.
 */
import { join } from "node:path";
import { AllThreadsSearchResponseSchema, ThreadListSchema } from "@app/protocol";
import { startServer } from "../src/main.ts";
import { openDatabase } from "../src/storage/db.ts";
import { openStore } from "../src/storage/openStore.ts";
import { importSqliteIntoPostgres } from "../src/storage/postgres/importSqlite.ts";
import { makeTempDir, RecordingAdapter, removeDir } from "../src/testing/harness.ts";
import { startPostgresCluster } from "../src/testing/postgresCluster.ts";

const THREADS = Number(process.argv[2] ?? 100_000);
const TURNS = Number(process.argv[3] ?? 1);
const REQUESTS = Number(process.argv[4] ?? 100);
const WORDS = ["parser", "index", "cursor", "stream", "layout", "branch", "retry", "cache"];

const dataDir = await makeTempDir("chat-threads-bench-");
const cluster = await startPostgresCluster();
try {
  let began = performance.now();
  const sqlite = await openStore({ databaseUrl: null, pgPoolSize: 1, dataDir });
  const BATCH = 1000;
  for (let from = 0; from < THREADS; from += BATCH) {
    await sqlite.transaction(async (tx) => {
      for (let t = from; t < Math.min(THREADS, from + BATCH); t++) {
        const id = `bench-${String(t).padStart(7, "0")}`;
        // Pairs of threads share an instant: ties in updated_at on every page.
        const at = new Date(Date.UTC(2024, 0, 1) + Math.floor(t / 2) * 1000).toISOString();
        await tx.createThread({ id, title: `Bench thread ${t}`, now: at });
        for (let n = 0; n < TURNS; n++) {
          const word = WORDS[(t + n) % WORDS.length]!;
          await tx.insertTurnWithPrompt({
            threadId: id,
            turnId: `${id}-t${n}`,
            messageId: `${id}-p${n}`,
            text: `How does the ${word} work in thread ${t}?`,
            providerInput: "x",
            now: at,
          });
          await tx.insertAssistantMessage({
            id: `${id}-a${n}`,
            threadId: id,
            turnId: `${id}-t${n}`,
            kind: "answer",
            text: `The **${word}** keeps one index per query; see marker${t}x${n} and the shared notes.`,
            status: "complete",
            now: at,
          });
          await tx.updateTurn({ id: `${id}-t${n}`, status: "completed", completedAt: at });
        }
      }
    });
  }
  await sqlite.close();
  const messages = THREADS * TURNS * 2;
  console.log(
    `seeded ${THREADS} threads, ${messages} messages (SQLite, indexed) in ${((performance.now() - began) / 1000).toFixed(1)} s`,
  );
  began = performance.now();
  const databaseUrl = await cluster.createDatabase("threads");
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
  // A deep cursor: the list's middle, walked to once.
  const middle = Buffer.from(
    JSON.stringify([
      new Date(Date.UTC(2024, 0, 1) + Math.floor(THREADS / 4) * 1000).toISOString(),
      "",
    ]),
  ).toString("base64url");
  const rare = `marker${Math.floor(THREADS / 3)}x0`;
  const cases: [name: string, path: string, check: (body: unknown) => number][] = [
    ["thread list, first page (50)", "/api/threads?limit=50", countThreads],
    [
      "thread list, a page in the middle (50)",
      `/api/threads?limit=50&cursor=${middle}`,
      countThreads,
    ],
    ["search all, rare word (1 message)", `/api/search?q=${rare}`, countMatches],
    ["search all, word in every thread", "/api/search?q=shared%20notes", countMatches],
    ["search all, whole word in 1/8 of threads", "/api/search?q=cursor&word=1", countMatches],
    ["search all, 2 characters (capped scan)", "/api/search?q=zq", countMatches],
  ];
  console.log(`${REQUESTS} requests per case and store`);
  for (const [name, path, count] of cases) {
    const times: Record<string, number[]> = { sqlite: [], postgres: [] };
    const counts: Record<string, number> = {};
    for (let i = 0; i < REQUESTS + 10; i++) {
      for (const [store, server] of Object.entries(servers)) {
        const start = performance.now();
        const res = await fetch(`${server.url}${path}`);
        const body = (await res.json()) as unknown;
        if (i >= 10) times[store]!.push(performance.now() - start); // first 10: warm-up
        counts[store] = count(body);
      }
    }
    if (counts.sqlite !== counts.postgres) {
      throw new Error(`${name}: ${JSON.stringify(counts)} differ between the stores`);
    }
    for (const [store, list] of Object.entries(times)) {
      list.sort((a, b) => a - b);
      const at = (p: number) => list[Math.floor(p * (list.length - 1))]!.toFixed(2);
      console.log(
        `${name} (${store}, ${counts[store]} results): p50 ${at(0.5)} ms, p99 ${at(0.99)} ms`,
      );
    }
  }
  await Promise.all(Object.values(servers).map((server) => server.close()));
} finally {
  cluster.stop();
  await removeDir(dataDir);
}

function countThreads(body: unknown): number {
  return ThreadListSchema.parse(body).threads.length;
}

function countMatches(body: unknown): number {
  return AllThreadsSearchResponseSchema.parse(body).groups.reduce(
    (n, g) => n + g.matches.length,
    0,
  );
}
