/**
 * Issue 31 over HTTP, SQLite and PostgreSQL side by side (one process each, same data: written
 * into SQLite in bulk, copied into a throwaway cluster by the importer): p50, p90 and p99 of the
 * thread list's first page and a page in the middle, and of search all threads for a rare word,
 * a phrase in every thread, a whole word in 1/8 of the messages, a phrase in 1 thread in 50
 * (its first page and its second) and a two-character query (capped). Each case's answers must
 * be the same on both stores, item for item (thread, message, ranges), or the run fails.
 *
 *   node --import tsx apps/server/bench/threadsAndSearchAll.ts [threads] [turns per thread] [requests]
 *
 * The size is `10000 50`: 1,000,000 messages in 10,000 threads. Seeding writes the rows
 * straight into SQLite's tables (`support/benchThreads.ts`: the same rows as the store's write
 * path, compared on a few threads before every run), about a minute for 1,000,000 messages on
 * an idle machine; the copy into PostgreSQL takes about two. Defaults: 100,000 threads of one
 * turn (200,000 messages), 100 requests per query and store. Requests alternate between the two
 * servers, so machine load hits both alike; the load average is printed before and after. Not
 * part of the test suite; figures go in the root PERFORMANCE.md.
 *
 * `BENCH_DATA_DIR=<dir>` keeps the seeded data between runs: the SQLite file and the
 * PostgreSQL cluster live under `<dir>` (seeded once per size, then reused as they are; the
 * runs only read them). Remove `<dir>` (after the run, the cluster stopped) to start afresh.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { mkdir, rm } from "node:fs/promises";
import { loadavg } from "node:os";
import { join } from "node:path";
import { AllThreadsSearchResponseSchema, ThreadListSchema } from "@app/protocol";
import { startServer } from "../src/main.ts";
import { openDatabase } from "../src/storage/db.ts";
import { openStore } from "../src/storage/openStore.ts";
import { importSqliteIntoPostgres } from "../src/storage/postgres/importSqlite.ts";
import { makeTempDir, RecordingAdapter, removeDir } from "../src/testing/harness.ts";
import { startPostgresCluster } from "../src/testing/postgresCluster.ts";
import {
  bulkSeedSqlite,
  dumpSeededRows,
  SOME_THREADS_EVERY,
  SOME_THREADS_PHRASE,
  seedThroughStore,
} from "./support/benchThreads.ts";

const THREADS = Number(process.argv[2] ?? 100_000);
const TURNS = Number(process.argv[3] ?? 1);
const REQUESTS = Number(process.argv[4] ?? 100);
/** Threads per seeding transaction. */
const SEED_BATCH = Math.max(1, Math.floor(20_000 / TURNS));

await checkBulkSeed();
const kept = process.env.BENCH_DATA_DIR;
const dataDir =
  kept === undefined
    ? await makeTempDir("chat-threads-bench-")
    : join(kept, `sqlite-${THREADS}x${TURNS}`);
const cluster = await startPostgresCluster(kept === undefined ? {} : { keepIn: join(kept, "pg") });
const seededMark = join(dataDir, "seeded");
try {
  // The mark names the PostgreSQL database the data was copied into (a fresh name per seeding,
  // so a seeding cut short leaves nothing in the way of the next).
  const databaseUrl = existsSync(seededMark)
    ? cluster.urlOf(readFileSync(seededMark, "utf8").trim())
    : await seed(`threads_${THREADS}x${TURNS}_${Date.now()}`);
  if (kept !== undefined) console.log(`data in ${kept} (seeded once, reused)`);

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
  const seldom = `/api/search?q=${encodeURIComponent(SOME_THREADS_PHRASE)}`;
  // The second page of a query: each store's own cursor (their message keys differ).
  const page2: Record<string, string> = {};
  for (const [store, server] of Object.entries(servers)) {
    const first = AllThreadsSearchResponseSchema.parse(
      await (await fetch(`${server.url}${seldom}`)).json(),
    );
    page2[store] = `${seldom}&cursor=${first.nextCursor ?? ""}`;
  }
  const cases: [name: string, path: string | Record<string, string>, check: Check][] = [
    ["thread list, first page (50)", "/api/threads?limit=50", threadIds],
    ["thread list, a page in the middle (50)", `/api/threads?limit=50&cursor=${middle}`, threadIds],
    ["search all, rare word (1 message)", `/api/search?q=${rare}`, matchIds],
    ["search all, word in every thread", "/api/search?q=shared%20notes", matchIds],
    ["search all, whole word in 1/8 of threads", "/api/search?q=cursor&word=1", matchIds],
    [`search all, "${SOME_THREADS_PHRASE}" (1 in ${SOME_THREADS_EVERY} threads)`, seldom, matchIds],
    [`search all, "${SOME_THREADS_PHRASE}", page 2`, page2, matchIds],
    ["search all, 2 characters (capped scan)", "/api/search?q=zq", matchIds],
  ];
  console.log(
    `${REQUESTS} requests per case and store; load ${loadavg()
      .map((n) => n.toFixed(2))
      .join(" ")}`,
  );
  for (const [name, path, check] of cases) {
    const times: Record<string, number[]> = { sqlite: [], postgres: [] };
    const answers: Record<string, string[]> = {};
    for (let i = 0; i < REQUESTS + 10; i++) {
      for (const [store, server] of Object.entries(servers)) {
        const url = `${server.url}${typeof path === "string" ? path : path[store]}`;
        const start = performance.now();
        const res = await fetch(url);
        const body = (await res.json()) as unknown;
        if (i >= 10) times[store]!.push(performance.now() - start); // first 10: warm-up
        answers[store] = check(body);
      }
    }
    // Both stores give the same answer, item for item.
    if (JSON.stringify(answers.sqlite) !== JSON.stringify(answers.postgres)) {
      throw new Error(`${name}: the stores differ: ${JSON.stringify(answers)}`);
    }
    for (const [store, list] of Object.entries(times)) {
      list.sort((a, b) => a - b);
      const at = (p: number) => list[Math.floor(p * (list.length - 1))]!.toFixed(2);
      console.log(
        `${name} (${store}, ${answers[store]!.length} results): p50 ${at(0.5)} ms, p90 ${at(0.9)} ms, p99 ${at(0.99)} ms`,
      );
    }
  }
  console.log(
    `load ${loadavg()
      .map((n) => n.toFixed(2))
      .join(" ")}`,
  );
  await Promise.all(Object.values(servers).map((server) => server.close()));
} finally {
  cluster.stop();
  if (kept === undefined) await removeDir(dataDir);
}

/** Seeds SQLite in bulk and copies it into PostgreSQL database `name`; returns its URL. */
async function seed(name: string): Promise<string> {
  await rm(dataDir, { recursive: true, force: true });
  await mkdir(dataDir, { recursive: true });
  let began = performance.now();
  // Opened once through the store: the schema and the environment id.
  await (await openStore({ databaseUrl: null, pgPoolSize: 1, dataDir })).close();
  const file = join(dataDir, "chat.sqlite");
  const bulk = openDatabase(file);
  for (let from = 0; from < THREADS; from += SEED_BATCH) {
    bulkSeedSqlite(bulk, from, Math.min(THREADS, from + SEED_BATCH), TURNS);
  }
  bulk.close();
  const messages = THREADS * TURNS * 2;
  console.log(
    `seeded ${THREADS} threads, ${messages} messages (SQLite, indexed, bulk) in ${seconds(began)} s`,
  );
  began = performance.now();
  const databaseUrl = await cluster.createDatabase(name);
  const db = openDatabase(file);
  await importSqliteIntoPostgres(db, databaseUrl);
  db.close();
  console.log(`copied into PostgreSQL in ${seconds(began)} s`);

  if (kept !== undefined) writeFileSync(seededMark, name);
  return databaseUrl;
}

type Check = (body: unknown) => string[];

function threadIds(body: unknown): string[] {
  return ThreadListSchema.parse(body).threads.map((thread) => thread.id);
}

/** Each match as thread, message and ranges; a limited page says so. */
function matchIds(body: unknown): string[] {
  const page = AllThreadsSearchResponseSchema.parse(body);
  return page.groups
    .flatMap((g) =>
      g.matches.map((m) => `${g.thread.id}/${m.messageId}${JSON.stringify(m.ranges)}`),
    )
    .concat(page.limited ? [`limited: ${JSON.stringify(page.limited)}`] : []);
}

function seconds(since: number): string {
  return ((performance.now() - since) / 1000).toFixed(1);
}

/** The bulk path writes what the store's write path writes (a few threads, both ways). */
async function checkBulkSeed(): Promise<void> {
  const dirs = [await makeTempDir("chat-seed-a-"), await makeTempDir("chat-seed-b-")];
  try {
    const viaStore = await openStore({ databaseUrl: null, pgPoolSize: 1, dataDir: dirs[0]! });
    await seedThroughStore(viaStore, 0, 6, 3);
    await viaStore.close();
    await (await openStore({ databaseUrl: null, pgPoolSize: 1, dataDir: dirs[1]! })).close();
    const [a, b] = dirs.map((dir) => openDatabase(join(dir!, "chat.sqlite")));
    bulkSeedSqlite(b!, 0, 6, 3);
    const same = dumpSeededRows(a!) === dumpSeededRows(b!);
    a!.close();
    b!.close();
    if (!same) throw new Error("The bulk seed differs from the store's write path.");
  } finally {
    await Promise.all(dirs.map(removeDir));
  }
}
