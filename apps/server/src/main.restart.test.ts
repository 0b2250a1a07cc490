import type { MessagePage, Thread, ThreadDetail } from "@app/protocol";
import { describe, expect, it } from "vitest";
import type { ProviderTurnContext } from "./providers/types.ts";
import {
  citationLink,
  makeTempDir,
  RecordingAdapter,
  removeDir,
  startTestServer,
  waitFor,
} from "./testing/harness.ts";
import { seedInterruptedTurn } from "./testing/interruptedTurn.ts";

describe("restart", () => {
  it("keeps threads, messages, provider inputs, event ids and the environment id", async () => {
    const dataDir = await makeTempDir();
    try {
      const first = await startTestServer({ adapter: new RecordingAdapter(), dataDir });
      const thread = (await (await first.post("/api/threads", {})).json()) as Thread;
      const input = `Keep ${citationLink({ text: "this quote" })} safe`;
      const sent = (await (
        await first.post(`/api/threads/${thread.id}/turns`, { input })
      ).json()) as {
        turn: { id: string };
      };
      await first.provider.whenIdle();
      const detailBefore = await first.getJson<ThreadDetail>(`/api/threads/${thread.id}`);
      const pageBefore = await first.getJson<MessagePage>(`/api/threads/${thread.id}/messages`);
      const providerBefore = await first.getJson(
        `/api/threads/${thread.id}/turns/${sent.turn.id}/provider-input`,
      );
      await first.close();

      const second = await startTestServer({ adapter: new RecordingAdapter(), dataDir });
      try {
        expect(second.environmentId).toBe(first.environmentId);
        expect(await second.getJson(`/api/threads/${thread.id}`)).toEqual(detailBefore);
        expect(await second.getJson(`/api/threads/${thread.id}/messages`)).toEqual(pageBefore);
        expect(pageBefore.messages[0]!.text).toBe(input);
        expect(
          await second.getJson(`/api/threads/${thread.id}/turns/${sent.turn.id}/provider-input`),
        ).toEqual(providerBefore);
        expect((await second.getJson<{ threads: Thread[] }>("/api/threads")).threads).toHaveLength(
          1,
        );

        // New events continue the same per-thread sequence.
        await second.post(`/api/threads/${thread.id}/turns`, { input: "after restart" });
        await second.provider.whenIdle();
        const detailAfter = await second.getJson<ThreadDetail>(`/api/threads/${thread.id}`);
        expect(detailAfter.lastEventId).toBeGreaterThan(detailBefore.lastEventId);
        expect(detailAfter.thread.messageCount).toBe(4);
      } finally {
        await second.close();
      }
    } finally {
      await removeDir(dataDir);
    }
  });

  it("marks a turn cut off by shutdown as failed, visibly, and keeps the prompt", async () => {
    const dataDir = await makeTempDir();
    try {
      let started: ProviderTurnContext | null = null;
      const stuck = new RecordingAdapter(async (ctx) => {
        started = ctx;
        ctx.startMessage("answer").append("half an ans");
        await new Promise((_, reject) =>
          ctx.signal.addEventListener("abort", () => reject(ctx.signal.reason)),
        );
      });
      const first = await startTestServer({ adapter: stuck, dataDir });
      const thread = (await (await first.post("/api/threads", {})).json()) as Thread;
      await first.post(`/api/threads/${thread.id}/turns`, { input: "never finishes" });
      await waitFor(() => (started ? true : undefined));
      await first.close();

      const second = await startTestServer({ adapter: new RecordingAdapter(), dataDir });
      try {
        const page = await second.getJson<MessagePage>(`/api/threads/${thread.id}/messages`);
        expect(page.messages.map((m) => [m.kind, m.status])).toEqual([
          ["prompt", "complete"],
          ["answer", "error"],
          ["error", "complete"],
        ]);
        expect(page.messages[0]!.text).toBe("never finishes");
        expect(page.turns[0]).toMatchObject({ status: "failed", error: { code: "cancelled" } });
        const detail = await second.getJson<ThreadDetail>(`/api/threads/${thread.id}`);
        expect(detail.activeTurn).toBeNull();
      } finally {
        await second.close();
      }
    } finally {
      await removeDir(dataDir);
    }
  });

  it("marks the turn a crashed process had started as interrupted and runs the queued ones in order", async () => {
    const dataDir = await makeTempDir();
    try {
      // What a killed process leaves behind: a started turn with a half-written answer, and
      // two prompts queued behind it that never started.
      seedInterruptedTurn(dataDir, ["second", "third"]);

      const adapter = new RecordingAdapter();
      const server = await startTestServer({ adapter, dataDir });
      try {
        const page = await waitFor(async () => {
          const p = await server.getJson<MessagePage>("/api/threads/t1/messages");
          return p.turns.every((t) => t.status !== "running") ? p : undefined;
        });
        expect(page.messages.map((m) => [m.id === "m2" ? "m2" : m.kind, m.status])).toEqual([
          ["prompt", "complete"],
          ["m2", "error"],
          // The queued prompts were stored before the turn ahead of them was ended.
          ["prompt", "complete"],
          ["prompt", "complete"],
          ["error", "complete"],
          ["answer", "complete"],
          ["answer", "complete"],
        ]);
        expect(page.turns.map((t) => [t.id, t.status, t.error?.code ?? null])).toEqual([
          ["turn1", "failed", "interrupted"],
          ["queued-1", "completed", null],
          ["queued-2", "completed", null],
        ]);
        expect(adapter.turns.map((t) => t.input)).toEqual(["second", "third"]);
        // Clients that reconnect learn about it through the event log.
        const detail = await server.getJson<ThreadDetail>("/api/threads/t1");
        expect(detail.lastEventId).toBeGreaterThan(0);
      } finally {
        await server.close();
      }
    } finally {
      await removeDir(dataDir);
    }
  });
});
