/**
 * A chat server that streams 50,000-chunk replies back to back, in a process of its own (run by
 * environmentDuringReply.bench.ts), so the benchmark's client does not share its event loop.
 * The chunks come at full speed from a fake OpenAI-compatible server in this process, through
 * the real `openai` adapter. Prints `READY <url>` once the first reply streams; every reply is
 * checked whole; SIGTERM stops it and prints how many replies streamed.
 */
import type { MessagePage, Thread } from "@app/protocol";
import { startServer } from "../../src/main.ts";
import { createOpenAiProvider } from "../../src/providers/openai.ts";
import { sseDelta, startFakeOpenAiServer } from "../../src/providers/testing/fakeOpenAiServer.ts";
import { makeTempDir, removeDir } from "../../src/testing/harness.ts";

export const CHUNKS = 50_000;
const chunk = (i: number) => `chunk ${String(i).padStart(5, "0")} `;
const expected = Array.from({ length: CHUNKS }, (_, i) => chunk(i)).join("");

const fake = await startFakeOpenAiServer(() => ({
  type: "flood",
  count: CHUNKS + 1,
  chunk: (i) => (i < CHUNKS ? sseDelta(chunk(i)) : sseDelta(null, "stop")),
}));
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
  await fake.close();
  await removeDir(dataDir);
  process.exit(0);
});
