/**
 * A chat server that streams 50,000-chunk replies back to back, in a process of its own (run by
 * environmentDuringReply.bench.ts), so the benchmark's client does not share its event loop.
 * The chunks come at full speed from a fake OpenAI-compatible server (in a worker thread, as a
 * real provider is another machine: floodServer.ts), through
 * the real `openai` adapter. `FLOODS=n` (default 1) runs n such loops at once, each on a thread
 * of its own. Prints `READY <url>` once the first reply of every loop streams; every reply is
 * checked whole; SIGTERM stops it and prints how many replies streamed.
 */

import { monitorEventLoopDelay } from "node:perf_hooks";
import { Worker } from "node:worker_threads";
import type { MessagePage, Thread } from "@app/protocol";
import { startServer } from "../../src/main.ts";
import { createOpenAiProvider } from "../../src/providers/openai.ts";
import { makeTempDir, removeDir } from "../../src/testing/harness.ts";

import { CHUNKS, chunk } from "./floodChunks.ts";

const expected = Array.from({ length: CHUNKS }, (_, i) => chunk(i)).join("");

// Node 20 workers do not inherit `--import tsx`: register it inside the worker first.
const floodWorker = new Worker(
  `import("tsx/esm/api").then((tsx) => { tsx.register(); return import(${JSON.stringify(
    new URL("./floodServer.ts", import.meta.url).href,
  )}); });`,
  { eval: true },
);
const fake = await new Promise<{ baseUrl: string }>((resolve, reject) => {
  floodWorker.once("message", resolve);
  floodWorker.once("error", reject);
});
const dataDir = await makeTempDir("chat-bench-stream-");
const server = await startServer({
  // DATABASE_URL: the same on PostgreSQL.
  env: process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL } : {},
  host: "127.0.0.1",
  port: 0,
  dataDir,
  adapter: createOpenAiProvider({ baseUrl: fake.baseUrl, model: "bench" }),
  webDist: dataDir,
  workspaceDir: dataDir,
  logLevel: "silent",
});

async function post<T>(path: string, body: unknown): Promise<T> {
  const res = await fetch(`${server.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`POST ${path} -> ${res.status}: ${await res.text()}`);
  return (await res.json()) as T;
}

const FLOODS = Number(process.env.FLOODS ?? 1);
/** The server's own event-loop stalls while flooded (printed at the end, in ms). */
const loopDelay = monitorEventLoopDelay({ resolution: 5 });
let replies = 0;
let running = true;
let started = 0;
const loops = Array.from({ length: FLOODS }, async () => {
  const thread = await post<Thread>("/api/threads", {});
  let mine = 0;
  while (running) {
    await post(`/api/threads/${thread.id}/turns`, { input: `reply ${mine}` });
    if (mine === 0 && ++started === FLOODS) {
      loopDelay.enable();
      console.log(`READY ${server.url}`);
    }
    // With several loops this also waits for the others' replies: they start together.
    await server.provider.whenIdle();
    const res = await fetch(`${server.url}/api/threads/${thread.id}/messages?limit=1`);
    const answer = ((await res.json()) as MessagePage).messages[0]!;
    if (answer.text !== expected) throw new Error(`reply ${replies} is not whole`);
    mine++;
    replies++;
  }
});

process.once("SIGTERM", async () => {
  running = false;
  await Promise.all(loops);
  loopDelay.disable();
  const ms = (ns: number) => (ns / 1e6).toFixed(1);
  console.log(
    `DONE ${replies} whole replies of ${CHUNKS} chunks; event-loop delay p50 ${ms(loopDelay.percentile(50))} p99 ${ms(loopDelay.percentile(99))} max ${ms(loopDelay.max)} ms`,
  );
  await server.close();
  const workerExited = new Promise((done) => floodWorker.once("exit", done));
  floodWorker.postMessage("close");
  await workerExited;
  await removeDir(dataDir);
  process.exit(0);
});
