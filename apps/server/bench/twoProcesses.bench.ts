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
 * It also prints how busy the whole machine was (/proc/stat: servers, cluster, these clients and
 * the kernel's work for them) and its CPU per turn. turns/s = busy x cores / CPU per turn, so
 * when one process already keeps the machine busy, two can only be faster by costing less CPU
 * per turn: the ratio line splits two / one into those two factors.
 *
 *   BENCH_ITERATIONS=1 pnpm exec vitest bench --run --config vitest.workspace.ts --project server \
 *     apps/server/bench/twoProcesses.bench.ts        (from the root; default 3 iterations)
 *
 * `SERVER_NODE_ARGS="--cpu-prof --cpu-prof-dir=DIR"` profiles every server process (written
 * when it stops); `-t "two processes"` runs only the two-process case. `BENCH_PG_STATEMENTS=1`
 * loads `pg_stat_statements` into the cluster and prints, after each PostgreSQL run, the
 * statements a turn runs: calls and execution time per turn, the busiest first (it costs some
 * CPU of its own, so turns/s figures come from runs without it).
 */
import { readdirSync, readFileSync } from "node:fs";
import { availableParallelism, loadavg } from "node:os";
import type { MessagePage, Thread, ThreadDetail } from "@app/protocol";
import pg from "pg";
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

const STATEMENTS = process.env.BENCH_PG_STATEMENTS === "1";
const cluster = await startPostgresCluster(
  STATEMENTS
    ? {
        settings: [
          "shared_preload_libraries=pg_stat_statements",
          "pg_stat_statements.track=all",
          "pg_stat_statements.track_planning=on",
          "track_functions=all",
        ],
      }
    : {},
);
const pgDir = await makeTempDir("chat-bench-pg-");
const sqliteDir = await makeTempDir("chat-bench-sqlite-");
const common = { DEMO_CHUNK_DELAY_MS: "0", WEB_DIST: `${pgDir}/none` };
const databaseUrl = await cluster.createDatabase("bench");
const pgProcesses = await Promise.all([
  startServerProcess({ ...common, DATABASE_URL: databaseUrl, DATA_DIR: pgDir }),
  startServerProcess({ ...common, DATABASE_URL: databaseUrl, DATA_DIR: pgDir }),
]);
const sqliteProcess = await startServerProcess({ ...common, DATA_DIR: sqliteDir });
const statements = STATEMENTS ? new pg.Client({ connectionString: databaseUrl }) : null;
if (statements) {
  await statements.connect();
  await statements.query("CREATE EXTENSION IF NOT EXISTS pg_stat_statements");
}

/** Resets `pg_stat_statements` (with BENCH_PG_STATEMENTS=1). */
async function resetStatements(): Promise<void> {
  await statements?.query("SELECT pg_stat_statements_reset()");
}

type StatementRow = { toplevel: boolean; calls: string; ms: number; rows: string; query: string };

/** The statements run since the reset (with BENCH_PG_STATEMENTS=1). */
async function statementsSoFar(): Promise<StatementRow[]> {
  if (!statements) return [];
  const { rows } = await statements.query<StatementRow>(
    `SELECT toplevel, calls, total_exec_time + total_plan_time AS ms, rows, query
     FROM pg_stat_statements
     WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
       AND query NOT LIKE '%pg_stat_statements%'
     ORDER BY toplevel DESC, total_exec_time DESC`,
  );
  return rows;
}

/** Prints the statements of a run per turn (with BENCH_PG_STATEMENTS=1). */
function printStatements(rows: StatementRow[], turns: number): void {
  if (!statements) return;
  const top = rows.filter((row) => row.toplevel);
  const sum = (list: typeof rows, f: (row: (typeof rows)[number]) => number) =>
    list.reduce((a, row) => a + f(row), 0);
  console.log(
    `statements per turn: ${(sum(top, (r) => Number(r.calls)) / turns).toFixed(1)} sent, ` +
      `${(sum(top, (r) => r.ms) / turns).toFixed(2)} ms executing (planning included)`,
  );
  for (const row of rows) {
    const calls = Number(row.calls) / turns;
    if (calls < 0.005 && row.ms / turns < 0.005) continue;
    console.log(
      `  ${row.toplevel ? "" : "(nested) "}${calls.toFixed(2)} calls, ${(row.ms / turns).toFixed(3)} ms, ${(Number(row.rows) / turns).toFixed(2)} rows: ${row.query.replace(/\s+/g, " ").slice(0, 160)}`,
    );
  }
}
const sqliteProcessList = [sqliteProcess];

afterAll(async () => {
  await statements?.end();
  await Promise.all([...pgProcesses, sqliteProcess].map((p) => p.kill()));
  cluster.stop();
  await Promise.all([removeDir(pgDir), removeDir(sqliteDir)]);
});

let run = 0;
/** The last two-process figure, for the ratio printed after a one-process run. */
let lastTwo = Number.NaN;
/** The last two-process run's machine figures, for the same line. */
let lastTwoMachine = { busy: Number.NaN, msPerTurn: Number.NaN };

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

/**
 * The whole machine's busy and total CPU time (clock ticks, all cores) from /proc/stat, null off
 * Linux: how busy a run kept the machine (servers, cluster, clients and anything else).
 */
function machineTicks(): { busy: number; total: number } | null {
  try {
    const line = readFileSync("/proc/stat", "utf8").split("\n")[0]!;
    // user nice system idle iowait irq softirq steal (guest time is inside user already).
    const ticks = line.trim().split(/\s+/).slice(1, 9).map(Number);
    const total = ticks.reduce((a, b) => a + b, 0);
    return { busy: total - ticks[3]! - ticks[4]!, total };
  } catch {
    return null;
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
 * CPU time (ms) of the PostgreSQL cluster by process: the postmaster with the children it reaped
 * (key "reaped"), and each live child (backends, writers) by pid. Empty off Linux.
 */
function postgresCpuByPid(): Map<string, number> {
  const byPid = new Map<string, number>();
  const postmaster = cluster.postmasterPid();
  const own = postmaster === null ? null : statFields(postmaster);
  if (!own) return byPid;
  byPid.set("postmaster", ((Number(own[11]) + Number(own[12])) * 1000) / 100);
  byPid.set("reaped", ((Number(own[13]) + Number(own[14])) * 1000) / 100);
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const fields = statFields(entry);
    if (fields && Number(fields[1]) === postmaster) {
      byPid.set(entry, ((Number(fields[11]) + Number(fields[12])) * 1000) / 100);
    }
  }
  return byPid;
}

/** The cluster's CPU (ms) between two {@link postgresCpuByPid} snapshots; NaN off Linux. */
function postgresCpuMs(before: Map<string, number>, after: Map<string, number>): number {
  if (after.size === 0) return Number.NaN;
  let ms = 0;
  for (const [pid, cpu] of after) ms += cpu - (before.get(pid) ?? 0);
  return ms;
}

/**
 * With BENCH_PG_STATEMENTS=1: the cluster's CPU per turn by kind of process (pool backends,
 * LISTEN backends, each auxiliary process, exited children), from `pg_stat_activity`.
 */
async function printPostgresCpu(
  before: Map<string, number>,
  after: Map<string, number>,
  turns: number,
): Promise<void> {
  if (!statements) return;
  const { rows } = await statements.query<{ pid: number; kind: string }>(
    `SELECT pid, CASE WHEN backend_type <> 'client backend' THEN backend_type
       WHEN query LIKE 'LISTEN%' THEN 'LISTEN backend' ELSE 'other backend' END AS kind
     FROM pg_stat_activity`,
  );
  const tables = await statements.query<{
    relname: string;
    ins: string;
    upd: string;
    hot: string;
    del: string;
    vacuums: string;
    analyzes: string;
  }>(
    `SELECT relname, n_tup_ins AS ins, n_tup_upd AS upd, n_tup_hot_upd AS hot, n_tup_del AS del,
       autovacuum_count AS vacuums, autoanalyze_count AS analyzes
     FROM pg_stat_user_tables WHERE n_tup_ins + n_tup_upd + n_tup_del > 0 ORDER BY relname`,
  );
  console.log(
    `tables (since the database was made: inserted/updated/HOT/deleted rows, autovacuums/analyzes): ${tables.rows
      .map((t) => `${t.relname} ${t.ins}/${t.upd}/${t.hot}/${t.del} ${t.vacuums}/${t.analyzes}`)
      .join("; ")}`,
  );
  const kinds = new Map(rows.map((row) => [String(row.pid), row.kind]));
  const byKind = new Map<string, number>();
  for (const [pid, cpu] of after) {
    const kind = kinds.get(pid) ?? (pid === "reaped" || pid === "postmaster" ? pid : "gone");
    byKind.set(kind, (byKind.get(kind) ?? 0) + cpu - (before.get(pid) ?? 0));
  }
  console.log(
    `PostgreSQL CPU per turn by process: ${[...byKind]
      .sort((a, b) => b[1] - a[1])
      .map(([kind, ms]) => `${kind} ${(ms / turns).toFixed(2)} ms`)
      .join(", ")}`,
  );
}

/** All turns sent and answered; throws if anything was lost. Returns turns per second. */
async function load(
  processes: ServerProcess[],
  clients = CLIENTS_PER_PROCESS * processes.length,
): Promise<number> {
  run++;
  const cpuBefore = processes.map((p) => processCpuMs(p.child.pid));
  const loopBefore = processes.map((p) => mainThreadCpuMs(p.child.pid));
  const onPostgres = processes !== sqliteProcessList;
  if (onPostgres) await resetStatements();
  const pgBefore = postgresCpuByPid();
  const machineBefore = machineTicks();
  const clientsBefore = process.cpuUsage();
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
  const machineAfter = machineTicks();
  const clientsUsage = process.cpuUsage(clientsBefore);
  // The turns' statements, before the checks below read the threads.
  const ran = onPostgres ? await statementsSoFar() : [];
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
  const pgAfter = onPostgres ? postgresCpuByPid() : pgBefore;
  const pgPerTurn = onPostgres ? postgresCpuMs(pgBefore, pgAfter) / turns : 0;
  // Turns/s the CPU allows with every core busy (clients not counted), and no event loop
  // busier than one core.
  const ceiling = (cores: number) =>
    Math.min(loopCeiling, (1000 * cores) / (cpuPerTurn + pgPerTurn)).toFixed(0);
  // The whole machine (servers, cluster, these clients, the kernel's work for them): how busy it
  // was, and its CPU per turn (clock ticks are 10 ms on Linux).
  const busy =
    machineBefore && machineAfter
      ? (machineAfter.busy - machineBefore.busy) / (machineAfter.total - machineBefore.total)
      : Number.NaN;
  const machineMsPerTurn =
    machineBefore && machineAfter
      ? ((machineAfter.busy - machineBefore.busy) * 10) / turns
      : Number.NaN;
  const clientsPerTurn = (clientsUsage.user + clientsUsage.system) / 1000 / turns;
  console.log(
    `${processes.length} process(es), ${clients} clients: ${turns} turns, 0 lost, ${turnsPerSecond.toFixed(0)} turns/s; ` +
      `server CPU per turn ${cpuPerTurn.toFixed(2)} ms (per process: ${cpu.map((ms) => `${(ms / turns).toFixed(2)} ms/turn, ${(ms / 1000).toFixed(1)} s`).join("; ")}, checks included)` +
      `; event loop ${loop.map((ms) => (ms / turns).toFixed(2)).join(" + ")} ms per turn (alone it allows ${loopCeiling.toFixed(0)} turns/s)` +
      (onPostgres ? `, PostgreSQL ${pgPerTurn.toFixed(2)} ms per turn` : "") +
      `; clients (the bench's own process) ${clientsPerTurn.toFixed(2)} ms per turn` +
      `; CPU ceiling ${ceiling(2)} turns/s on 2 cores, ${ceiling(4)} on 4` +
      `; machine ${(busy * 100).toFixed(0)}% busy (${availableParallelism()} cores), ${machineMsPerTurn.toFixed(2)} ms of its CPU per turn; load ${loadavg()[0]!.toFixed(1)}`,
  );
  if (onPostgres) {
    printStatements(ran, turns);
    await printPostgresCpu(pgBefore, pgAfter, turns);
  }
  if (processes === pgProcesses) {
    lastTwo = turnsPerSecond;
    lastTwoMachine = { busy, msPerTurn: machineMsPerTurn };
  }
  if (processes.length === 1 && processes[0] === pgProcesses[0]) {
    console.log(
      `two / one PostgreSQL process: ${(lastTwo / turnsPerSecond).toFixed(2)}x (target >= 1.6x) = ` +
        `busy ${(lastTwoMachine.busy * 100).toFixed(0)}% / ${(busy * 100).toFixed(0)}% ` +
        `x machine CPU per turn ${machineMsPerTurn.toFixed(2)} / ${lastTwoMachine.msPerTurn.toFixed(2)} ms ` +
        `(one process left ${((1 - busy) * 100).toFixed(0)}% of the machine for a second to use)`,
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
