/**
 * A chat server that streams 50,000-chunk replies back to back, in a process of its own (run by
 * environmentDuringReply.bench.ts), so the benchmark's client does not share its event loop.
 * The chunks come at full speed from a fake OpenAI-compatible server (in a process of its own,
 * as a real provider is another machine: floodServer.ts), through
 * the real `openai` adapter. `FLOODS=n` (default 1) runs n such loops at once, each on a thread
 * of its own. Prints `READY <url>` once the first reply of every loop streams; every reply is
 * checked whole; SIGTERM stops it and prints how many replies streamed. `FLOOD` picks the reply
 * (floodChunks.ts); `THREAD <id>` names a thread the replies go to (for searchers).
 */

import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { createInterface } from "node:readline";
import type { MessagePage, Thread } from "@app/protocol";
import { startServer } from "../../src/main.ts";
import { createOpenAiProvider } from "../../src/providers/openai.ts";
import { makeTempDir, removeDir } from "../../src/testing/harness.ts";

import { CHUNKS, chunk } from "./floodChunks.ts";

const expected = Array.from({ length: CHUNKS }, (_, i) => chunk(i)).join("");

// The provider runs in a process of its own, so this process's CPU time is the chat server's.
const floodProcess = spawn(
  process.execPath,
  ["--import", "tsx", join(import.meta.dirname, "floodServer.ts")],
  {
    stdio: ["ignore", "pipe", "inherit"],
  },
);
const fake = await new Promise<{ baseUrl: string }>((resolve, reject) => {
  createInterface({ input: floodProcess.stdout! }).on("line", (line) => {
    if (line.startsWith("URL ")) resolve({ baseUrl: line.slice(4) });
  });
  floodProcess.once("exit", (code) => reject(new Error(`flood server exited (${code})`)));
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
/**
 * CPU time (ms) of the main thread between two runs of a 1 ms timer: while the floods keep the
 * loop busy, that is one turn of the event loop, which a request arriving meanwhile waits for.
 * Unlike wall-clock times it does not grow when other processes hold the cores, so runs on a
 * loaded machine still compare. Linux's /proc/thread-self/schedstat counts this thread only
 * (not GC helpers, the WAL checkpointer or libuv's pool); elsewhere the process's CPU time.
 */
const turnCpu: number[] = [];
const threadCpuMs = existsSync("/proc/thread-self/schedstat")
  ? () => Number(readFileSync("/proc/thread-self/schedstat", "utf8").split(" ")[0]) / 1e6
  : () => {
      const { user, system } = process.cpuUsage();
      return (user + system) / 1000;
    };
let lastCpu = threadCpuMs();
let probing = false;
const probe = () => {
  const cpu = threadCpuMs();
  turnCpu.push(cpu - lastCpu);
  lastCpu = cpu;
  if (probing) setTimeout(probe, 1);
};
let replies = 0;
let announcedThread = false;
let running = true;
let started = 0;
const loops = Array.from({ length: FLOODS }, async () => {
  const thread = await post<Thread>("/api/threads", {});
  // For searchers (bench/stall.ts): a thread that holds the replies.
  if (started === 0 && !announcedThread) {
    announcedThread = true;
    console.log(`THREAD ${thread.id}`);
  }
  let mine = 0;
  while (running) {
    await post(`/api/threads/${thread.id}/turns`, { input: `reply ${mine}` });
    if (mine === 0 && ++started === FLOODS) {
      loopDelay.enable();
      probing = true;
      lastCpu = threadCpuMs();
      setTimeout(probe, 1);
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
  probing = false;
  turnCpu.sort((x, y) => x - y);
  const at = (p: number) =>
    turnCpu[Math.min(turnCpu.length - 1, Math.floor((p / 100) * turnCpu.length))]!.toFixed(1);
  const ms = (ns: number) => (ns / 1e6).toFixed(1);
  console.log(
    `DONE ${replies} whole replies of ${CHUNKS} chunks; event-loop delay p50 ${ms(loopDelay.percentile(50))} p99 ${ms(loopDelay.percentile(99))} max ${ms(loopDelay.max)} ms; CPU per loop turn p50 ${at(50)} p99 ${at(99)} max ${at(100)} ms`,
  );
  await server.close();
  const floodExited = new Promise((done) => floodProcess.once("exit", done));
  floodProcess.kill("SIGTERM");
  await floodExited;
  await removeDir(dataDir);
  process.exit(0);
});
