/**
 * A chat server that streams 50,000-chunk replies back to back, in a process of its own (run by
 * environmentDuringReply.bench.ts), so the benchmark's client does not share its event loop.
 * The chunks come at full speed from a fake OpenAI-compatible server (in a worker thread, as a
 * real provider is another machine: floodServer.ts), through
 * the real `openai` adapter. Prints `READY <url>` once the first reply streams; every reply is
 * checked whole; SIGTERM stops it and prints how many replies streamed.
 */

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
  env: {},
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

const thread = await post<Thread>("/api/threads", {});
let replies = 0;
let running = true;
const loop = (async () => {
  while (running) {
    await post(`/api/threads/${thread.id}/turns`, { input: `reply ${replies}` });
    if (replies === 0) console.log(`READY ${server.url}`);
    await server.provider.whenIdle();
    const res = await fetch(`${server.url}/api/threads/${thread.id}/messages?limit=1`);
    const answer = ((await res.json()) as MessagePage).messages[0]!;
    if (answer.text !== expected) throw new Error(`reply ${replies} is not whole`);
    replies++;
  }
})();

process.once("SIGTERM", async () => {
  running = false;
  await loop;
  console.log(`DONE ${replies} whole replies of ${CHUNKS} chunks`);
  await server.close();
  const workerExited = new Promise((done) => floodWorker.once("exit", done));
  floodWorker.postMessage("close");
  await workerExited;
  await removeDir(dataDir);
  process.exit(0);
});
