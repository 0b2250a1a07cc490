/**
 * Turns that never end on their own (issue 12): a provider that hangs, drips forever, sends
 * garbage or a huge reply, and the user's Stop. The real `openai` adapter talks to a fake
 * OpenAI-compatible server on 127.0.0.1; the chat server is real HTTP on a real SQLite file.
 */
import type { MessagePage, Thread, Turn } from "@app/protocol";
import { afterEach, describe, expect, it, vi } from "vitest";
import { DEFAULT_FLUSH_INTERVAL_MS } from "./domain/turnWriter.ts";
import { createOpenAiProvider } from "./providers/openai.ts";
import {
  type FakeOpenAiServer,
  type FakeReply,
  SSE_DONE,
  sseDelta,
  startFakeOpenAiServer,
} from "./providers/testing/fakeOpenAiServer.ts";
import {
  RecordingAdapter,
  removeDir,
  type StartServerOptionsForTest,
  startTestServer,
  type TestServer,
  waitFor,
} from "./testing/harness.ts";
import { ManualClock } from "./testing/manualClock.ts";

let server: TestServer | null = null;
let fake: FakeOpenAiServer | null = null;

afterEach(async () => {
  await server?.close();
  if (server) await removeDir(server.dataDir);
  await fake?.close();
  server = null;
  fake = null;
});

/** A chat server whose `openai` adapter talks to a fake endpoint answering with `replies`. */
async function start(
  replies: (index: number) => FakeReply,
  options: StartServerOptionsForTest = {},
): Promise<{ server: TestServer; fake: FakeOpenAiServer; thread: Thread }> {
  fake = await startFakeOpenAiServer((_, index) => replies(index));
  server = await startTestServer({
    adapter: createOpenAiProvider({ baseUrl: fake.baseUrl, model: "test-model" }),
    ...options,
  });
  const thread = (await (await server.post("/api/threads", {})).json()) as Thread;
  return { server, fake, thread };
}

async function send(thread: Thread, input: string): Promise<Turn> {
  const res = await server!.post(`/api/threads/${thread.id}/turns`, { input });
  expect(res.status).toBe(201);
  return ((await res.json()) as { turn: Turn }).turn;
}

async function page(thread: Thread): Promise<MessagePage> {
  return server!.getJson<MessagePage>(`/api/threads/${thread.id}/messages`);
}

async function settledTurn(thread: Thread, turnId: string): Promise<Turn> {
  return waitFor(async () => {
    const turn = (await page(thread)).turns.find((t) => t.id === turnId);
    return turn && turn.status !== "running" && turn.status !== "waiting_for_input"
      ? turn
      : undefined;
  });
}

const completeReply = (text: string): FakeReply => ({
  type: "stream",
  writes: [sseDelta(text), sseDelta(null, "stop"), SSE_DONE],
});

/** The turn's status as the history API shows it. */
async function statusOf(thread: Thread, turnId: string): Promise<string | undefined> {
  return (await page(thread)).turns.find((t) => t.id === turnId)?.status;
}

// The deadlines run on a manual clock: a turn times out when the test moves time past its
// deadline, never because a loaded machine was slow (the provider's own drip stays real).
describe("deadlines", () => {
  it("fails a turn whose provider sends nothing, closes the request, and runs the next turn", async () => {
    const clock = new ManualClock(Date.now());
    const { thread, fake } = await start(
      (i) => (i === 0 ? { type: "hang", writes: [] } : completeReply("second answer")),
      { providerIdleTimeoutMs: 1_000, clock },
    );
    const stuck = await send(thread, "hang please");
    const next = await send(thread, "and then");
    // The provider has the request: the turn's clocks are running.
    await waitFor(() => (fake.requests.length === 1 ? true : undefined));
    clock.advance(999);
    expect(await statusOf(thread, stuck.id)).toBe("running");
    clock.advance(1);
    expect(await settledTurn(thread, stuck.id)).toMatchObject({
      status: "failed",
      error: { code: "provider_idle_timeout" },
    });
    await fake.clientGone;
    expect(await settledTurn(thread, next.id)).toMatchObject({ status: "completed" });
    const messages = (await page(thread)).messages;
    const notice = messages.find((m) => m.kind === "error")!;
    expect(notice.text).toMatch(/sent nothing for 1 s.*PROVIDER_IDLE_TIMEOUT_MS/);
    expect(messages.at(-1)!.text).toBe("second answer");
  });

  it("fails a turn that drips past the turn deadline and keeps what it wrote", async () => {
    const clock = new ManualClock(Date.now());
    const armed = vi.spyOn(clock, "setTimeout");
    const { thread, fake } = await start(
      () => ({ type: "drip", write: sseDelta("drip "), everyMs: 10 }),
      { providerIdleTimeoutMs: 5_000, providerTurnTimeoutMs: 400, clock },
    );
    const turn = await send(thread, "drip please");
    // The first drip reached the writer: it armed its flush.
    await waitFor(() =>
      armed.mock.calls.some(([, ms]) => ms === DEFAULT_FLUSH_INTERVAL_MS) ? true : undefined,
    );
    clock.advance(399);
    expect(await statusOf(thread, turn.id)).toBe("running");
    clock.advance(1);
    expect(await settledTurn(thread, turn.id)).toMatchObject({
      status: "failed",
      error: { code: "provider_turn_timeout" },
    });
    await fake.clientGone;
    const answer = (await page(thread)).messages.find((m) => m.kind === "answer")!;
    expect(answer.status).toBe("error");
    expect(answer.text).toMatch(/^(drip )+$/);
  });
});

describe("bad and huge replies", () => {
  it("fails a turn whose provider sends garbage with a clear message", async () => {
    const { thread } = await start(() => ({
      type: "stream",
      writes: ["data: <html>not json</html>\n\n"],
    }));
    const turn = await send(thread, "garbage please");
    expect(await settledTurn(thread, turn.id)).toMatchObject({
      status: "failed",
      error: { code: "provider_error" },
    });
    const notice = (await page(thread)).messages.find((m) => m.kind === "error")!;
    expect(notice.text).toMatch(/malformed chunk/);
  });

  it("stops a reply at MAX_REPLY_CHARS, keeps exactly that much, and closes the request", async () => {
    const { thread, fake } = await start(
      () => ({ type: "flood", count: 5_000, chunk: (i) => sseDelta(`${i % 10}`.repeat(1000)) }),
      { maxReplyChars: 1_000_000 },
    );
    const turn = await send(thread, "flood please");
    const ended = await settledTurn(thread, turn.id);
    expect(ended).toMatchObject({ status: "failed", error: { code: "reply_too_long" } });
    expect(ended.error!.message).toMatch(/1,000,000 characters.*MAX_REPLY_CHARS/);
    await fake.clientGone;
    const answer = (await page(thread)).messages.find((m) => m.kind === "answer")!;
    expect(answer.text.length).toBe(1_000_000);
    expect(answer.text.slice(0, 2000)).toBe(`${"0".repeat(1000)}${"1".repeat(1000)}`);
  });

  it("sends adapters a bounded history: long answers push the oldest turns out", async () => {
    const adapter = new RecordingAdapter(async (ctx, index) => {
      const writer = ctx.startMessage("answer");
      // Each answer is 200,000 characters: only two fit the 480,000-character budget.
      writer.append(String(index).repeat(200_000));
      writer.complete();
    });
    server = await startTestServer({ adapter });
    const thread = (await (await server.post("/api/threads", {})).json()) as Thread;
    for (let i = 0; i < 4; i++) await send(thread, `turn ${i}`);
    await server.provider.whenIdle();
    const last = adapter.turns.at(-1)!;
    expect(last.history.map((entry) => `${entry.role}:${entry.text.slice(0, 6)}`)).toEqual([
      "user:turn 1",
      "assistant:111111",
      "user:turn 2",
      "assistant:222222",
    ]);
  });
});

describe("Stop (POST .../turns/:turnId/cancel)", () => {
  it("aborts the provider, keeps the partial reply, marks the turn cancelled and runs the next one", async () => {
    const { thread, fake } = await start((i) =>
      i === 0 ? { type: "drip", write: sseDelta("part "), everyMs: 10 } : completeReply("next"),
    );
    const running = await send(thread, "long answer please");
    const queued = await send(thread, "after that");
    await waitFor(async () =>
      (await page(thread)).messages.some((m) => m.kind === "answer" && m.text.length >= 10)
        ? true
        : undefined,
    );
    const cancelPath = `/api/threads/${thread.id}/turns/${running.id}/cancel`;
    const res = await server!.post(cancelPath, {});
    expect(res.status).toBe(200);
    const { turn } = (await res.json()) as { turn: Turn };
    expect(turn).toMatchObject({ id: running.id, status: "cancelled", error: null });
    await fake.clientGone;

    expect((await settledTurn(thread, queued.id)).status).toBe("completed");
    const messages = (await page(thread)).messages;
    const partial = messages.find((m) => m.turnId === running.id && m.kind === "answer")!;
    expect(partial.status).toBe("complete");
    expect(partial.text).toMatch(/^(part )+$/);
    expect(messages.some((m) => m.kind === "error")).toBe(false);

    // Stopping again returns it unchanged; a finished turn cannot be stopped; unknown ids 404.
    const again = await server!.post(cancelPath, {});
    expect(again.status).toBe(200);
    const finished = await server!.post(`/api/threads/${thread.id}/turns/${queued.id}/cancel`, {});
    expect(finished.status).toBe(409);
    expect(((await finished.json()) as { error: { code: string } }).error.code).toBe(
      "turn_not_running",
    );
    const unknown = await server!.post(`/api/threads/${thread.id}/turns/nope/cancel`, {});
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { error: { code: string } }).error.code).toBe(
      "turn_not_found",
    );
  });

  it("cancels a queued turn before it runs, and never waits on an adapter that ignores its signal", async () => {
    const adapter = new RecordingAdapter(async (ctx, index) => {
      if (index === 0) {
        ctx.startMessage("answer").append("ignoring the signal");
        await new Promise(() => {}); // never settles, never looks at ctx.signal
      }
      const writer = ctx.startMessage("answer");
      writer.append(`answer to ${ctx.input}`);
      writer.complete();
    });
    server = await startTestServer({ adapter });
    const thread = (await (await server.post("/api/threads", {})).json()) as Thread;
    const first = await send(thread, "one");
    const second = await send(thread, "two");
    const third = await send(thread, "three");
    await waitFor(() => (adapter.turns.length === 1 ? true : undefined));

    const cancelSecond = await server.post(
      `/api/threads/${thread.id}/turns/${second.id}/cancel`,
      {},
    );
    expect(((await cancelSecond.json()) as { turn: Turn }).turn.status).toBe("cancelled");
    const cancelFirst = await server.post(`/api/threads/${thread.id}/turns/${first.id}/cancel`, {});
    expect(((await cancelFirst.json()) as { turn: Turn }).turn.status).toBe("cancelled");

    expect((await settledTurn(thread, third.id)).status).toBe("completed");
    expect(adapter.turns.map((t) => t.input)).toEqual(["one", "three"]);
    // The first reply's message is stored when the adapter starts it: before or after the
    // prompts sent meanwhile, as the store's latency has it.
    const texts = (await page(thread)).messages.map((m) => m.text);
    expect(texts.filter((t) => ["one", "two", "three"].includes(t))).toEqual([
      "one",
      "two",
      "three",
    ]);
    expect(texts.indexOf("ignoring the signal")).toBeGreaterThan(texts.indexOf("one"));
    expect(texts.at(-1)).toBe("answer to three");
    expect(texts).toHaveLength(5);
  });
});
