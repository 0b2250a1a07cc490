/**
 * A real server process killed with SIGKILL while a reply streams and prompts wait behind it,
 * on the run's store (SQLite file, or PostgreSQL in `server-pg`, where the new process takes
 * the turn over once its lease expires). After the restart:
 * - every acknowledged prompt is present exactly once;
 * - the turn that was running is interrupted, and its kept partial text is exactly the text of
 *   the delta rows committed before the kill, the start of the very reply clients were streamed;
 * - what a reader saw stays (issue 29): the text a client was streamed before the kill is a
 *   prefix of the text kept after the restart (text reaches readers only once it is stored);
 * - the queued turns, never started, complete in order.
 * CRASH_ROUNDS sets the number of kills (default 2); the figures go to PERFORMANCE.md.
 */
import type { MessagePage, ServerEvent, Thread, Turn } from "@app/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { planDemoTurn } from "./providers/demo.ts";
import {
  collectSse,
  makeTempDir,
  openTestStore,
  removeDir,
  type SseEvent,
  testDatabaseUrl,
  testStoreKind,
  waitFor,
} from "./testing/harness.ts";
import { requestJson, type ServerProcess, startServerProcess } from "./testing/serverProcess.ts";

const ROUNDS = Number(process.env.CRASH_ROUNDS ?? 2);
const LEASE_MS = 1_500;
const QUEUED = 3;
let dataDir: string;
let env: Record<string, string>;
const running: ServerProcess[] = [];

beforeAll(async () => {
  dataDir = await makeTempDir("chat-crash-");
  const databaseUrl = await testDatabaseUrl(dataDir);
  env = {
    DATA_DIR: dataDir,
    WEB_DIST: `${dataDir}/no-web-dist`,
    DEMO_CHUNK_DELAY_MS: "4",
    TURN_LEASE_MS: String(LEASE_MS),
    ...(databaseUrl === null ? {} : { DATABASE_URL: databaseUrl }),
  };
}, 60_000);

afterAll(async () => {
  await Promise.all(running.map((p) => p.kill("SIGKILL")));
  await removeDir(dataDir);
});

async function start(): Promise<ServerProcess> {
  const server = await startServerProcess(env);
  running.push(server);
  return server;
}

/** The text of an answer as an SSE client rebuilds it from deltas. */
function streamedText(events: { data: string }[], messageId: string): string {
  let text = "";
  for (const e of events) {
    const event = JSON.parse(e.data) as ServerEvent;
    if (event.type === "message.delta" && event.messageId === messageId) {
      if (event.offset <= text.length) text += event.delta.slice(text.length - event.offset);
    }
  }
  return text;
}

/** The answer is complete or ended with its turn. */
function ended(events: { data: string }[], messageId: string): boolean {
  return events.some((e) => {
    const event = JSON.parse(e.data) as ServerEvent;
    return event.type === "message.completed" && event.message.id === messageId;
  });
}

/** The text of the answer's committed delta rows, read from the store after the kill. */
async function committedText(threadId: string, messageId: string): Promise<string> {
  const store = await openTestStore(dataDir);
  try {
    let text = "";
    for (const { event } of await store.eventsAfter(threadId, 0, 1_000_000)) {
      if (event.type !== "message.delta" || event.messageId !== messageId) continue;
      // Every row starts where the previous one ended.
      expect(event.offset).toBe(text.length);
      text += event.delta;
    }
    return text;
  } finally {
    await store.close();
  }
}

describe(`a server process killed mid-reply with a queue (${testStoreKind})`, () => {
  it(`keeps every acknowledged prompt once, the committed partial text, and runs the queue (${ROUNDS} kills)`, async () => {
    const figures: Record<string, number>[] = [];
    // One process at a time: a second live one could claim the turn itself (its sweep), and
    // the kill would not cut it off (two processes are multiProcess.postgres.test.ts's).
    let server = await start();
    for (let round = 0; round < ROUNDS; round++) {
      const thread = await requestJson<Thread>(server, "/api/threads", {});
      const url = `${server.url}/api/threads/${thread.id}/events`;
      const acknowledged: Turn[] = [];
      let answerId = "";
      let createdAt = Number.POSITIVE_INFINITY;
      // The client's Last-Event-ID: it moves on bare `id:` lines too, as stored delta rows
      // of text the client already has are sent.
      const cursor = { lastEventId: "0" };
      // Stream until some of the answer is committed, then queue prompts and kill.
      const events = await collectSse(url, {
        lastEventId: "0",
        cursor,
        onOpen: async () => {
          const sent = await requestJson<{ turn: Turn }>(
            server,
            `/api/threads/${thread.id}/turns`,
            { input: `long reply please, round ${round}` },
          );
          acknowledged.push(sent.turn);
        },
        until: (seen) => {
          for (const e of seen) {
            const event = JSON.parse(e.data) as ServerEvent;
            if (event.type === "message.created" && event.message.kind === "answer") {
              answerId = event.message.id;
              createdAt = Number(e.id);
            }
          }
          // A stored delta row of the answer has committed (stored events carry ids).
          return Number(cursor.lastEventId) > createdAt;
        },
      });
      for (let i = 0; i < QUEUED; i++) {
        const sent = await requestJson<{ turn: Turn }>(server, `/api/threads/${thread.id}/turns`, {
          input: `queued ${i}, round ${round}`,
        });
        acknowledged.push(sent.turn);
      }
      // What clients have been streamed up to the kill (this client reads on until then).
      // (The stream breaks at the kill: the events seen so far are kept by reference.)
      let more: SseEvent[] = [];
      const streamedBefore = streamedText(events, answerId).length;
      let streamedOn: () => void = () => {};
      const replyMoved = new Promise<void>((resolve) => {
        streamedOn = resolve;
      });
      const reading = collectSse(url, {
        lastEventId: "0",
        until: (seen) => {
          more = seen;
          // The kill comes once this client has text the first had not (the reply streams on,
          // in the server process) or the answer ended (the checks below then fail).
          if (streamedText(seen, answerId).length > streamedBefore || ended(seen, answerId)) {
            streamedOn();
          }
          return false;
        },
      })
        .catch(() => [])
        .finally(() => streamedOn());
      await replyMoved;
      await server.kill("SIGKILL");
      await reading;
      const streamed = streamedText([...events, ...more], answerId);

      const committed = await committedText(thread.id, answerId);
      const restartedAt = performance.now();
      server = await start();
      const page = await waitFor(async () => {
        const p = await requestJson<MessagePage>(
          server,
          `/api/threads/${thread.id}/messages?limit=200`,
        );
        return p.turns.length === acknowledged.length &&
          p.turns.every((t) => t.status !== "running")
          ? p
          : undefined;
      }, 60_000);
      const recoveredMs = performance.now() - restartedAt;

      // Every acknowledged prompt, once, in the order sent.
      const prompts = page.messages.filter((m) => m.kind === "prompt");
      expect(prompts.map((m) => m.turnId)).toEqual(acknowledged.map((t) => t.id));
      // The running turn is interrupted; the queued ones completed, in order.
      const status = new Map(page.turns.map((t) => [t.id, t]));
      expect(status.get(acknowledged[0]!.id)).toMatchObject({
        status: "failed",
        error: { code: "interrupted" },
      });
      for (const turn of acknowledged.slice(1)) {
        expect(status.get(turn.id)?.status).toBe("completed");
      }
      const answers = page.messages.filter((m) => m.kind === "answer");
      expect(answers.map((m) => m.turnId)).toEqual(acknowledged.map((t) => t.id));
      // The kept partial text is exactly the committed rows' text; it and what clients were
      // streamed are both the start of the one reply the (deterministic) demo was writing.
      // (A client can lag behind a commit; it is never ahead of one.)
      const kept = answers[0]!;
      expect(kept.id).toBe(answerId);
      expect(kept.status).toBe("error");
      expect(committed.length).toBeGreaterThan(0);
      expect(kept.text).toBe(committed);
      const reply = planDemoTurn(`long reply please, round ${round}`, []).answer();
      expect(reply.startsWith(committed)).toBe(true);
      expect(reply.startsWith(streamed)).toBe(true);
      // Seen live ⊆ kept after the restart: nothing a reader was shown is taken back.
      expect(streamed.length).toBeGreaterThan(0);
      expect(kept.text.startsWith(streamed)).toBe(true);
      figures.push({
        streamed: streamed.length,
        kept: kept.text.length,
        lostSinceLastCommit: Math.max(0, streamed.length - kept.text.length),
        recoveredMs: Math.round(recoveredMs),
      });
    }
    console.log(`crash figures (${testStoreKind}): ${JSON.stringify(figures)}`);
    // One process per SQLite file: the next test starts its own.
    await server.kill("SIGTERM");
  }, 180_000);
});

describe(`a server process stopped with SIGTERM mid-reply with a queue (${testStoreKind})`, () => {
  it("records the running turn as cancelled and leaves the queued turns to the next start, in order", async () => {
    let server = await start();
    const thread = await requestJson<Thread>(server, "/api/threads", {});
    const acknowledged: Turn[] = [];
    for (const input of ["long reply please", "queued 0", "queued 1"]) {
      const sent = await requestJson<{ turn: Turn }>(server, `/api/threads/${thread.id}/turns`, {
        input,
      });
      acknowledged.push(sent.turn);
    }
    // The long reply is streaming (a stored row of it has committed).
    const cursor = { lastEventId: "0" };
    let createdAt = Number.POSITIVE_INFINITY;
    await collectSse(`${server.url}/api/threads/${thread.id}/events`, {
      lastEventId: "0",
      cursor,
      until: (seen) => {
        for (const e of seen) {
          const event = JSON.parse(e.data) as ServerEvent;
          if (event.type === "message.created" && event.message.kind === "answer") {
            createdAt = Number(e.id);
          }
        }
        return Number(cursor.lastEventId) > createdAt;
      },
    });
    await server.kill("SIGTERM");
    expect(server.child.exitCode).toBe(0);

    server = await start();
    const page = await waitFor(async () => {
      const p = await requestJson<MessagePage>(server, `/api/threads/${thread.id}/messages`);
      return p.turns.every((t) => t.status !== "running") ? p : undefined;
    }, 60_000);
    expect(page.turns.map((t) => [t.id, t.status, t.error?.code ?? null])).toEqual([
      [acknowledged[0]!.id, "failed", "cancelled"],
      [acknowledged[1]!.id, "completed", null],
      [acknowledged[2]!.id, "completed", null],
    ]);
    const answers = page.messages.filter((m) => m.kind === "answer");
    expect(answers.map((m) => [m.turnId, m.status])).toEqual([
      [acknowledged[0]!.id, "error"],
      [acknowledged[1]!.id, "complete"],
      [acknowledged[2]!.id, "complete"],
    ]);
    await server.kill("SIGTERM");
  }, 120_000);
});
