/**
 * 50 concurrent clients, each sending 20 turns over real HTTP to a server running the demo
 * provider (streaming without artificial delays). Five clients share each of ten threads, so
 * per-thread queues are contended. Each run checks that nothing was lost: every prompt is
 * stored once, every turn completed, and every turn has its answer. The clients run in a worker
 * thread (support/httpClients.mjs, keep-alive node:http), so on a 2-core machine the server's
 * event loop does not also run them; the requests are still real HTTP to the real server.
 */
import { Worker } from "node:worker_threads";
import type { MessagePage, Thread } from "@app/protocol";
import { afterAll, bench, describe } from "vitest";
import { type RunningServer, startServer } from "../src/main.ts";
import { createDemoProvider } from "../src/providers/index.ts";
import { makeTempDir, removeDir } from "../src/testing/harness.ts";

const CLIENTS = 50;
const TURNS_PER_CLIENT = 20;
const THREADS = 50;

const dataDir = await makeTempDir("chat-bench-clients-");
const server: RunningServer = await startServer({
  env: {},
  host: "127.0.0.1",
  port: 0,
  dataDir,
  adapter: createDemoProvider({ chunkDelayMs: 0 }),
  webDist: dataDir,
  workspaceDir: dataDir,
  logLevel: "silent",
});

afterAll(async () => {
  await server.close();
  await removeDir(dataDir);
});

async function post<T>(path: string, body: unknown): Promise<T> {
  const res = await fetch(`${server.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  if (res.status !== 201) throw new Error(`POST ${path} -> ${res.status}: ${await res.text()}`);
  return (await res.json()) as T;
}

async function allMessages(threadId: string): Promise<MessagePage["messages"]> {
  const all: MessagePage["messages"] = [];
  let cursor: string | null = null;
  do {
    const query = cursor === null ? "" : `&before=${cursor}`;
    const res = await fetch(`${server.url}/api/threads/${threadId}/messages?limit=200${query}`);
    const page = (await res.json()) as MessagePage;
    all.unshift(...page.messages);
    cursor = page.nextCursor;
  } while (cursor !== null);
  return all;
}

let run = 0;

/** Sends every client's turns from a worker thread; rejects on any non-201 answer. */
function runClients(threadIds: string[]): Promise<void> {
  const worker = new Worker(new URL("./support/httpClients.mjs", import.meta.url), {
    workerData: {
      url: server.url,
      threadIds,
      clients: CLIENTS,
      turnsPerClient: TURNS_PER_CLIENT,
      run,
    },
  });
  return new Promise((resolve, reject) => {
    worker.once("message", (result: { ok: boolean; error?: string }) =>
      result.ok ? resolve() : reject(new Error(result.error)),
    );
    worker.once("error", reject);
  });
}

describe(`${CLIENTS} clients x ${TURNS_PER_CLIENT} turns over HTTP (demo provider)`, () => {
  bench(
    "send all turns and wait until every reply is complete",
    async () => {
      run++;
      const threads = await Promise.all(
        Array.from({ length: THREADS }, () => post<Thread>("/api/threads", {})),
      );
      await runClients(threads.map((thread) => thread.id));
      await server.provider.whenIdle();

      // Nothing lost: every prompt once, every turn completed with an answer.
      const perThread = (CLIENTS / THREADS) * TURNS_PER_CLIENT;
      for (const thread of threads) {
        const messages = await allMessages(thread.id);
        const prompts = messages.filter((m) => m.kind === "prompt");
        const answers = messages.filter((m) => m.kind === "answer" && m.status === "complete");
        if (
          prompts.length !== perThread ||
          new Set(prompts.map((m) => m.text)).size !== perThread
        ) {
          throw new Error(`thread ${thread.id}: ${prompts.length} prompts, expected ${perThread}`);
        }
        if (new Set(answers.map((m) => m.turnId)).size !== perThread) {
          throw new Error(`thread ${thread.id}: ${answers.length} answers, expected ${perThread}`);
        }
      }
    },
    { iterations: 3, warmupIterations: 0, time: 0 },
  );
});
