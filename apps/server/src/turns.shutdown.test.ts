/**
 * Shutdown (SIGTERM runs `close()`) on the run's store, SQLite or PostgreSQL: the running turn
 * is recorded first and open event streams receive that outcome before they close; queued turns
 * stay queued and run in order on the next start.
 */
import type { MessagePage, SendTurnResponse, ServerEvent, Thread } from "@app/protocol";
import { describe, expect, it } from "vitest";
import type { ProviderTurnContext } from "./providers/types.ts";
import {
  collectSse,
  makeTempDir,
  RecordingAdapter,
  removeDir,
  startTestServer,
  type TestServer,
  waitFor,
} from "./testing/harness.ts";

/** An adapter whose turns stream a little, then wait until they are aborted. */
function stuckAdapter(started: ProviderTurnContext[]): RecordingAdapter {
  return new RecordingAdapter(async (ctx) => {
    started.push(ctx);
    ctx.startMessage("answer").append("half an answer");
    await new Promise((_, reject) =>
      ctx.signal.addEventListener("abort", () => reject(ctx.signal.reason)),
    );
  });
}

async function sendAll(server: TestServer, threadId: string, inputs: string[]) {
  const sent: SendTurnResponse[] = [];
  // One after another, so the queue order is the order of `inputs`.
  for (const input of inputs) {
    const res = await server.post(`/api/threads/${threadId}/turns`, { input });
    expect(res.status).toBe(201);
    sent.push((await res.json()) as SendTurnResponse);
  }
  return sent;
}

describe("shutdown", () => {
  it("records the running turn, keeps the queued ones queued, and the next start runs them in order", async () => {
    const dataDir = await makeTempDir();
    try {
      const started: ProviderTurnContext[] = [];
      const first = await startTestServer({ adapter: stuckAdapter(started), dataDir });
      const thread = (await (await first.post("/api/threads", {})).json()) as Thread;
      const sent = await sendAll(first, thread.id, ["running", "queued one", "queued two"]);
      await waitFor(() => (started.length === 1 ? true : undefined));
      await first.close();
      // Only the running turn ran, and it is recorded; the queued ones never started.
      expect(started.map((ctx) => ctx.input)).toEqual(["running"]);

      const adapter = new RecordingAdapter();
      const second = await startTestServer({ adapter, dataDir });
      try {
        const page = await waitFor(async () => {
          const p = await second.getJson<MessagePage>(`/api/threads/${thread.id}/messages`);
          // Turns and messages are separate reads: wait until the last answer is in too.
          const lastAnswer = p.messages.find(
            (m) => m.turnId === sent[2]!.turn.id && m.kind === "answer" && m.status === "complete",
          );
          return p.turns.every((t) => t.status !== "running") && lastAnswer ? p : undefined;
        });
        expect(page.turns.map((t) => [t.id, t.status, t.error?.code ?? null])).toEqual([
          [sent[0]!.turn.id, "failed", "cancelled"],
          [sent[1]!.turn.id, "completed", null],
          [sent[2]!.turn.id, "completed", null],
        ]);
        expect(adapter.turns.map((t) => t.input)).toEqual(["queued one", "queued two"]);
        // Each turn holds its own messages (their interleaving across turns is not fixed).
        const ofTurn = (turnId: string) =>
          page.messages.filter((m) => m.turnId === turnId).map((m) => [m.kind, m.status, m.text]);
        expect(ofTurn(sent[0]!.turn.id).slice(0, 2)).toEqual([
          ["prompt", "complete", "running"],
          ["answer", "error", "half an answer"],
        ]);
        expect(ofTurn(sent[0]!.turn.id)[2]?.slice(0, 2)).toEqual(["error", "complete"]);
        expect(ofTurn(sent[1]!.turn.id)).toEqual([
          ["prompt", "complete", "queued one"],
          ["answer", "complete", "Reply to turn 1"],
        ]);
        expect(ofTurn(sent[2]!.turn.id)).toEqual([
          ["prompt", "complete", "queued two"],
          ["answer", "complete", "Reply to turn 2"],
        ]);
      } finally {
        await second.close();
      }
    } finally {
      await removeDir(dataDir);
    }
  });

  it("sends open event streams the running turn's outcome before closing them", async () => {
    const dataDir = await makeTempDir();
    try {
      const started: ProviderTurnContext[] = [];
      const server = await startTestServer({ adapter: stuckAdapter(started), dataDir });
      const thread = (await (await server.post("/api/threads", {})).json()) as Thread;
      const [sent] = await sendAll(server, thread.id, ["running"]);
      await waitFor(() => (started.length === 1 ? true : undefined));
      let closing: Promise<void> | null = null;
      // Reads until the server ends the stream.
      const events = await collectSse(`${server.url}/api/threads/${thread.id}/events`, {
        lastEventId: "0",
        until: () => false,
        onOpen: () => {
          closing = server.close();
        },
      });
      await closing;
      const parsed = events.map((e) => JSON.parse(e.data) as ServerEvent);
      const outcome = parsed.find(
        (e) =>
          e.type === "turn.updated" && e.turn.id === sent!.turn.id && e.turn.status !== "running",
      );
      expect(outcome).toMatchObject({
        type: "turn.updated",
        turn: { status: "failed", error: { code: "cancelled" } },
      });
      // The notice and the kept partial answer came too.
      expect(parsed.some((e) => e.type === "message.created" && e.message.kind === "error")).toBe(
        true,
      );
      expect(
        parsed.some(
          (e) =>
            e.type === "message.completed" &&
            e.message.kind === "answer" &&
            e.message.text === "half an answer",
        ),
      ).toBe(true);
    } finally {
      await removeDir(dataDir);
    }
  });
});
