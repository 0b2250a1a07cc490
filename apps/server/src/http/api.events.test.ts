import type { Message, ServerEvent, Thread, ThreadDetail } from "@app/protocol";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  collectSse,
  RecordingAdapter,
  removeDir,
  type SseEvent,
  startTestServer,
  type TestServer,
  waitFor,
} from "../testing/harness.ts";

/** A promise the test resolves by hand, to pause the adapter at a known point. */
function gate(): { promise: Promise<void>; open: () => void } {
  let open = () => {};
  const promise = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}

let server: TestServer;
let adapter: RecordingAdapter;
let thread: Thread;
let midStream: ReturnType<typeof gate>;
let beforeComplete: ReturnType<typeof gate>;

beforeEach(async () => {
  midStream = gate();
  beforeComplete = gate();
  adapter = new RecordingAdapter(async (ctx) => {
    // Chunks that arrive in separate ticks (as from a network stream) become separate deltas.
    const nextTick = () => new Promise((resolve) => setImmediate(resolve));
    const writer = ctx.startMessage("answer");
    writer.append("alpha ");
    await nextTick();
    writer.append("beta ");
    await midStream.promise;
    writer.append("gamma ");
    await nextTick();
    writer.append("delta");
    await beforeComplete.promise;
    writer.complete();
  });
  server = await startTestServer({ adapter });
  thread = (await (await server.post("/api/threads", {})).json()) as Thread;
});

afterEach(async () => {
  await server.close();
  await removeDir(server.dataDir);
});

const eventsUrl = () => `${server.url}/api/threads/${thread.id}/events`;
const parse = (events: SseEvent[]) => events.map((e) => JSON.parse(e.data) as ServerEvent);
const ids = (events: SseEvent[]) => events.map((e) => Number(e.id));
const deltas = (events: SseEvent[]) =>
  parse(events).filter((e) => e.type === "message.delta").length;
const turnDone = (events: SseEvent[]) =>
  parse(events).some((e) => e.type === "turn.updated" && e.turn.status === "completed");

describe("server-sent events", () => {
  it("resumes with Last-Event-ID without missing or repeating anything", async () => {
    // First connection: from the start, until two deltas arrived (the adapter is paused).
    const first = await collectSse(eventsUrl(), {
      lastEventId: "0",
      until: (events) => deltas(events) >= 2,
      onOpen: async () => {
        expect((await server.post(`/api/threads/${thread.id}/turns`, { input: "hi" })).status).toBe(
          201,
        );
      },
    });
    expect(first.map((e) => e.event)).toEqual([
      "message.created",
      "turn.updated",
      "thread.updated",
      "message.created",
      "message.delta",
      "message.delta",
    ]);
    for (const e of first) expect(e.event).toBe((JSON.parse(e.data) as ServerEvent).type);
    const lastSeen = first.at(-1)!.id!;

    // While disconnected, two more chunks are written.
    midStream.open();
    await waitFor(async () => {
      const page = await server.getJson<{ messages: Message[] }>(
        `/api/threads/${thread.id}/messages`,
      );
      return page.messages[1]?.text === "alpha beta gamma delta" ? true : undefined;
    });

    const second = await collectSse(eventsUrl(), {
      lastEventId: lastSeen,
      until: turnDone,
      onOpen: () => beforeComplete.open(),
    });
    expect(second.map((e) => e.event)).toEqual([
      "message.delta",
      "message.delta",
      "message.completed",
      "turn.updated",
    ]);
    const all = [...first, ...second];
    expect(ids(all)).toEqual(ids(all).map((_, i) => i + 1));

    // Rebuild the answer from the chunks exactly as a client would, using offsets.
    let text = "";
    for (const event of parse(all)) {
      if (event.type === "message.delta" && event.offset === text.length) text += event.delta;
    }
    expect(text).toBe("alpha beta gamma delta");
    const completed = parse(all).find((e) => e.type === "message.completed");
    expect(completed?.type === "message.completed" && completed.message.text).toBe(text);
  });

  it("replays a compacted log after completion: the completed message carries the whole text", async () => {
    midStream.open();
    beforeComplete.open();
    await server.post(`/api/threads/${thread.id}/turns`, { input: "hello" });
    await server.provider.whenIdle();
    const detail = await server.getJson<ThreadDetail>(`/api/threads/${thread.id}`);

    const replay = await collectSse(`${eventsUrl()}?lastEventId=0`, {
      until: (events) => events.length > 0 && Number(events.at(-1)!.id) === detail.lastEventId,
    });
    expect(replay.map((e) => e.event)).toEqual([
      "message.created",
      "turn.updated",
      "thread.updated",
      "message.created",
      "message.completed",
      "turn.updated",
    ]);
    const replayIds = ids(replay);
    expect([...replayIds].sort((a, b) => a - b)).toEqual(replayIds);
    expect(new Set(replayIds).size).toBe(replayIds.length);
    const completed = parse(replay)[4]!;
    expect(completed.type === "message.completed" && completed.message.text).toBe(
      "alpha beta gamma delta",
    );
  });

  it("delivers only new events when the client gives no resume point", async () => {
    midStream.open();
    beforeComplete.open();
    await server.post(`/api/threads/${thread.id}/turns`, { input: "one" });
    await server.provider.whenIdle();
    const before = (await server.getJson<ThreadDetail>(`/api/threads/${thread.id}`)).lastEventId;

    const live = await collectSse(eventsUrl(), {
      until: turnDone,
      onOpen: async () => {
        await server.post(`/api/threads/${thread.id}/turns`, { input: "two" });
      },
    });
    expect(Number(live[0]!.id)).toBe(before + 1);
    expect(parse(live).some((e) => e.type === "thread.updated")).toBe(false);
    // The client hung up: the server releases its stream and listener.
    await waitFor(() => (server.openEventStreams() === 0 ? true : undefined));
  });

  it("replays a backlog longer than one page, in order, then continues live", async () => {
    const chunks = Array.from({ length: 1200 }, (_, i) => `${i};`);
    adapter.script = async (ctx) => {
      const writer = ctx.startMessage("answer");
      for (const chunk of chunks) {
        writer.append(chunk);
        await new Promise((resolve) => setImmediate(resolve));
      }
      await midStream.promise;
      writer.complete();
    };
    await server.post(`/api/threads/${thread.id}/turns`, { input: "long" });
    await waitFor(async () => {
      const d = await server.getJson<ThreadDetail>(`/api/threads/${thread.id}`);
      return d.lastEventId >= 4 + chunks.length ? true : undefined;
    });
    const events = await collectSse(eventsUrl(), {
      lastEventId: "0",
      until: (received) => {
        // Let the message complete (and its deltas be compacted) only once all were replayed.
        if (deltas(received) === chunks.length) midStream.open();
        return turnDone(received);
      },
    });
    expect(ids(events)).toEqual(ids(events).map((_, i) => i + 1));
    let text = "";
    for (const event of parse(events)) {
      if (event.type === "message.delta" && event.offset === text.length) text += event.delta;
    }
    expect(text).toBe(chunks.join(""));
    expect(deltas(events)).toBe(chunks.length);
  });

  it("sends keep-alive comments on an idle stream", async () => {
    const quick = await startTestServer({ adapter: new RecordingAdapter(), heartbeatMs: 20 });
    try {
      const created = (await (await quick.post("/api/threads", {})).json()) as Thread;
      const controller = new AbortController();
      const res = await fetch(`${quick.url}/api/threads/${created.id}/events`, {
        signal: controller.signal,
      });
      expect(res.headers.get("content-type")).toContain("text/event-stream");
      const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
      let text = "";
      while (!text.includes(": keep-alive")) text += (await reader.read()).value ?? "";
      controller.abort();
      expect(text.startsWith(": connected\n\n")).toBe(true);
    } finally {
      await quick.close();
      await removeDir(quick.dataDir);
    }
  });
});
