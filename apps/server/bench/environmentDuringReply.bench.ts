/**
 * `GET /api/environment` while 50,000-chunk replies stream at full speed (target: p99 < 50 ms).
 * The server runs in its own process (support/streamingServer.ts): a fake OpenAI-compatible
 * server floods the real `openai` adapter, and every reply is checked whole. Storing a reply
 * costs O(chunk) per flush and stream parsing yields every few milliseconds, so one long reply
 * does not hold up other requests. The table's p99 column is the figure.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { afterAll, bench, describe } from "vitest";

const SERVER_DIR = resolve(import.meta.dirname, "..");
const child: ChildProcess = spawn(
  process.execPath,
  ["--import", "tsx", join(SERVER_DIR, "bench/support/streamingServer.ts")],
  { cwd: SERVER_DIR, stdio: ["ignore", "pipe", "inherit"] },
);
const lines = createInterface({ input: child.stdout! });
const url = await new Promise<string>((resolveUrl, reject) => {
  lines.on("line", (line) => {
    if (line.startsWith("READY ")) resolveUrl(line.slice(6));
    if (line.startsWith("DONE ")) console.log(line.slice(5));
  });
  child.once("exit", (code) => reject(new Error(`streaming server exited (${code})`)));
});

afterAll(async () => {
  const exited = new Promise((done) => child.once("exit", done));
  child.kill("SIGTERM");
  await exited;
});

describe("GET /api/environment during 50,000-chunk full-speed replies", () => {
  bench(
    "GET /api/environment",
    async () => {
      const res = await fetch(`${url}/api/environment`);
      await res.arrayBuffer();
    },
    { time: 5000, warmupIterations: 10 },
  );
});
