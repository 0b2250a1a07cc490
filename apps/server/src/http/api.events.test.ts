import type { Message, ServerEvent, Thread, ThreadDetail } from "@app/protocol";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  collectSse,
  RecordingAdapter,
  removeDir,
  type SseCursor,
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
    // First connection: from the start, until the first two chunks arrived (the adapter is
    // paused). Text reaches readers once stored (issue 29): both come in the flush's row, with
    // its id, which the browser keeps.
    const cursor: SseCursor = { lastEventId: "0" };
    const first = await collectSse(eventsUrl(), {
      lastEventId: "0",
      cursor,
      until: (events) => deltas(events) >= 1,
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
    ]);
    for (const e of first) expect(e.event).toBe((JSON.parse(e.data) as ServerEvent).type);
    expect(first[4]?.id).toBe("5");
    expect(parse(first)[4]).toMatchObject({ offset: 0, delta: "alpha beta " });
    expect(cursor.lastEventId).toBe("5");

    // While disconnected, two more chunks are written and stored.
    midStream.open();
    await waitFor(async () => {
      const page = await server.getJson<{ messages: Message[] }>(
        `/api/threads/${thread.id}/messages`,
      );
      return page.messages[1]?.text === "alpha beta gamma delta" ? true : undefined;
    });

    // The reply completes once the replay has begun to arrive: the replay is one read of the
    // stored events, so it has its deltas before completion compacts them. (Completing as soon as
    // the response opened raced that read on PostgreSQL, whose replay is read after the headers
    // are sent: the replay then held only message.completed. CI, 2026-12-06.)
    const second = await collectSse(eventsUrl(), {
      lastEventId: cursor.lastEventId,
      until: (events) => {
        if (events.length > 0) beforeComplete.open();
        return turnDone(events);
      },
    });
    expect(second.at(-2)?.event).toBe("message.completed");
    expect(second.at(-1)?.event).toBe("turn.updated");
    const stored = [...first, ...second].filter((e) => e.id !== null);
    expect(new Set(ids(stored)).size).toBe(stored.length);
    expect([...ids(stored)].sort((x, y) => x - y)).toEqual(ids(stored));

    // Rebuild the answer from the chunks exactly as the web app does: by offset, keeping only
    // the part of a chunk it does not have yet.
    let text = "";
    for (const event of parse([...first, ...second])) {
      if (event.type !== "message.delta" || event.offset > text.length) continue;
      text += event.delta.slice(text.length - event.offset);
    }
    expect(text).toBe("alpha beta gamma delta");
    const completed = parse(second).find((e) => e.type === "message.completed");
    expect(completed?.type === "message.completed" && completed.message.text).toBe(text);
  });

  it("sends a live client each character once, only once stored, with the stored row's id", async () => {
    midStream.open();
    const cursor: SseCursor = { lastEventId: "0" };
    let storedDeltaId = 0;
    const events = await collectSse(eventsUrl(), {
      lastEventId: "0",
      cursor,
      until: turnDone,
      onOpen: async () => {
        await server.post(`/api/threads/${thread.id}/turns`, { input: "hi" });
        // Events 1-4: prompt, turn, title, answer created. Once the flush stored the chunks
        // (event 5) and the client's cursor moved to it, let the message complete.
        void (async () => {
          storedDeltaId = await waitFor(async () => {
            const d = await server.getJson<ThreadDetail>(`/api/threads/${thread.id}`);
            return d.lastEventId >= 5 ? d.lastEventId : undefined;
          });
          await waitFor(() => (Number(cursor.lastEventId) >= storedDeltaId ? true : undefined));
          beforeComplete.open();
        })();
      },
    });
    expect(storedDeltaId).toBe(5);
    const chunks = parse(events).filter((e) => e.type === "message.delta");
    expect(chunks.map((e) => (e.type === "message.delta" ? e.delta : "")).join("")).toBe(
      "alpha beta gamma delta",
    );
    // Every delta went out as its stored row (an id); the broadcast copy after the commit
    // carried nothing new and was not sent.
    expect(events.filter((e) => e.event === "message.delta").every((e) => e.id !== null)).toBe(
      true,
    );
    expect(events.find((e) => Number(e.id) === storedDeltaId)?.event).toBe("message.delta");
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
    adapter.script = async (ctx) => {
      const writer = ctx.startMessage("answer");
      writer.append(`Reply to ${ctx.input}`);
      writer.complete();
    };
    // 150 turns of 5 stored events each: more than one replay page of 500.
    for (let i = 0; i < 150; i++) {
      await server.post(`/api/threads/${thread.id}/turns`, { input: `turn ${i}` });
    }
    await server.provider.whenIdle();
    const detail = await server.getJson<ThreadDetail>(`/api/threads/${thread.id}`);
    expect(detail.lastEventId).toBeGreaterThan(500);
    // `until` runs after every read: it parses only the events that arrived since the last one
    // (parsing the whole list each time was quadratic in the backlog).
    let counted = 0;
    let doneCount = 0;
    const events = await collectSse(eventsUrl(), {
      lastEventId: "0",
      until: (received) => {
        for (; counted < received.length; counted++) {
          const e = JSON.parse(received[counted]!.data) as ServerEvent;
          if (e.type === "turn.updated" && e.turn.status === "completed") doneCount++;
        }
        if (doneCount === 150 && received.length === ids(received).length) {
          // Backlog replayed: one more turn arrives live.
          if (
            !received.some((e) => e.event === "message.created" && e.data.includes("live turn"))
          ) {
            void server.post(`/api/threads/${thread.id}/turns`, { input: "live turn" });
          }
        }
        return doneCount === 151;
      },
    });
    const stored = events.filter((e) => e.id !== null);
    expect([...ids(stored)].sort((x, y) => x - y)).toEqual(ids(stored));
    expect(new Set(ids(stored)).size).toBe(stored.length);
    const answers = parse(events).flatMap((e) =>
      e.type === "message.completed" ? [e.message.text] : [],
    );
    expect(answers).toEqual([
      ...Array.from({ length: 150 }, (_, i) => `Reply to turn ${i}`),
      "Reply to live turn",
    ]);
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
