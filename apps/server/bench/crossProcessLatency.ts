/**
 * Chunk-to-client latency of a streaming reply, on the process running the turn and on another
 * process of the same PostgreSQL database (issue 22, "Streaming through another process feels
 * the same"). Real parts: a throwaway cluster, two server processes (`src/main.ts`), the real
 * `openai` adapter reading a fake provider that lives in this process, and one SSE client per
 * server process, also here, so one clock times both ends.
 *
 * The fake provider writes chunk i at a known time; a client has chunk i once the text it holds
 * (rebuilt from `message.created`, `message.delta` and `message.completed` events) reaches the
 * end of chunk i. Latency = that moment - the write. Each server process gets its own provider
 * path, so the script knows which process ran each turn.
 *
 *   pnpm --filter @app/server exec tsx bench/crossProcessLatency.ts [replies] [chunks] [everyMs]
 *
 * Defaults: 6 replies of 300 chunks, one chunk every 10 ms (100 tokens/s). Prints p50/p90/p99/max
 * for "same process" and "other process", and how many frames without an id (live chunks) the
 * other process's client got, against the number of chunks.
 */
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { ServerEvent, Thread } from "@app/protocol";
import { createParser } from "eventsource-parser";
import { sseDelta } from "../src/providers/testing/fakeOpenAiServer.ts";
import { makeTempDir, removeDir } from "../src/testing/harness.ts";
import { startPostgresCluster } from "../src/testing/postgresCluster.ts";
import {
  requestJson,
  type ServerProcess,
  startServerProcess,
} from "../src/testing/serverProcess.ts";
import { percentile } from "./support/percentile.ts";

const REPLIES = Number(process.argv[2] ?? 6);
const CHUNKS = Number(process.argv[3] ?? 300);
const EVERY_MS = Number(process.argv[4] ?? 10);

const chunkText = (reply: number, i: number) => `r${reply}c${i} `;

/** The reply being written: which process asked for it, and when each chunk went out. */
type Written = { by: "A" | "B"; sentAt: number[]; ends: number[] };
const written: Written[] = [];

const provider = createServer((req, res) => {
  req.resume();
  req.on("end", () => {
    const by = req.url?.startsWith("/A/") ? "A" : "B";
    void drip(written.length, by, res);
  });
});
await new Promise<void>((done) => provider.listen(0, "127.0.0.1", done));
const providerPort = (provider.address() as AddressInfo).port;

async function drip(reply: number, by: "A" | "B", res: ServerResponse): Promise<void> {
  const w: Written = { by, sentAt: [], ends: [] };
  written.push(w);
  res.writeHead(200, { "content-type": "text/event-stream" });
  let length = 0;
  for (let i = 0; i < CHUNKS; i++) {
    const text = chunkText(reply, i);
    length += text.length;
    w.ends.push(length);
    w.sentAt.push(performance.now());
    res.write(sseDelta(text));
    await new Promise((resolve) => setTimeout(resolve, EVERY_MS));
  }
  res.end(`${sseDelta(null, "stop")}data: [DONE]\n\n`);
}

/** One SSE client: the text of each answer message as it grows, and when it grew. */
class Client {
  /** Per reply (in the order answers appear): the time each length was first reached. */
  readonly replies: { text: string; reached: { length: number; at: number }[] }[] = [];
  liveFrames = 0;
  readonly #byMessage = new Map<string, number>();
  readonly #abort = new AbortController();

  async open(url: string): Promise<void> {
    const res = await fetch(url, {
      headers: { accept: "text/event-stream" },
      signal: this.#abort.signal,
    });
    const parser = createParser({
      onEvent: (e) => {
        if (e.id === undefined && e.event === "message.delta") this.liveFrames++;
        this.#take(JSON.parse(e.data) as ServerEvent);
      },
    });
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    void (async () => {
      for (;;) {
        const { value, done } = await reader.read().catch(() => ({ value: "", done: true }));
        if (done) return;
        parser.feed(value);
      }
    })();
  }

  close(): void {
    this.#abort.abort();
  }

  #take(event: ServerEvent): void {
    const at = performance.now();
    if (event.type === "message.created" && event.message.kind === "answer") {
      this.#byMessage.set(event.message.id, this.replies.length);
      this.replies.push({ text: event.message.text, reached: [] });
      return;
    }
    let index: number | undefined;
    let text: string | undefined;
    if (event.type === "message.delta") {
      index = this.#byMessage.get(event.messageId);
      const reply = index === undefined ? undefined : this.replies[index];
      if (!reply || event.offset > reply.text.length) return;
      text = reply.text.slice(0, event.offset) + event.delta;
    } else if (event.type === "message.completed" && event.message.kind === "answer") {
      index = this.#byMessage.get(event.message.id);
      text = event.message.text;
    }
    const reply = index === undefined ? undefined : this.replies[index];
    if (!reply || text === undefined || text.length <= reply.text.length) return;
    reply.text = text;
    reply.reached.push({ length: text.length, at });
  }
}

/** Latencies (ms) of every chunk of every reply as `client` saw them. */
function latencies(client: Client, pick: (w: Written) => boolean): number[] {
  const out: number[] = [];
  written.forEach((w, i) => {
    if (!pick(w)) return;
    const reached = client.replies[i]?.reached ?? [];
    let r = 0;
    w.ends.forEach((end, c) => {
      while (r < reached.length && reached[r]!.length < end) r++;
      if (r < reached.length) out.push(reached[r]!.at - w.sentAt[c]!);
    });
  });
  return out;
}

const cluster = await startPostgresCluster();
const dataDir = await makeTempDir("chat-latency-");
let servers: ServerProcess[] = [];
try {
  const url = await cluster.createDatabase("latency");
  const start = (name: "A" | "B") =>
    startServerProcess({
      DATABASE_URL: url,
      DATA_DIR: dataDir,
      WEB_DIST: `${dataDir}/none`,
      PROVIDER: "openai",
      OPENAI_BASE_URL: `http://127.0.0.1:${providerPort}/${name}/v1`,
      OPENAI_MODEL: "bench",
    });
  servers = [await start("A"), await start("B")];
  const [a, b] = servers as [ServerProcess, ServerProcess];
  const thread = await requestJson<Thread>(a, "/api/threads", {});
  const clients = { A: new Client(), B: new Client() };
  await clients.A.open(`${a.url}/api/threads/${thread.id}/events`);
  await clients.B.open(`${b.url}/api/threads/${thread.id}/events`);
  for (let reply = 0; reply < REPLIES; reply++) {
    await requestJson(a, `/api/threads/${thread.id}/turns`, { input: `reply ${reply}` });
    // Done when both clients hold the whole reply.
    const whole = Array.from({ length: CHUNKS }, (_, i) => chunkText(reply, i)).join("");
    while (clients.A.replies[reply]?.text !== whole || clients.B.replies[reply]?.text !== whole) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  clients.A.close();
  clients.B.close();
  const rows = [];
  for (const runner of ["A", "B"] as const) {
    const other = runner === "A" ? "B" : "A";
    const ran = (w: Written) => w.by === runner;
    if (!written.some(ran)) continue;
    for (const [label, client] of [
      ["same process", clients[runner]],
      ["other process", clients[other]],
    ] as const) {
      const ms = latencies(client, ran);
      rows.push({
        turns: `run by ${runner}`,
        client: label,
        chunks: ms.length,
        p50: percentile(ms, 50).toFixed(1),
        p90: percentile(ms, 90).toFixed(1),
        p99: percentile(ms, 99).toFixed(1),
        max: Math.max(...ms).toFixed(1),
      });
    }
  }
  console.log(
    `${REPLIES} replies x ${CHUNKS} chunks, one every ${EVERY_MS} ms; latency in ms, provider write -> SSE client`,
  );
  console.table(rows);
  console.log(
    `live frames: client A ${clients.A.liveFrames}, client B ${clients.B.liveFrames}, for ${REPLIES * CHUNKS} chunks`,
  );
} finally {
  await Promise.all(servers.map((s) => s.kill()));
  provider.close();
  cluster.stop();
  await removeDir(dataDir);
}
