/**
 * Scale-out throughput: clients x 20 turns over real HTTP against server processes, each client
 * on its own process in turn, five clients per thread. Two processes on one PostgreSQL
 * database (50 clients each) next to one process on SQLite (50 clients), both with the demo
 * provider streaming without delays. Each run checks that nothing was lost: every prompt
 * stored once, every turn completed with its answer. Needs PostgreSQL (a throwaway cluster).
 */
import type { MessagePage, Thread, ThreadDetail } from "@app/protocol";
import { afterAll, bench, describe } from "vitest";
import { makeTempDir, removeDir } from "../src/testing/harness.ts";
import { startPostgresCluster } from "../src/testing/postgresCluster.ts";
import {
  requestJson,
  type ServerProcess,
  startServerProcess,
} from "../src/testing/serverProcess.ts";

const CLIENTS_PER_PROCESS = 50;
const TURNS_PER_CLIENT = 20;
const CLIENTS_PER_THREAD = 5;

const cluster = await startPostgresCluster();
const pgDir = await makeTempDir("chat-bench-pg-");
const sqliteDir = await makeTempDir("chat-bench-sqlite-");
const common = { DEMO_CHUNK_DELAY_MS: "0", WEB_DIST: `${pgDir}/none` };
const databaseUrl = await cluster.createDatabase("bench");
const pgProcesses = await Promise.all([
  startServerProcess({ ...common, DATABASE_URL: databaseUrl, DATA_DIR: pgDir }),
  startServerProcess({ ...common, DATABASE_URL: databaseUrl, DATA_DIR: pgDir }),
]);
const sqliteProcess = await startServerProcess({ ...common, DATA_DIR: sqliteDir });

afterAll(async () => {
  await Promise.all([...pgProcesses, sqliteProcess].map((p) => p.kill()));
  cluster.stop();
  await Promise.all([removeDir(pgDir), removeDir(sqliteDir)]);
});

let run = 0;

/** All turns sent and answered; throws if anything was lost. Returns turns per second. */
async function load(processes: ServerProcess[]): Promise<number> {
  run++;
  const clients = CLIENTS_PER_PROCESS * processes.length;
  const first = processes[0]!;
  const threads = await Promise.all(
    Array.from({ length: clients / CLIENTS_PER_THREAD }, () =>
      requestJson<Thread>(first, "/api/threads", {}),
    ),
  );
  const began = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async (_, client) => {
      const thread = threads[client % threads.length]!;
      for (let turn = 0; turn < TURNS_PER_CLIENT; turn++) {
        const server = processes[(client + turn) % processes.length]!;
        await requestJson(server, `/api/threads/${thread.id}/turns`, {
          input: `run ${run} client ${client} turn ${turn}`,
        });
      }
    }),
  );
  // Done when no thread has an unfinished turn left.
  for (const thread of threads) {
    for (;;) {
      const detail = await requestJson<ThreadDetail>(first, `/api/threads/${thread.id}`);
      if (detail.activeTurn === null) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
  const seconds = (performance.now() - began) / 1000;
  const perThread = CLIENTS_PER_THREAD * TURNS_PER_CLIENT;
  for (const thread of threads) {
    const messages: MessagePage["messages"] = [];
    let cursor: string | null = null;
    do {
      const query = cursor === null ? "" : `&before=${cursor}`;
      const page: MessagePage = await requestJson(
        first,
        `/api/threads/${thread.id}/messages?limit=200${query}`,
      );
      messages.unshift(...page.messages);
      cursor = page.nextCursor;
    } while (cursor !== null);
    const prompts = messages.filter((m) => m.kind === "prompt");
    const answered = new Set(
      messages.filter((m) => m.kind === "answer" && m.status === "complete").map((m) => m.turnId),
    );
    if (prompts.length !== perThread || new Set(prompts.map((m) => m.text)).size !== perThread) {
      throw new Error(`thread ${thread.id}: ${prompts.length} prompts, expected ${perThread}`);
    }
    if (answered.size !== perThread) {
      throw new Error(`thread ${thread.id}: ${answered.size} answers, expected ${perThread}`);
    }
  }
  const turnsPerSecond = (clients * TURNS_PER_CLIENT) / seconds;
  console.log(
    `${processes.length} process(es), ${clients} clients: ${clients * TURNS_PER_CLIENT} turns, 0 lost, ${turnsPerSecond.toFixed(0)} turns/s`,
  );
  return turnsPerSecond;
}

describe(`scale-out: ${CLIENTS_PER_PROCESS} clients per process x ${TURNS_PER_CLIENT} turns over HTTP (demo provider)`, () => {
  bench("two processes on PostgreSQL", () => load(pgProcesses).then(() => {}), {
    iterations: 3,
    warmupIterations: 0,
    time: 0,
  });
  bench("one process on SQLite", () => load([sqliteProcess]).then(() => {}), {
    iterations: 3,
    warmupIterations: 0,
    time: 0,
  });
});
