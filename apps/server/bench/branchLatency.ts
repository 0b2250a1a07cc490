/**
 * Branch in new thread (issue 30): the latency of one request (`POST /api/threads/:id/branch`,
 * over real HTTP on 127.0.0.1) on the seeded 2,000-turn thread (4,400 messages), at turn 1,000
 * (2,200 messages copied) and at the newest message (4,400), on SQLite or, with
 * BENCH_STORE=postgres, PostgreSQL (a throwaway cluster). The copies' search texts are indexed
 * in the background after each branch; the script waits for that before the next sample, so a
 * sample times one request alone. A benchmark, not a timed test: figures go to PERFORMANCE.md.
 *
 *   pnpm --filter @app/server exec tsx bench/branchLatency.ts [samples]
 *   BENCH_STORE=postgres pnpm --filter @app/server exec tsx bench/branchLatency.ts [samples]
 */
import { join } from "node:path";
import type { ThreadSearchResponse } from "@app/protocol";
import { startServer } from "../src/main.ts";
import { seedDemoThread } from "../src/seed.ts";
import { openDatabase } from "../src/storage/db.ts";
import { openStore } from "../src/storage/openStore.ts";
import { importSqliteIntoPostgres } from "../src/storage/postgres/importSqlite.ts";
import { makeTempDir, RecordingAdapter, removeDir } from "../src/testing/harness.ts";
import { startPostgresCluster } from "../src/testing/postgresCluster.ts";
import { percentile } from "./support/percentile.ts";

const samples = Number(process.argv[2] ?? 20);
const TURNS = 2_000;
const cluster = process.env.BENCH_STORE === "postgres" ? await startPostgresCluster() : null;
const databaseUrl = cluster ? await cluster.createDatabase("branch") : null;
const dataDir = await makeTempDir("chat-bench-branch-");
try {
  const seeded = await openStore({ databaseUrl: null, pgPoolSize: 1, dataDir });
  const threadId = await seedDemoThread(seeded, { turns: TURNS });
  await seeded.close();
  if (databaseUrl !== null) {
    const db = openDatabase(join(dataDir, "chat.sqlite"));
    await importSqliteIntoPostgres(db, databaseUrl);
    db.close();
  }
  const server = await startServer({
    env: {},
    host: "127.0.0.1",
    port: 0,
    dataDir,
    databaseUrl,
    adapter: new RecordingAdapter(),
    webDist: dataDir,
    workspaceDir: dataDir,
    logLevel: "silent",
  });
  const get = async <T>(path: string) => (await (await fetch(`${server.url}${path}`)).json()) as T;
  const search = await get<ThreadSearchResponse>(
    `/api/threads/${threadId}/search?q=${encodeURIComponent("Turn 1000:")}&case=1`,
  );
  const turn1000 = search.matches[0]!.messageId;
  const newest = (
    await get<{ messages: { id: string }[] }>(`/api/threads/${threadId}/messages?limit=1`)
  ).messages[0]!.id;
  for (const [name, messageId, lastWords] of [
    ["at turn 1,000 (2,200 messages copied)", turn1000, "Turn 1000:"],
    ["at the newest message (4,400 messages copied)", newest, "Answer 2000 looks"],
  ] as const) {
    const times: number[] = [];
    for (let i = 0; i < samples + 2; i++) {
      const began = performance.now();
      const res = await fetch(`${server.url}/api/threads/${threadId}/branch`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ messageId }),
      });
      const elapsed = performance.now() - began;
      if (res.status !== 201) throw new Error(`branch -> ${res.status}: ${await res.text()}`);
      const { thread } = (await res.json()) as { thread: { id: string } };
      if (i >= 2) times.push(elapsed); // two warm-up requests
      // The background indexing of this branch's copies ends before the next sample.
      await waitForIndexed(thread.id, lastWords);
    }
    const fmt = (p: number) => percentile(times, p).toFixed(1);
    console.log(
      `${databaseUrl ? "postgres" : "sqlite"} branch ${name}: p50 ${fmt(50)} ms, p90 ${fmt(90)} ms, max ${fmt(100)} ms (${times.length} samples)`,
    );
  }
  await server.close();

  /** Polls the branch's search until its last copy is found (indexed, in queue order). */
  async function waitForIndexed(branchId: string, words: string): Promise<void> {
    for (;;) {
      const found = await get<ThreadSearchResponse>(
        `/api/threads/${branchId}/search?q=${encodeURIComponent(words)}&case=1`,
      );
      if (found.matches.length > 0) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
} finally {
  cluster?.stop();
  await removeDir(dataDir);
}
