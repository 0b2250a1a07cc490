/**
 * Several server processes on one PostgreSQL database (DESIGN.md section 7, "Scale-out"): the
 * turn queue, the event fan-out and the leases work across real processes, over real HTTP.
 * Runs in the `server-pg` project (a throwaway cluster per run).
 */
import type { MessagePage, ServerEvent, Thread, ThreadDetail, Turn } from "@app/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  collectSse,
  makeTempDir,
  removeDir,
  type SseCursor,
  type SseEvent,
  testDatabaseUrl,
  waitFor,
} from "./testing/harness.ts";
import { requestJson, type ServerProcess, startServerProcess } from "./testing/serverProcess.ts";

const LEASE_MS = 2_000;
let dataDir: string;
let databaseUrl: string;
let a: ServerProcess;
let b: ServerProcess;

async function startProcess(chunkDelayMs: number): Promise<ServerProcess> {
  return startServerProcess({
    DATABASE_URL: databaseUrl,
    DATA_DIR: dataDir,
    WEB_DIST: `${dataDir}/no-web-dist`,
    DEMO_CHUNK_DELAY_MS: String(chunkDelayMs),
    TURN_LEASE_MS: String(LEASE_MS),
  });
}

async function allMessages(server: ServerProcess, threadId: string): Promise<MessagePage> {
  const page = await requestJson<MessagePage>(
    server,
    `/api/threads/${threadId}/messages?limit=200`,
  );
  expect(page.nextCursor).toBeNull();
  return page;
}

beforeAll(async () => {
  dataDir = await makeTempDir("chat-multi-");
  // An empty database: both processes start on it at once and apply the migrations once.
  databaseUrl = (await testDatabaseUrl(dataDir, { migrated: false }))!;
  [a, b] = await Promise.all([startProcess(0), startProcess(0)]);
}, 60_000);

afterAll(async () => {
  await Promise.all([a?.kill(), b?.kill()]);
  await removeDir(dataDir);
});

describe("two server processes on one PostgreSQL database", () => {
  it("share one environment id", async () => {
    const [envA, envB] = await Promise.all([
      requestJson<{ environmentId: string }>(a, "/api/environment"),
      requestJson<{ environmentId: string }>(b, "/api/environment"),
    ]);
    expect(envA.environmentId).toBe(envB.environmentId);
  });

  it("runs 20 turns of one thread sent to both at once: all complete, one at a time, in order", async () => {
    const thread = await requestJson<Thread>(a, "/api/threads", {});
    const sent = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        requestJson<{ turn: Turn }>(i % 2 === 0 ? a : b, `/api/threads/${thread.id}/turns`, {
          input: `turn ${i}`,
        }),
      ),
    );
    await waitFor(async () => {
      const detail = await requestJson<ThreadDetail>(b, `/api/threads/${thread.id}`);
      return detail.activeTurn === null ? true : undefined;
    }, 60_000);
    const page = await allMessages(a, thread.id);
    const prompts = page.messages.filter((m) => m.kind === "prompt");
    expect(prompts).toHaveLength(20);
    expect(new Set(prompts.map((m) => m.turnId))).toEqual(new Set(sent.map((s) => s.turn.id)));
    expect(page.turns.every((t) => t.status === "completed")).toBe(true);
    // Turn order is prompt order; every reply lies after the previous turn's reply.
    const order = prompts.map((m) => m.turnId);
    const replyTurns = page.messages.filter((m) => m.role === "assistant").map((m) => m.turnId);
    expect(replyTurns.filter((id, i) => id !== replyTurns[i - 1])).toEqual(order);
    for (const turnId of order) {
      expect(
        page.messages.some(
          (m) => m.turnId === turnId && m.kind === "answer" && m.status === "complete",
        ),
      ).toBe(true);
    }
  });

  it("streams a reply run by one process to an event stream on the other, resuming there from Last-Event-ID", async () => {
    const thread = await requestJson<Thread>(a, "/api/threads", {});
    const url = (server: ServerProcess) => `${server.url}/api/threads/${thread.id}/events`;
    const cursor = { lastEventId: "0" };
    // Half of the stream from B, then the rest from A, resuming where B stopped.
    const first = await collectSse(url(b), {
      lastEventId: "0",
      cursor,
      until: (events) => events.length >= 5,
      onOpen: async () => {
        await requestJson(a, `/api/threads/${thread.id}/turns`, { input: "hello from A" });
      },
    });
    const completed = (events: SseEvent[]) =>
      events.some((e) => {
        const event = JSON.parse(e.data) as ServerEvent;
        return event.type === "turn.updated" && event.turn.status === "completed";
      });
    // (The first part may already hold the whole turn: the demo streams without delay.)
    const rest = await collectSse(url(a), {
      lastEventId: cursor.lastEventId,
      until: (events) => completed([...first, ...events]),
    });
    const stored = [...first, ...rest].filter((e) => e.id !== null).map((e) => Number(e.id));
    expect(new Set(stored).size).toBe(stored.length);
    expect([...stored].sort((x, y) => x - y)).toEqual(stored);
    const detail = await requestJson<ThreadDetail>(a, `/api/threads/${thread.id}`);
    expect(stored.at(-1)).toBe(detail.lastEventId);
    expect(completed([...first, ...rest])).toBe(true);
    // The text rebuilt from the events is the stored answer.
    let text = "";
    for (const e of [...first, ...rest]) {
      const event = JSON.parse(e.data) as ServerEvent;
      if (event.type === "message.delta" && event.offset <= text.length) {
        text += event.delta.slice(text.length - event.offset);
      }
      if (event.type === "message.completed" && event.message.kind === "answer") {
        text = event.message.text;
      }
    }
    const answer = (await allMessages(b, thread.id)).messages.find((m) => m.kind === "answer");
    expect(text).toBe(answer?.text);
    // The sidebar's live title (issue 21): the title set by the first prompt on A reaches a
    // stream on B, and B lists the thread under it once it has a message.
    const titled = [...first, ...rest]
      .map((e) => JSON.parse(e.data) as ServerEvent)
      .find((event) => event.type === "thread.updated");
    expect(titled?.type === "thread.updated" && titled.thread.title).toBe("hello from A");
    const listed = await requestJson<{ threads: Thread[] }>(b, "/api/threads");
    expect(listed.threads.find((t) => t.id === thread.id)?.title).toBe("hello from A");
  });
});

describe("Stop and questions across processes", () => {
  it("answers a question through the other process than the one running the turn", async () => {
    const thread = await requestJson<Thread>(a, "/api/threads", {});
    const { turn } = await requestJson<{ turn: Turn }>(a, `/api/threads/${thread.id}/turns`, {
      input: "ask me something",
    });
    const request = await waitFor(async () => {
      const detail = await requestJson<ThreadDetail>(b, `/api/threads/${thread.id}`);
      return detail.pendingUserInput ?? undefined;
    }, 20_000);
    expect(request.turnId).toBe(turn.id);
    await requestJson(b, `/api/threads/${thread.id}/user-input`, {
      requestId: request.id,
      answers: { choice: "B, answered on the other process" },
    });
    // The page's messages and turns are separate reads: wait until both show the end.
    const page = await waitFor(async () => {
      const p = await requestJson<MessagePage>(a, `/api/threads/${thread.id}/messages`);
      const done = p.turns.find((t) => t.id === turn.id)?.status === "completed";
      const answered = p.messages.some((m) => m.kind === "answer" && m.status === "complete");
      return done && answered ? p : undefined;
    }, 20_000);
    const answer = page.messages.find((m) => m.kind === "answer");
    expect(answer?.text).toContain("B, answered on the other process");
  });

  it("stops a turn through the other process than the one running it", async () => {
    // As below: B's sweep may claim the queued turn before `slow` does and run it to the end at
    // once (the cancel then finds it completed). That attempt did not test a stop across
    // processes, so it is made again on a new thread (a few times at most).
    for (let attempt = 1; ; attempt++) {
      const slow = await startProcess(40);
      try {
        const thread = await requestJson<Thread>(slow, "/api/threads", {});
        const { turn } = await requestJson<{ turn: Turn }>(
          slow,
          `/api/threads/${thread.id}/turns`,
          { input: "long reply please" },
        );
        const stored: SseCursor = { lastEventId: "0" };
        await collectSse(`${b.url}/api/threads/${thread.id}/events`, {
          lastEventId: "0",
          cursor: stored,
          until: (events) => streamingAndStored(events, stored),
        });
        const cancelled = await fetch(`${b.url}/api/threads/${thread.id}/turns/${turn.id}/cancel`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: "{}",
        });
        if (cancelled.status === 409 && attempt < 3) continue;
        expect(cancelled.status).toBe(200);
        const stopped = (await cancelled.json()) as { turn: Turn };
        // Ran to its end by B before the cancel arrived (seen in CI): no stop to test either.
        if (stopped.turn.status === "completed" && attempt < 3) continue;
        expect(stopped.turn.status).toBe("cancelled");
        // The running process stops too: the thread's next turn, sent there, completes.
        const next = await requestJson<{ turn: Turn }>(slow, `/api/threads/${thread.id}/turns`, {
          input: "short one",
        });
        const page = await waitFor(async () => {
          const p = await requestJson<MessagePage>(b, `/api/threads/${thread.id}/messages`);
          return p.turns.find((t) => t.id === next.turn.id)?.status === "completed" ? p : undefined;
        }, 30_000);
        expect(page.turns.find((t) => t.id === turn.id)?.status).toBe("cancelled");
        const partial = page.messages.find((m) => m.turnId === turn.id && m.kind === "answer");
        expect(partial?.status).toBe("complete");
        expect(partial!.text.length).toBeGreaterThan(0);
        return;
      } finally {
        await slow.kill("SIGKILL");
      }
    }
  }, 90_000);
});

describe("a process killed mid-reply", () => {
  it("has its turn ended as interrupted by the other process once the lease expires, and the thread goes on", async () => {
    // Any process may claim a queued turn: under load B's sweep can claim the first turn before
    // `slow` does, and then runs it to completion itself. That attempt did not test a dead
    // runner, so it is made again on a new thread (a few times at most).
    for (let attempt = 1; ; attempt++) {
      const slow = await startProcess(40);
      try {
        const thread = await requestJson<Thread>(slow, "/api/threads", {});
        const first = await requestJson<{ turn: Turn }>(slow, `/api/threads/${thread.id}/turns`, {
          input: "a long reply please",
        });
        // The reply is streaming on `slow` (B sees its stored chunks); B queues the next turn.
        const stored: SseCursor = { lastEventId: "0" };
        await collectSse(`${b.url}/api/threads/${thread.id}/events`, {
          lastEventId: "0",
          cursor: stored,
          until: (events) => streamingAndStored(events, stored),
        });
        const second = await requestJson<{ turn: Turn }>(b, `/api/threads/${thread.id}/turns`, {
          input: "and then this",
        });
        await slow.kill("SIGKILL");

        // The page's messages and turns are separate reads: wait until both show the ends (the
        // first turn's notice is written with its outcome; a read between them missed it in CI).
        const turns = await waitFor(async () => {
          const page = await requestJson<MessagePage>(b, `/api/threads/${thread.id}/messages`);
          const done = page.turns.filter((t) => t.status !== "running");
          const firstEnded = page.turns.find((t) => t.id === first.turn.id)?.status;
          const notice = page.messages.some(
            (m) => m.turnId === first.turn.id && m.kind === "error",
          );
          return done.length === 2 && (firstEnded === "completed" || notice) ? page : undefined;
        }, 30_000);
        const byId = new Map(turns.turns.map((t) => [t.id, t]));
        // `slow` streams this reply for about 45 s: completed means B ran it.
        if (byId.get(first.turn.id)?.status === "completed" && attempt < 3) continue;
        expect(byId.get(first.turn.id)).toMatchObject({
          status: "failed",
          error: { code: "interrupted" },
        });
        expect(byId.get(second.turn.id)?.status).toBe("completed");
        // The cut-off reply keeps what was stored, marked as an error, with the visible notice.
        const ofFirst = turns.messages.filter((m) => m.turnId === first.turn.id);
        expect(ofFirst.map((m) => [m.kind, m.status])).toEqual([
          ["prompt", "complete"],
          ["answer", "error"],
          ["error", "complete"],
        ]);
        expect(ofFirst[1]!.text.length).toBeGreaterThan(0);
        expect(ofFirst[2]!.text).toMatch(/stopped before this turn finished/);
        return;
      } finally {
        await slow.kill("SIGKILL");
      }
    }
  }, 90_000);
});

describe("the thread list across processes", () => {
  it("a rename and a delete on one process reach the other's list stream live", async () => {
    const thread = await requestJson<Thread>(a, "/api/threads", {});
    await requestJson(a, `/api/threads/${thread.id}/turns`, { input: "list me" });
    type Change = { type: "upsert"; thread: Thread } | { type: "remove"; threadId: string };
    const changes = (list: SseEvent[]): Change[] =>
      list
        .filter((e) => e.event === "threads")
        .flatMap((e) => (JSON.parse(e.data) as { changes: Change[] }).changes);
    const renamed = (list: SseEvent[]) =>
      changes(list).some((c) => c.type === "upsert" && c.thread.title === "Renamed on A");
    let renamedSeen = false;
    const events = await collectSse(`${b.url}/api/threads/events`, {
      onOpen: () => {
        void fetch(`${a.url}/api/threads/${thread.id}`, {
          method: "PATCH",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ title: "Renamed on A" }),
        }).then(async (res) => {
          expect(res.status).toBe(200);
          // Once B has the rename, delete on A too.
          await waitFor(() => (renamedSeen ? true : undefined));
          const deleted = await fetch(`${a.url}/api/threads/${thread.id}`, {
            method: "DELETE",
            headers: { "content-type": "application/json" },
            body: "{}",
          });
          expect(deleted.status).toBe(200);
        });
      },
      until: (list) => {
        renamedSeen ||= renamed(list);
        return changes(list).some((c) => c.type === "remove" && c.threadId === thread.id);
      },
    });
    expect(renamed(events)).toBe(true);
  });
});

/**
 * The reply streams (a chunk reached the client, live from the other process or stored) and at
 * least one of its chunks is stored: the stream's position is past the answer's creation. A
 * stored chunk the client already had live arrives as a bare `id:` line, so only the cursor
 * shows it.
 */
function streamingAndStored(events: SseEvent[], cursor: SseCursor): boolean {
  const created = events.findLast((e) => e.event === "message.created");
  return (
    created?.id != null &&
    events.some((e) => e.event === "message.delta") &&
    Number(cursor.lastEventId) > Number(created.id)
  );
}
