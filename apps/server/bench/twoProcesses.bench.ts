/**
 * Scale-out throughput: clients x 20 turns over real HTTP against server processes, each client
 * on its own process in turn, five clients per thread. Two processes on one PostgreSQL
 * database (50 clients each) next to one process on SQLite (50 clients), both with the demo
 * provider streaming without delays. Each run checks that nothing was lost: every prompt
 * stored once, every turn completed with its answer. Needs PostgreSQL (a throwaway cluster).
 *
 * Issue 33: also one PostgreSQL process with the same 100 clients as the two (target: two
 * processes >= 1.6x one), and each server process's CPU per turn (/proc/<pid>/stat, so a
 * 2-core machine's limit is visible: turns/s <= cores / CPU per turn of all processes), with
 * the PostgreSQL cluster's own CPU per turn beside it (the postmaster, its live children and
 * the children it reaped), each process's event loop (main thread) CPU per turn, and the ceiling
 * they imply on 2 and on 4 cores: all CPU over the cores, and no event loop past one core.
 *
 *   BENCH_ITERATIONS=1 pnpm exec vitest bench --run --config vitest.workspace.ts --project server \
 *     apps/server/bench/twoProcesses.bench.ts        (from the root; default 3 iterations)
 *
 * `SERVER_NODE_ARGS="--cpu-prof --cpu-prof-dir=DIR"` profiles every server process (written
 * when it stops); `-t "two processes"` runs only the two-process case.
 */
import { readdirSync, readFileSync } from "node:fs";
import { loadavg } from "node:os";
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
const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 3);

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
const sqliteProcessList = [sqliteProcess];

afterAll(async () => {
  await Promise.all([...pgProcesses, sqliteProcess].map((p) => p.kill()));
  cluster.stop();
  await Promise.all([removeDir(pgDir), removeDir(sqliteDir)]);
});

let run = 0;
/** The last two-process figure, for the ratio printed after a one-process run. */
let lastTwo = Number.NaN;

/** CPU time (ms) a process has used (Linux), NaN elsewhere. */
function processCpuMs(pid: number | undefined): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    // utime and stime, fields 14 and 15 of stat (11 and 12 after the command name).
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return Number.NaN;
  }
}

/** CPU time (ms) of a process's main thread (its event loop), NaN off Linux. */
function mainThreadCpuMs(pid: number | undefined): number {
  const fields = pid === undefined ? null : statFields(`${pid}/task/${pid}`);
  return fields ? ((Number(fields[11]) + Number(fields[12])) * 1000) / 100 : Number.NaN;
}

/** stat fields after the command name: [2] ppid, [11] utime, [12] stime, [13] cutime, [14] cstime. */
function statFields(pid: number | string): string[] | null {
  try {
    return readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  } catch {
    return null;
  }
}

/**
 * CPU time (ms) of the PostgreSQL cluster: the postmaster with the children it reaped, and its
 * live children (backends, writers). NaN off Linux.
 */
function postgresCpuMs(): number {
  const postmaster = cluster.postmasterPid();
  const own = postmaster === null ? null : statFields(postmaster);
  if (!own) return Number.NaN;
  let ticks = Number(own[11]) + Number(own[12]) + Number(own[13]) + Number(own[14]);
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const fields = statFields(entry);
    if (fields && Number(fields[1]) === postmaster) {
      ticks += Number(fields[11]) + Number(fields[12]);
    }
  }
  return (ticks * 1000) / 100;
}

/** All turns sent and answered; throws if anything was lost. Returns turns per second. */
async function load(
  processes: ServerProcess[],
  clients = CLIENTS_PER_PROCESS * processes.length,
): Promise<number> {
  run++;
  const cpuBefore = processes.map((p) => processCpuMs(p.child.pid));
  const loopBefore = processes.map((p) => mainThreadCpuMs(p.child.pid));
  const pgBefore = postgresCpuMs();
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
  const turns = clients * TURNS_PER_CLIENT;
  const turnsPerSecond = turns / seconds;
  const cpu = processes.map((p, i) => processCpuMs(p.child.pid) - cpuBefore[i]!);
  // Each event loop is one core at most: these turns took the busiest one `loop` ms of it.
  const loop = processes.map((p, i) => mainThreadCpuMs(p.child.pid) - loopBefore[i]!);
  const loopCeiling = (turns * 1000) / Math.max(...loop);
  const cpuPerTurn = cpu.reduce((a, b) => a + b, 0) / turns;
  const onPostgres = processes !== sqliteProcessList;
  const pgPerTurn = onPostgres ? (postgresCpuMs() - pgBefore) / turns : 0;
  // Turns/s the CPU allows with every core busy (clients not counted), and no event loop
  // busier than one core.
  const ceiling = (cores: number) =>
    Math.min(loopCeiling, (1000 * cores) / (cpuPerTurn + pgPerTurn)).toFixed(0);
  console.log(
    `${processes.length} process(es), ${clients} clients: ${turns} turns, 0 lost, ${turnsPerSecond.toFixed(0)} turns/s; ` +
      `server CPU per turn ${cpuPerTurn.toFixed(2)} ms (per process: ${cpu.map((ms) => `${(ms / turns).toFixed(2)} ms/turn, ${(ms / 1000).toFixed(1)} s`).join("; ")}, checks included)` +
      `; event loop ${loop.map((ms) => (ms / turns).toFixed(2)).join(" + ")} ms per turn (alone it allows ${loopCeiling.toFixed(0)} turns/s)` +
      (onPostgres ? `, PostgreSQL ${pgPerTurn.toFixed(2)} ms per turn` : "") +
      `; CPU ceiling ${ceiling(2)} turns/s on 2 cores, ${ceiling(4)} on 4; load ${loadavg()[0]!.toFixed(1)}`,
  );
  if (processes === pgProcesses) lastTwo = turnsPerSecond;
  if (processes.length === 1 && processes[0] === pgProcesses[0]) {
    console.log(
      `two / one PostgreSQL process: ${(lastTwo / turnsPerSecond).toFixed(2)}x (target >= 1.6x)`,
    );
  }
  return turnsPerSecond;
}

describe(`scale-out: ${CLIENTS_PER_PROCESS} clients per process x ${TURNS_PER_CLIENT} turns over HTTP (demo provider)`, () => {
  bench("two processes on PostgreSQL", () => load(pgProcesses).then(() => {}), {
    iterations: ITERATIONS,
    warmupIterations: 0,
    warmupTime: 0,
    time: 0,
  });
  bench(
    "one process on PostgreSQL, the same 100 clients",
    () => load([pgProcesses[0]!], CLIENTS_PER_PROCESS * 2).then(() => {}),
    { iterations: ITERATIONS, warmupIterations: 0, warmupTime: 0, time: 0 },
  );
  bench("one process on SQLite", () => load(sqliteProcessList).then(() => {}), {
    iterations: ITERATIONS,
    warmupIterations: 0,
    warmupTime: 0,
    time: 0,
  });
});
