// Standalone run of the concurrentClients scenario (same checks), for A/B and --cpu-prof.
// node --import tsx bench/compare/concurrent.mjs [runs]   (INLINE_CLIENTS=1: clients on the server's thread;
// CLIENTS=N: N clients on N threads instead of 50, to tell a CPU limit from a latency one)
// DATABASE_URL=...: the same on PostgreSQL.
// Every prompt is checked to be stored once, in order, and every answer to be exactly the demo
// provider's answer to it. Prints turns/s next to the target (issue 33: >= 1,000 turns/s), the
// server thread's CPU per turn (its event loop, read from /proc/thread-self/schedstat, so other
// processes' load does not count) and the whole process's (clients' and indexer's threads too).
import { readdirSync, readFileSync } from "node:fs";
import { Worker } from "node:worker_threads";
import { startServer } from "../../src/main.ts";
import { planDemoTurn } from "../../src/providers/demo.ts";
import { createDemoProvider } from "../../src/providers/index.ts";
import { makeTempDir, removeDir } from "../../src/testing/harness.ts";

const CLIENTS = Number(process.env.CLIENTS ?? 50),
  TURNS = 20,
  THREADS = Number(process.env.CLIENTS ?? 50);
const runs = Number(process.env.RUNS ?? process.argv[2] ?? 3);
const dataDir = await makeTempDir("chat-bench-clients-");
const server = await startServer({
  env: process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL } : {},
  host: "127.0.0.1",
  port: 0,
  dataDir,
  adapter: createDemoProvider({ chunkDelayMs: 0 }),
  webDist: dataDir,
  workspaceDir: dataDir,
  logLevel: "silent",
});
async function post(path, body) {
  const res = await fetch(`${server.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  if (res.status !== 201) throw new Error(`POST ${path} -> ${res.status}`);
  return res.json();
}
async function allMessages(id) {
  const all = [];
  let c = null;
  do {
    const q = c === null ? "" : `&before=${c}`;
    const p = await (await fetch(`${server.url}/api/threads/${id}/messages?limit=200${q}`)).json();
    all.unshift(...p.messages);
    c = p.nextCursor;
  } while (c !== null);
  return all;
}
/** This thread's CPU time in ms (Linux), or NaN. */
function threadCpuMs() {
  try {
    return Number(readFileSync("/proc/thread-self/schedstat", "utf8").split(" ")[0]) / 1e6;
  } catch {
    return Number.NaN;
  }
}
/** Time this thread was ready to run but waited for a core, in ms (Linux), or NaN. */
function threadWaitMs() {
  try {
    return Number(readFileSync("/proc/thread-self/schedstat", "utf8").split(" ")[1]) / 1e6;
  } catch {
    return Number.NaN;
  }
}
/** CPU ms and name of every thread of this process, by Linux task id (empty elsewhere). */
function tasksCpuMs() {
  const cpu = new Map();
  try {
    for (const tid of readdirSync("/proc/self/task")) {
      try {
        cpu.set(Number(tid), {
          ms: Number(readFileSync(`/proc/self/task/${tid}/schedstat`, "utf8").split(" ")[0]) / 1e6,
          // The search-text workers lower their own priority (nice 10); the clients' worker
          // reports its CPU itself; the rest are V8's and libuv's threads and the checkpointer.
          name:
            readFileSync(`/proc/self/task/${tid}/stat`, "utf8").split(") ")[1].split(" ")[16] ===
            "10"
              ? "search"
              : `t${Number(tid) - process.pid}`,
        });
      } catch {
        // The thread ended meanwhile.
      }
    }
  } catch {
    // Not Linux.
  }
  return cpu;
}
/** Checks a thread's messages: its client's prompts in order, each answered exactly once. */
function checkThread(messages, run, client) {
  const prompts = messages.filter((m) => m.kind === "prompt");
  if (prompts.length !== TURNS)
    throw new Error(`thread of client ${client}: ${prompts.length} prompts`);
  const history = [];
  prompts.forEach((prompt, t) => {
    const input = `run ${run} client ${client} turn ${t}`;
    if (prompt.text !== input) throw new Error(`client ${client} turn ${t}: prompt ${prompt.text}`);
    const answers = messages.filter(
      (m) => m.turnId === prompt.turnId && m.kind === "answer" && m.status === "complete",
    );
    const expected = planDemoTurn(input, history).answer();
    if (answers.length !== 1 || answers[0].text !== expected)
      throw new Error(`client ${client} turn ${t}: answer missing or wrong`);
    history.push({ role: "user", text: input }, { role: "assistant", text: expected });
  });
}
const figures = [];
for (let run = 1; run <= runs; run++) {
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  const m0 = threadCpuMs();
  const w0 = threadWaitMs();
  const tasks0 = tasksCpuMs();
  const elu0 = performance.eventLoopUtilization();
  let clientsMs = Number.NaN;
  const threads = await Promise.all(
    Array.from({ length: THREADS }, () => post("/api/threads", {})),
  );
  if (process.env.INLINE_CLIENTS) {
    await Promise.all(
      Array.from({ length: CLIENTS }, async (_, client) => {
        const thread = threads[client % THREADS];
        for (let t = 0; t < TURNS; t++)
          await post(`/api/threads/${thread.id}/turns`, {
            input: `run ${run} client ${client} turn ${t}`,
          });
      }),
    );
  } else {
    const worker = new Worker(new URL("../support/httpClients.mjs", import.meta.url), {
      workerData: {
        url: server.url,
        threadIds: threads.map((t) => t.id),
        clients: CLIENTS,
        turnsPerClient: TURNS,
        run,
      },
    });
    const result = await new Promise((resolve, reject) => {
      worker.once("message", resolve);
      worker.once("error", reject);
    });
    if (!result.ok) throw new Error(result.error);
    clientsMs = result.cpuMs;
  }
  await server.provider.whenIdle();
  const dt = performance.now() - t0;
  const cpu = process.cpuUsage(c0);
  const mainMs = threadCpuMs() - m0;
  const waitMs = threadWaitMs() - w0;
  const elu = performance.eventLoopUtilization(elu0).utilization;
  // The server's other threads (the search-text worker, the WAL checkpointer, libuv's pool),
  // busiest first; the clients' worker has ended and reported its own CPU.
  const tasks1 = tasksCpuMs();
  const others = [...tasks1]
    .filter(([tid]) => tid !== process.pid)
    .map(([tid, { ms, name }]) => ({ name, ms: ms - (tasks0.get(tid)?.ms ?? 0) }))
    .filter(({ ms }) => ms >= 1)
    .sort((a, b) => b.ms - a.ms);
  for (const [client, th] of threads.entries()) checkThread(await allMessages(th.id), run, client);
  const turns = CLIENTS * TURNS;
  const rate = (1000 * turns) / dt;
  figures.push(rate);
  console.log(
    `run ${run}: ${(dt / 1000).toFixed(2)} s, ${rate.toFixed(0)} turns/s (target >= 1000), ` +
      `server thread ${(mainMs / turns).toFixed(2)} ms CPU/turn (event loop ${(100 * elu).toFixed(0)}% busy, ` +
      `${(waitMs / turns).toFixed(2)} ms/turn waiting for a core), ` +
      `process ${((cpu.user + cpu.system) / 1000 / turns).toFixed(2)} ms CPU/turn; ${turns} prompts and answers checked`,
  );
  const perTurn = (ms) => (ms / turns).toFixed(2);
  console.log(
    `  CPU ms/turn by thread: server event loop ${perTurn(mainMs)}, clients ${perTurn(clientsMs)}, ` +
      `other threads ${others.map(({ name, ms }) => `${name} ${perTurn(ms)}`).join(" / ") || "none"}`,
  );
}
// The search index renders while the event loop has room (storage/indexPacing.ts): what the
// runs left unindexed is indexed now; a search would have waited for it the same way.
const caughtUp = performance.now();
await server.searchIndexIdle();
console.log(
  `search index caught up ${((performance.now() - caughtUp) / 1000).toFixed(2)} s after the last run`,
);
figures.sort((a, b) => a - b);
console.log(
  `median ${figures[Math.floor(figures.length / 2)].toFixed(0)} turns/s (target >= 1000)`,
);
await server.close();
// KEEP_DATA=1 leaves the database for a script that reads it afterwards (walPagesPerTurn.mjs).
if (!process.env.KEEP_DATA) await removeDir(dataDir);
