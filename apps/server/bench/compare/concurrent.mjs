// Standalone run of the concurrentClients scenario (same checks), for A/B and --cpu-prof.
// node --import tsx bench/compare/concurrent.mjs [runs]   (INLINE_CLIENTS=1: clients on the server's thread)
import { Worker } from "node:worker_threads";
import { startServer } from "../../src/main.ts";
import { createDemoProvider } from "../../src/providers/index.ts";
import { makeTempDir, removeDir } from "../../src/testing/harness.ts";

const CLIENTS = 50,
  TURNS = 20,
  THREADS = 50;
const runs = Number(process.argv[2] ?? 3);
const dataDir = await makeTempDir("chat-bench-clients-");
const server = await startServer({
  env: {},
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
for (let run = 1; run <= runs; run++) {
  const t0 = performance.now();
  const c0 = process.cpuUsage();
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
  }
  await server.provider.whenIdle();
  const dt = performance.now() - t0;
  const cpu = process.cpuUsage(c0);
  for (const th of threads) {
    const m = await allMessages(th.id);
    const pr = m.filter((x) => x.kind === "prompt"),
      an = m.filter((x) => x.kind === "answer" && x.status === "complete");
    if (pr.length !== 20 || new Set(an.map((x) => x.turnId)).size !== 20) throw new Error("lost");
  }
  console.log(
    `run ${run}: ${(dt / 1000).toFixed(2)} s, ${((1000 * CLIENTS * TURNS) / dt).toFixed(0)} turns/s, cpu ${((cpu.user + cpu.system) / 1e6).toFixed(2)} s`,
  );
}
await server.close();
await removeDir(dataDir);
