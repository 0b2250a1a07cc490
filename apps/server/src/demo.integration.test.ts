import {
  type MessagePage,
  type Thread,
  type ThreadDetail,
  UserInputAnswerResponseSchema,
} from "@app/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  citationLink,
  removeDir,
  startTestServer,
  type TestServer,
  waitFor,
} from "./testing/harness.ts";

let server: TestServer;

beforeAll(async () => {
  // No adapter given: the server picks the real one from the environment (PROVIDER unset: demo).
  server = await startTestServer({ env: {} });
});

afterAll(async () => {
  await server.close();
  await removeDir(server.dataDir);
});

describe("with the real demo provider", () => {
  it("streams a Markdown answer that accounts for the expanded citations it received", async () => {
    const env = await server.getJson<{ provider: string }>("/api/environment");
    expect(env.provider).toBe("demo");
    const thread = (await (await server.post("/api/threads", {})).json()) as Thread;
    const link = citationLink({ text: "the cited sentence", comment: "is this right?" });
    const input = `Check ${link} please`;
    const sent = await server.post(`/api/threads/${thread.id}/turns`, { input });
    expect(sent.status).toBe(201);
    await server.provider.whenIdle();

    const page = await server.getJson<MessagePage>(`/api/threads/${thread.id}/messages`);
    expect(page.messages[0]!.text).toBe(input);
    const answer = page.messages.find((m) => m.kind === "answer")!;
    expect(answer.status).toBe("complete");
    expect(answer.text).toContain("assistant-quote-1");
    expect(answer.text).toContain("the cited sentence");
    expect(answer.text).not.toContain("t3-citation");
    expect(page.turns[0]!.status).toBe("completed");

    const detail = await server.getJson<ThreadDetail>(`/api/threads/${thread.id}`);
    expect(detail.thread.title).toBe("Check the cited sentence Comment: is this right? please");
  });

  it("asks a question and continues with the raw answer", async () => {
    const thread = (await (await server.post("/api/threads", {})).json()) as Thread;
    await server.post(`/api/threads/${thread.id}/turns`, { input: "please ask me something" });
    const pending = await waitFor(async () => {
      const d = await server.getJson<ThreadDetail>(`/api/threads/${thread.id}`);
      return d.pendingUserInput ?? undefined;
    });
    const question = pending.questions[0]!;
    const answer = `B, and see ${citationLink({ text: "raw link" })}`;
    const res = await server.post(`/api/threads/${thread.id}/user-input`, {
      requestId: pending.id,
      answers: { [question.id]: answer },
    });
    expect(res.status).toBe(200);
    expect(UserInputAnswerResponseSchema.parse(await res.json()).requestId).toBe(pending.id);
    await server.provider.whenIdle();
    const page = await server.getJson<MessagePage>(`/api/threads/${thread.id}/messages`);
    const last = page.messages.at(-1)!;
    expect(last.text).toContain(answer);
    expect(page.turns[0]!.status).toBe("completed");
  });
});
