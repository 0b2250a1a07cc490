// The clients of concurrentClients.bench.ts, in a worker thread so that on a 2-core machine the
// server's event loop is not also running 50 HTTP clients. Real HTTP over keep-alive sockets
// (node:http, one connection per client, as a browser would hold one); every POST must answer
// 201. workerData: { url, threadIds, clients, turnsPerClient, run }; posts "done" or an error.
import { readFileSync } from "node:fs";
import http from "node:http";
import { parentPort, workerData } from "node:worker_threads";

const { url, threadIds, clients, turnsPerClient, run } = workerData;
/** This thread's CPU time in ms (Linux; NaN elsewhere), so the bench can tell the clients' CPU from the server's. */
function threadCpuMs() {
  try {
    return Number(readFileSync("/proc/thread-self/schedstat", "utf8").split(" ")[0]) / 1e6;
  } catch {
    return Number.NaN;
  }
}

const agent = new http.Agent({ keepAlive: true, maxSockets: clients });

function post(path, body) {
  return new Promise((resolve, reject) => {
    const payload = Buffer.from(JSON.stringify(body));
    const req = http.request(
      `${url}${path}`,
      {
        method: "POST",
        agent,
        headers: { "content-type": "application/json", "content-length": payload.length },
      },
      (res) => {
        const chunks = [];
        res.on("data", (chunk) => chunks.push(chunk));
        res.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          if (res.statusCode !== 201)
            reject(new Error(`POST ${path} -> ${res.statusCode}: ${text}`));
          else resolve(JSON.parse(text));
        });
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(payload);
  });
}

try {
  await Promise.all(
    Array.from({ length: clients }, async (_, client) => {
      const threadId = threadIds[client % threadIds.length];
      for (let turn = 0; turn < turnsPerClient; turn++) {
        const input = `run ${run} client ${client} turn ${turn}`;
        const sent = await post(`/api/threads/${threadId}/turns`, { input });
        if (sent.message?.text !== input)
          throw new Error(`turn ${input}: the prompt came back changed`);
      }
    }),
  );
  parentPort.postMessage({ ok: true, cpuMs: threadCpuMs() });
} catch (error) {
  parentPort.postMessage({ ok: false, error: String(error?.stack ?? error) });
} finally {
  agent.destroy();
}
