/**
 * The stall bench (issue 33): `GET /api/environment`, one request at a time from this process,
 * while the server (a process of its own, support/streamingServer.ts) streams replies from an
 * OpenAI-compatible fake provider in a third process, each reply checked whole. Targets: p99
 * < 50 ms and max < 100 ms in every scenario, on both stores:
 *
 * - `50k`: 50,000-chunk replies (600,000 characters) back to back;
 * - `1m`: 1,000,000-character replies (1,000 chunks) back to back, so each one's finish and its
 *   search-index write fall inside the window;
 * - `tiny`: 200,000 one-character chunks per reply;
 * - `search`: `50k` while 4 clients of this process search the replies' thread without pause.
 *
 * Prints each figure next to its target, the machine's load average before and after, and the
 * server's own figures (event-loop delay, and its main thread's CPU per loop turn, which does not
 * grow with other processes' load).
 *
 *   pnpm --filter @app/server exec tsx bench/stall.ts [seconds] [scenarios]
 *
 * `STORE=postgres` runs on a throwaway PostgreSQL cluster (a new database per scenario), or on
 * `DATABASE_URL` when that is set; otherwise SQLite.
 */
import { spawn } from "node:child_process";
import { loadavg } from "node:os";
import { join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { startPostgresCluster } from "../src/testing/postgresCluster.ts";
import { percentile } from "./support/percentile.ts";

const SECONDS = Number(process.argv[2] ?? 10);
const SCENARIOS = (process.argv[3] ?? "50k,1m,tiny,search").split(",");
const SEARCHERS = 4;
const SERVER_DIR = resolve(import.meta.dirname, "..");
const QUERIES: Record<string, string> = { "50k": "chunk 00042", tiny: "klmn", "1m": "0999lorem" };

const cluster =
  process.env.STORE === "postgres" && !process.env.DATABASE_URL
    ? await startPostgresCluster()
    : null;
const load = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(", ");

async function measure(scenario: string): Promise<void> {
  const flood = scenario === "search" ? "50k" : scenario;
  const databaseUrl =
    process.env.DATABASE_URL ??
    (await cluster?.createDatabase(`stall_${scenario.replace(/\W/g, "_")}`)) ??
    undefined;
  const loadBefore = load();
  const child = spawn(
    process.execPath,
    [
      // SERVER_NODE_ARGS: extra Node flags for the server process (e.g. `--cpu-prof`).
      ...(process.env.SERVER_NODE_ARGS ?? "").split(" ").filter(Boolean),
      "--import",
      "tsx",
      join(SERVER_DIR, "bench/support/streamingServer.ts"),
    ],
    {
      cwd: SERVER_DIR,
      env: {
        ...process.env,
        FLOOD: flood,
        FLOODS: "1",
        ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
      },
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  const lines = createInterface({ input: child.stdout! });
  let done = "";
  let threadId = "";
  const url = await new Promise<string>((resolveUrl, reject) => {
    lines.on("line", (line) => {
      if (line.startsWith("THREAD ")) threadId = line.slice(7);
      if (line.startsWith("READY ")) resolveUrl(line.slice(6));
      if (line.startsWith("DONE ")) done = line.slice(5);
    });
    child.once("exit", (code) => reject(new Error(`streaming server exited (${code})`)));
  });
  let running = true;
  let searches = 0;
  const searchTimes: number[] = [];
  const searchers =
    scenario === "search"
      ? Array.from({ length: SEARCHERS }, async () => {
          const q = encodeURIComponent(QUERIES[flood]!);
          while (running) {
            const began = performance.now();
            const res = await fetch(`${url}/api/threads/${threadId}/search?q=${q}&limit=100`);
            if (!res.ok) throw new Error(`search -> ${res.status}`);
            await res.arrayBuffer();
            searchTimes.push(performance.now() - began);
            searches++;
          }
        })
      : [];
  const times: number[] = [];
  const end = performance.now() + SECONDS * 1000;
  while (performance.now() < end) {
    const began = performance.now();
    const res = await fetch(`${url}/api/environment`);
    await res.arrayBuffer();
    times.push(performance.now() - began);
  }
  running = false;
  await Promise.all(searchers);
  const exited = new Promise((resolveExit) => child.once("exit", resolveExit));
  child.kill("SIGTERM");
  await exited;
  const p99 = percentile(times, 99);
  const max = Math.max(...times);
  const verdict = (value: number, target: number) =>
    `${value.toFixed(1)} ms (target < ${target}: ${value < target ? "met" : "MISSED"})`;
  const store = databaseUrl ? "PostgreSQL" : "SQLite";
  console.log(
    `${store}, ${scenario}: ${times.length} requests in ${SECONDS} s, p50 ${percentile(times, 50).toFixed(1)} ms, ` +
      `p99 ${verdict(p99, 50)}, max ${verdict(max, 100)}` +
      (scenario === "search"
        ? `; ${searches} searches by ${SEARCHERS} clients, p50 ${percentile(searchTimes, 50).toFixed(1)} ms`
        : "") +
      `; load ${loadBefore} -> ${load()}\n  server: ${done}`,
  );
}

try {
  for (const scenario of SCENARIOS) await measure(scenario);
} finally {
  cluster?.stop();
}
