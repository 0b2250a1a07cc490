/**
 * `GET /api/environment` from another process while one or two 50,000-chunk replies stream at
 * full speed (issue 19 item 9: p99 < 50 ms with two floods). The server runs in a process of its
 * own (support/streamingServer.ts, `FLOODS=n` replies at once, each checked whole); this process
 * sends one request at a time for `seconds` and prints p50/p99/max, and the server's own
 * event-loop delay. Runs alternate between one and two floods, `runs` times each.
 *
 *   pnpm --filter @app/server exec tsx bench/environmentDuringFloods.ts [runs] [seconds]
 *
 * With DATABASE_URL set the server uses that PostgreSQL database.
 */
import { spawn } from "node:child_process";
import { join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { percentile } from "./support/percentile.ts";

const RUNS = Number(process.argv[2] ?? 2);
const SECONDS = Number(process.argv[3] ?? 8);
const SERVER_DIR = resolve(import.meta.dirname, "..");

async function measure(floods: number): Promise<string> {
  const child = spawn(
    process.execPath,
    ["--import", "tsx", join(SERVER_DIR, "bench/support/streamingServer.ts")],
    {
      cwd: SERVER_DIR,
      env: { ...process.env, FLOODS: String(floods) },
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  const lines = createInterface({ input: child.stdout! });
  let done = "";
  const url = await new Promise<string>((resolveUrl, reject) => {
    lines.on("line", (line) => {
      if (line.startsWith("READY ")) resolveUrl(line.slice(6));
      if (line.startsWith("DONE ")) done = line.slice(5);
    });
    child.once("exit", (code) => reject(new Error(`streaming server exited (${code})`)));
  });
  const times: number[] = [];
  const end = performance.now() + SECONDS * 1000;
  while (performance.now() < end) {
    const began = performance.now();
    const res = await fetch(`${url}/api/environment`);
    await res.arrayBuffer();
    times.push(performance.now() - began);
  }
  const exited = new Promise((resolveExit) => child.once("exit", resolveExit));
  child.kill("SIGTERM");
  await exited;
  const f = (p: number) => percentile(times, p).toFixed(1);
  return `${floods} flood(s): ${times.length} requests, p50 ${f(50)} p99 ${f(99)} max ${Math.max(...times).toFixed(1)} ms | server: ${done}`;
}

for (let run = 0; run < RUNS; run++) {
  for (const floods of [1, 2]) console.log(await measure(floods));
}
