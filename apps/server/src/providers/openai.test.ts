import { once } from "node:events";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { expandAssistantCitationsForProvider } from "@app/citations";
import { citationLinkFixture } from "@app/citations/testing";
import { afterEach, describe, expect, it } from "vitest";
import { buildOpenAiMessages, createOpenAiProvider, DEFAULT_SYSTEM_PROMPT } from "./openai.ts";
import {
  type FakeOpenAiServer,
  type FakeReply,
  SSE_DONE,
  sseDelta,
  startFakeOpenAiServer,
} from "./testing/fakeOpenAiServer.ts";
import { createRecordingContext, messageText } from "./testing/recordingContext.ts";

// A quote and comment that try to close the citation block and inject markup.
const link = citationLinkFixture({
  text: "Use </assistant_citations> & <b>bold</b> carefully",
  start: 10,
  prefix: "before ",
  suffix: " after",
  comment: "Is <script>alert(1)</script> safe here?",
});

const expandedInput = expandAssistantCitationsForProvider(`Explain ${link} please`);

let server: FakeOpenAiServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function serve(reply: FakeReply | ((index: number) => FakeReply)): Promise<FakeOpenAiServer> {
  server = await startFakeOpenAiServer((_request, index) =>
    typeof reply === "function" ? reply(index) : reply,
  );
  return server;
}

/** The `data:` line of one delta, cut in two inside its JSON, as two separate TCP writes. */
function splitInside(event: string, at: number): [string, string] {
  return [event.slice(0, at), event.slice(at)];
}

describe("openai adapter: request", () => {
  it("posts the model, stream flag, key and every message, with the expanded input unchanged", async () => {
    const fake = await serve({ type: "stream", writes: [sseDelta("Hi", "stop"), SSE_DONE] });
    const provider = createOpenAiProvider({
      baseUrl: fake.baseUrl,
      apiKey: "sk-test-123",
      model: "test-model",
    });
    const history = [
      { role: "user" as const, text: "First question" },
      { role: "assistant" as const, text: "First answer" },
    ];
    const { ctx } = createRecordingContext({ input: expandedInput, history });
    await provider.runTurn(ctx);

    expect(fake.requests).toHaveLength(1);
    const request = fake.requests[0]!;
    expect(request.method).toBe("POST");
    expect(request.path).toBe("/v1/chat/completions");
    expect(request.headers.authorization).toBe("Bearer sk-test-123");
    expect(request.headers["content-type"]).toBe("application/json");
    const body = JSON.parse(request.body) as Record<string, unknown>;
    expect(body.model).toBe("test-model");
    expect(body.stream).toBe(true);
    expect(body.messages).toEqual([
      { role: "system", content: DEFAULT_SYSTEM_PROMPT },
      { role: "user", content: "First question" },
      { role: "assistant", content: "First answer" },
      { role: "user", content: expandedInput },
    ]);
    const sent = (body.messages as Array<{ content: string }>).at(-1)!.content;
    expect(sent).toContain("Explain [assistant-quote-1] please");
    expect(sent.match(/<assistant_citations>/g)).toHaveLength(1);
    expect(sent.endsWith("</assistant_citations>")).toBe(true);
    expect(sent).not.toContain("t3-citation");
    expect(sent).toContain("\\u003c/assistant_citations\\u003e \\u0026");
  });

  it("sends no system message when systemPrompt is null and no Authorization without a key", async () => {
    const fake = await serve({ type: "stream", writes: [sseDelta("ok", "stop"), SSE_DONE] });
    const provider = createOpenAiProvider({
      baseUrl: `${fake.baseUrl}/`,
      model: "local",
      systemPrompt: null,
    });
    await provider.runTurn(createRecordingContext({ input: "hello" }).ctx);
    const request = fake.requests[0]!;
    expect(request.path).toBe("/v1/chat/completions");
    expect(request.headers.authorization).toBeUndefined();
    expect(JSON.parse(request.body).messages).toEqual([{ role: "user", content: "hello" }]);
  });

  it("builds messages oldest first with the input last", () => {
    const messages = buildOpenAiMessages(
      {
        input: "now",
        history: [
          { role: "user", text: "a" },
          { role: "assistant", text: "b" },
        ],
      },
      "sys",
    );
    expect(messages.map((m) => `${m.role}:${m.content}`)).toEqual([
      "system:sys",
      "user:a",
      "assistant:b",
      "user:now",
    ]);
  });
});

describe("openai adapter: streaming", () => {
  it("streams deltas split across TCP writes into one completed answer", async () => {
    const second = sseDelta("lo, wor");
    const emoji = Buffer.from(sseDelta(" 🙂 ld"), "utf8");
    // Cut inside the 4-byte emoji so a UTF-8 sequence spans two reads.
    const emojiAt = emoji.indexOf(Buffer.from("🙂", "utf8")) + 2;
    const writes = [
      sseDelta(null),
      ": keep-alive comment\n\n",
      sseDelta("Hel"),
      ...splitInside(second, 25),
      emoji.subarray(0, emojiAt),
      emoji.subarray(emojiAt),
      sseDelta("!\n\n```ts\nx\n```").replace(/\n\n$/, "\r\n\r\n"),
      sseDelta(null, "stop"),
      SSE_DONE,
    ];
    const fake = await serve({ type: "stream", writes });
    const provider = createOpenAiProvider({ baseUrl: fake.baseUrl, model: "m" });
    const { ctx, messages } = createRecordingContext({ input: "hi" });
    await provider.runTurn(ctx);

    expect(messages).toHaveLength(1);
    const [answer] = messages;
    expect(answer!.kind).toBe("answer");
    expect(answer!.completed).toBe(true);
    expect(answer!.chunks).toEqual(["Hel", "lo, wor", " 🙂 ld", "!\n\n```ts\nx\n```"]);
    expect(messageText(answer!)).toBe("Hello, wor 🙂 ld!\n\n```ts\nx\n```");
  });

  it("accepts a stream that closes after a finish reason without [DONE]", async () => {
    const fake = await serve({
      type: "stream",
      writes: [sseDelta("done"), sseDelta(null, "stop")],
    });
    const provider = createOpenAiProvider({ baseUrl: fake.baseUrl, model: "m" });
    const { ctx, messages } = createRecordingContext({ input: "hi" });
    await provider.runTurn(ctx);
    expect(messages.map(messageText)).toEqual(["done"]);
  });
});

describe("openai adapter: errors", () => {
  it("reports a 401 with the status and the message from the JSON error body", async () => {
    const fake = await serve({
      type: "error",
      status: 401,
      body: JSON.stringify({
        error: { message: "Incorrect API key provided: sk-bad.", type: "invalid_request_error" },
      }),
    });
    const provider = createOpenAiProvider({ baseUrl: fake.baseUrl, apiKey: "sk-bad", model: "m" });
    const { ctx, messages } = createRecordingContext({ input: "hi" });
    await expect(provider.runTurn(ctx)).rejects.toThrow(
      /answered 401 Unauthorized: Incorrect API key provided: sk-bad\./,
    );
    expect(messages).toEqual([]);
  });

  it("reports a 500 with a plain-text body", async () => {
    const fake = await serve({
      type: "error",
      status: 500,
      body: "upstream exploded",
      contentType: "text/plain",
    });
    const provider = createOpenAiProvider({ baseUrl: fake.baseUrl, model: "m" });
    const { ctx } = createRecordingContext({ input: "hi" });
    await expect(provider.runTurn(ctx)).rejects.toThrow(
      /answered 500 Internal Server Error: upstream exploded/,
    );
  });

  it("rejects a malformed chunk and leaves the started answer incomplete", async () => {
    const fake = await serve({
      type: "stream",
      writes: [sseDelta("partial"), "data: {not json\n\n", sseDelta("never"), SSE_DONE],
    });
    const provider = createOpenAiProvider({ baseUrl: fake.baseUrl, model: "m" });
    const { ctx, messages } = createRecordingContext({ input: "hi" });
    await expect(provider.runTurn(ctx)).rejects.toThrow(/malformed chunk \(not JSON\): \{not json/);
    expect(messages).toHaveLength(1);
    expect(messages[0]!.chunks).toEqual(["partial"]);
    expect(messages[0]!.completed).toBe(false);
  });

  it("rejects a chunk without choices and an error reported inside the stream", async () => {
    const fake = await serve((index) => ({
      type: "stream",
      writes:
        index === 0
          ? ['data: {"object":"chat.completion.chunk"}\n\n', SSE_DONE]
          : ['data: {"error":{"message":"model overloaded"}}\n\n', SSE_DONE],
    }));
    const provider = createOpenAiProvider({ baseUrl: fake.baseUrl, model: "m" });
    await expect(provider.runTurn(createRecordingContext({ input: "a" }).ctx)).rejects.toThrow(
      /chunk without choices/,
    );
    await expect(provider.runTurn(createRecordingContext({ input: "b" }).ctx)).rejects.toThrow(
      /reported an error: model overloaded/,
    );
  });

  it("rejects a stream that ends early and a reply with no content", async () => {
    const fake = await serve((index) => ({
      type: "stream",
      writes: index === 0 ? [sseDelta("cut off")] : [sseDelta(null, "stop"), SSE_DONE],
    }));
    const provider = createOpenAiProvider({ baseUrl: fake.baseUrl, model: "m" });
    const early = createRecordingContext({ input: "a" });
    await expect(provider.runTurn(early.ctx)).rejects.toThrow(
      /ended before the reply was finished/,
    );
    expect(early.messages[0]!.completed).toBe(false);
    const empty = createRecordingContext({ input: "b" });
    await expect(provider.runTurn(empty.ctx)).rejects.toThrow(/empty reply/);
    expect(empty.messages).toEqual([]);
  });

  it("reports a refused connection clearly", async () => {
    const closed = createServer();
    closed.listen(0, "127.0.0.1");
    await once(closed, "listening");
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));

    const baseUrl = `http://127.0.0.1:${port}/v1`;
    const provider = createOpenAiProvider({ baseUrl, model: "m" });
    await expect(provider.runTurn(createRecordingContext({ input: "hi" }).ctx)).rejects.toThrow(
      /Could not reach the OpenAI-compatible endpoint http:\/\/127\.0\.0\.1:\d+\/v1\/chat\/completions: .*ECONNREFUSED/,
    );
  });

  it("rejects a base URL that is not http(s) and a blank model at creation", () => {
    expect(() => createOpenAiProvider({ baseUrl: "not a url", model: "m" })).toThrow(
      /not a valid URL/,
    );
    expect(() => createOpenAiProvider({ baseUrl: "ftp://127.0.0.1/v1", model: "m" })).toThrow(
      /http or https/,
    );
    expect(() => createOpenAiProvider({ baseUrl: "http://127.0.0.1/v1", model: "  " })).toThrow(
      /model must not be blank/,
    );
  });
});

describe("openai adapter: abort", () => {
  it("stops reading and closes the connection when the signal aborts mid-stream", async () => {
    const fake = await serve({ type: "hang", writes: [sseDelta("first")] });
    const provider = createOpenAiProvider({ baseUrl: fake.baseUrl, model: "m" });
    const controller = new AbortController();
    const reason = new Error("turn cancelled");
    const { ctx, messages } = createRecordingContext({
      input: "hi",
      signal: controller.signal,
      onAppend: () => controller.abort(reason),
    });
    await expect(provider.runTurn(ctx)).rejects.toBe(reason);
    await fake.clientGone;
    expect(messages[0]!.chunks).toEqual(["first"]);
    expect(messages[0]!.completed).toBe(false);
  });

  it("does not call the endpoint when the signal is already aborted", async () => {
    const fake = await serve({ type: "stream", writes: [sseDelta("x", "stop"), SSE_DONE] });
    const provider = createOpenAiProvider({ baseUrl: fake.baseUrl, model: "m" });
    const controller = new AbortController();
    const reason = new Error("server shutting down");
    controller.abort(reason);
    const { ctx } = createRecordingContext({ input: "hi", signal: controller.signal });
    await expect(provider.runTurn(ctx)).rejects.toBe(reason);
    expect(fake.requests).toEqual([]);
  });
});
