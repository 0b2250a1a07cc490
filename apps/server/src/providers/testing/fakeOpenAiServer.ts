/**
 * A small OpenAI-compatible chat-completions server for adapter tests, listening on 127.0.0.1
 * (port 0). It records each request and answers with a scripted reply: a stream written in
 * separate TCP writes, an error status, a stream that stays open until the client leaves, one
 * that drips a chunk at an interval forever, or a flood of chunks at full speed.
 */
import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { setTimeout as delay } from "node:timers/promises";

/** A request as the server received it. */
export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** What the server sends back. */
export type FakeReply =
  /** `writes` go out one by one with a short pause between them, so each is its own TCP write. */
  | { type: "stream"; writes: Array<string | Uint8Array> }
  | { type: "error"; status: number; body: string; contentType?: string }
  /** Sends `writes`, then keeps the response open until the client disconnects. */
  | { type: "hang"; writes: Array<string | Uint8Array> }
  /** Sends `write` every `everyMs` until the client disconnects. */
  | { type: "drip"; write: string; everyMs: number }
  /** Sends `chunk(i)` for i < count as fast as the client reads (honouring backpressure). */
  | { type: "flood"; count: number; chunk: (index: number) => string; end?: boolean };

/** A running fake server. */
export interface FakeOpenAiServer {
  /** e.g. `http://127.0.0.1:43123/v1` */
  baseUrl: string;
  requests: RecordedRequest[];
  /** Resolves when a client disconnected from a "hang" reply. */
  clientGone: Promise<void>;
  close(): Promise<void>;
}

/** One `data:` event carrying a content delta (or a finish reason), as OpenAI streams it. */
export function sseDelta(content: string | null, finishReason: string | null = null): string {
  const delta = content === null ? {} : { content };
  const chunk = {
    id: "chatcmpl-test",
    object: "chat.completion.chunk",
    created: 0,
    model: "test-model",
    choices: [{ index: 0, delta, finish_reason: finishReason }],
  };
  return `data: ${JSON.stringify(chunk)}\n\n`;
}

/** The stream terminator. */
export const SSE_DONE = "data: [DONE]\n\n";

/** Starts the server; `reply` picks the answer for the n-th request (0-based). */
export async function startFakeOpenAiServer(
  reply: (request: RecordedRequest, index: number) => FakeReply,
): Promise<FakeOpenAiServer> {
  const requests: RecordedRequest[] = [];
  let markGone: () => void = () => {};
  const clientGone = new Promise<void>((resolve) => {
    markGone = resolve;
  });

  const server = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on("data", (part: Buffer) => parts.push(part));
    req.on("end", () => {
      const recorded: RecordedRequest = {
        method: req.method ?? "",
        path: req.url ?? "",
        headers: req.headers,
        body: Buffer.concat(parts).toString("utf8"),
      };
      requests.push(recorded);
      void send(res, reply(recorded, requests.length - 1), markGone);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    clientGone,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function send(res: ServerResponse, reply: FakeReply, markGone: () => void): Promise<void> {
  if (reply.type === "error") {
    res.writeHead(reply.status, { "content-type": reply.contentType ?? "application/json" });
    res.end(reply.body);
    return;
  }
  res.on("close", markGone);
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  res.flushHeaders();
  if (reply.type === "drip") {
    while (!res.destroyed) {
      res.write(reply.write);
      await delay(reply.everyMs);
    }
    return;
  }
  if (reply.type === "flood") {
    for (let i = 0; i < reply.count && !res.destroyed; i++) {
      if (!res.write(reply.chunk(i))) {
        await new Promise<void>((resolve) => {
          const done = () => {
            res.off("drain", done);
            res.off("close", done);
            resolve();
          };
          res.on("drain", done);
          res.on("close", done);
        });
      }
    }
    if (reply.end !== false && !res.destroyed) res.end(SSE_DONE);
    return;
  }
  for (const write of reply.writes) {
    if (res.destroyed) return;
    res.write(write);
    // A pause lets each write leave as its own TCP segment, so the client sees split reads.
    await delay(5);
  }
  if (reply.type === "stream") res.end();
}
