/**
 * Backlinks (issue 24) over real HTTP, on SQLite and (server-pg) PostgreSQL: the citation index
 * is written with the prompt, assistant messages of every history page carry `citedBy`, the
 * cited-by endpoint lists citing messages (cross-thread ones with their thread's title), a new
 * citing prompt reaches open views as `message.cited`, and a storage fault in the middle of the
 * prompt's transaction leaves nothing behind.
 */
import { serializeAssistantCitation } from "@app/citations";
import type {
  CitedByPage,
  Environment,
  Message,
  MessagePage,
  ServerEvent,
  Thread,
} from "@app/protocol";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedDemoThread, seededAnswerLead } from "../seed.ts";
import {
  collectSse,
  makeTempDir,
  openTestStore,
  RecordingAdapter,
  removeDir,
  startTestServer,
  type TestServer,
  testDatabaseUrl,
  testStoreKind,
  waitFor,
} from "../testing/harness.ts";
import { StorageFaults } from "../testing/storageFaults.ts";

const TURNS = 120; // 264 messages: several pages of 50
let server: TestServer;
let environmentId: string;
let threadA: string;
let threadB: Thread;
/** Answers of thread A, oldest first. */
let answers: Message[];

beforeAll(async () => {
  const dataDir = await makeTempDir();
  const store = await openTestStore(dataDir);
  threadA = await seedDemoThread(store, { turns: TURNS, title: "Source thread" });
  await store.close();
  server = await startTestServer({ adapter: new RecordingAdapter(), dataDir });
  environmentId = (await server.getJson<Environment>("/api/environment")).environmentId;
  answers = await allAnswers(threadA);
  const created = await server.post("/api/threads", { title: "Citing thread" });
  threadB = (await created.json()) as Thread;
});

afterAll(async () => {
  await server.close();
  await removeDir(server.dataDir);
});

async function allPages(threadId: string): Promise<Message[]> {
  const messages: Message[] = [];
  let cursor: string | null = null;
  do {
    const page: MessagePage = await server.getJson<MessagePage>(
      `/api/threads/${threadId}/messages?limit=200${cursor ? `&before=${cursor}` : ""}`,
    );
    messages.unshift(...page.messages);
    cursor = page.nextCursor;
  } while (cursor !== null);
  return messages;
}

async function allAnswers(threadId: string): Promise<Message[]> {
  return (await allPages(threadId)).filter((m) => m.kind === "answer");
}

/** A citation of the lead paragraph of answer `n` (1-based) of thread A, or of part of it. */
function cite(
  n: number,
  options: { from?: number; to?: number; comment?: string; env?: string; thread?: string } = {},
): string {
  const lead = seededAnswerLead(n);
  const from = options.from ?? 0;
  const to = options.to ?? lead.length;
  return serializeAssistantCitation({
    version: 1,
    environmentId: options.env ?? environmentId,
    threadId: options.thread ?? threadA,
    messageId: answers[n - 1]!.id,
    text: lead.slice(from, to),
    start: from,
    end: to,
    prefix: lead.slice(Math.max(0, from - 32), from),
    suffix: lead.slice(to, to + 32),
    ...(options.comment === undefined ? {} : { comment: options.comment }),
  });
}

async function send(threadId: string, input: string): Promise<Message> {
  const res = await server.post(`/api/threads/${threadId}/turns`, { input });
  expect(res.status).toBe(201);
  return ((await res.json()) as { message: Message }).message;
}

const citedByOf = async (threadId: string, query: string, messageId: string) => {
  const page = await server.getJson<MessagePage>(`/api/threads/${threadId}/messages${query}`);
  return page.messages.find((m) => m.id === messageId)?.citedBy;
};

const citedByList = (threadId: string, messageId: string, query = "") =>
  server.getJson<CitedByPage>(`/api/threads/${threadId}/messages/${messageId}/cited-by${query}`);

describe("backlinks", () => {
  let firstCiting: Message;
  let crossCiting: Message;

  it("indexes an accepted prompt's distinct citations; other environments and wrong threads never count", async () => {
    // Answer 100 is in the newest page once the prompts are added; answer 110 too.
    const whole = cite(100, { comment: "Still true?" });
    const part = cite(100, { from: 7, to: 20 });
    firstCiting = await send(
      threadA,
      [
        `Look at ${whole} and again ${whole}`, // the same citation twice: one
        `and ${part}`,
        `and elsewhere ${cite(100, { env: "another-environment" })}`,
        `and misplaced ${cite(110, { thread: threadB.id })}`,
      ].join(" "),
    );
    const citedBy = await citedByOf(threadA, "?limit=200", answers[99]!.id);
    expect(citedBy).toEqual({
      count: 1,
      ranges: [
        {
          text: seededAnswerLead(100),
          start: 0,
          end: seededAnswerLead(100).length,
          prefix: "",
          suffix: "",
        },
        {
          text: seededAnswerLead(100).slice(7, 20),
          start: 7,
          end: 20,
          prefix: seededAnswerLead(100).slice(0, 7),
          suffix: seededAnswerLead(100).slice(20, 52),
        },
      ],
    });
    // Answer 110 is cited only under the wrong thread id: no backlink.
    expect(await citedByOf(threadA, "?limit=200", answers[109]!.id)).toEqual({
      count: 0,
      ranges: [],
    });
    const list = await citedByList(threadA, answers[99]!.id);
    expect(list.citations.map((c) => [c.messageId, c.comment, c.threadTitle])).toEqual([
      [firstCiting.id, "Still true?", null],
      [firstCiting.id, null, null],
    ]);
    expect(list.nextCursor).toBeNull();
  });

  it("puts citedBy on every assistant message of newest, before, after and around pages, and on no user message", async () => {
    const target = answers[99]!;
    const queries = [
      "?limit=50",
      `?before=${target.seq + 1}&limit=10`,
      `?after=${target.seq - 1}&limit=10`,
      `?around=${target.id}&limit=9`,
    ];
    for (const query of queries) {
      const page = await server.getJson<MessagePage>(`/api/threads/${threadA}/messages${query}`);
      expect(
        page.messages.some((m) => m.id === target.id),
        query,
      ).toBe(true);
      for (const message of page.messages) {
        if (message.role === "user") expect(message.citedBy, query).toBeUndefined();
        else expect(message.citedBy, query).toBeDefined();
      }
      expect(page.messages.find((m) => m.id === target.id)!.citedBy!.count, query).toBe(1);
    }
    // The seeded prompts were indexed too: every 25th prompt cites the answer 20 turns earlier.
    const seeded = await citedByOf(threadA, `?around=${answers[4]!.id}&limit=5`, answers[4]!.id);
    expect(seeded).toEqual({
      count: 1,
      ranges: [
        {
          text: seededAnswerLead(5),
          start: 0,
          end: seededAnswerLead(5).length,
          prefix: "",
          suffix: "",
        },
      ],
    });
  });

  it("emits message.cited in the cited thread when another thread cites it, and lists that row with its thread's title", async () => {
    const events = collectSse(`${server.url}/api/threads/${threadA}/events`, {
      lastEventId: String(
        (await server.getJson<{ lastEventId: number }>(`/api/threads/${threadA}`)).lastEventId,
      ),
      until: (seen) =>
        seen.some((e) => e.event === "message.cited" || e.data.includes("message.cited")),
      onOpen: async () => {
        crossCiting = await send(threadB.id, `From elsewhere: ${cite(100, { comment: "Cross" })}`);
      },
    });
    const cited = (await events)
      .map((e) => JSON.parse(e.data) as ServerEvent)
      .find((e) => e.type === "message.cited");
    expect(cited).toEqual({
      type: "message.cited",
      messageId: answers[99]!.id,
      citedBy: expect.objectContaining({ count: 2 }),
    });
    const list = await citedByList(threadA, answers[99]!.id);
    expect(list.citations.at(-1)).toEqual({
      messageId: crossCiting.id,
      threadId: threadB.id,
      threadTitle: "Citing thread",
      createdAt: crossCiting.createdAt,
      comment: "Cross",
      quote: {
        text: seededAnswerLead(100),
        start: 0,
        end: seededAnswerLead(100).length,
        prefix: "",
        suffix: "",
      },
    });
    expect((await citedByOf(threadA, "?limit=200", answers[99]!.id))!.count).toBe(2);
  });

  it("pages the cited-by list with a cursor, and answers 404/400 for unknown messages and bad cursors", async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page: CitedByPage = await citedByList(
        threadA,
        answers[99]!.id,
        `?limit=1${cursor ? `&cursor=${cursor}` : ""}`,
      );
      seen.push(...page.citations.map((c) => `${c.messageId}:${c.comment}`));
      cursor = page.nextCursor;
      pages++;
    } while (cursor !== null);
    expect(seen).toEqual([
      `${firstCiting.id}:Still true?`,
      `${firstCiting.id}:null`,
      `${crossCiting.id}:Cross`,
    ]);
    expect(pages).toBe(3);
    const missing = await server.request(`/api/threads/${threadA}/messages/nope/cited-by`);
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { error: { code: string } }).error.code).toBe(
      "message_not_found",
    );
    // A message of another thread is not this thread's.
    const wrongThread = await server.request(
      `/api/threads/${threadB.id}/messages/${answers[99]!.id}/cited-by`,
    );
    expect(wrongThread.status).toBe(404);
    const bad = await server.request(
      `/api/threads/${threadA}/messages/${answers[99]!.id}/cited-by?cursor=x`,
    );
    expect(bad.status).toBe(400);
    const noThread = await server.request(`/api/threads/nope/messages/x/cited-by`);
    expect(noThread.status).toBe(404);
  });
});

describe("backlinks between two threads citing each other at once", () => {
  it("stores every prompt (no deadlock between the threads' event logs)", async () => {
    // The reply to the cross-thread prompt may still be running.
    const answerB = await waitFor(async () =>
      (await allAnswers(threadB.id)).find((m) => m.status === "complete"),
    );
    const citeB = serializeAssistantCitation({
      version: 1,
      environmentId,
      threadId: threadB.id,
      messageId: answerB.id,
      text: answerB.text.slice(0, 5),
      start: 0,
      end: 5,
      prefix: "",
      suffix: answerB.text.slice(5, 37),
    });
    const statuses: number[] = [];
    for (let round = 0; round < 10; round++) {
      const results = await Promise.all([
        server.post(`/api/threads/${threadB.id}/turns`, { input: `B cites A ${cite(101)}` }),
        server.post(`/api/threads/${threadA}/turns`, { input: `A cites B ${citeB}` }),
      ]);
      statuses.push(...results.map((r) => r.status));
    }
    expect(statuses).toEqual(Array(20).fill(201));
    const list = await citedByList(threadB.id, answerB.id, "?limit=200");
    expect(list.citations).toHaveLength(10);
    expect(list.citations.every((c) => c.threadTitle === "Source thread")).toBe(true);
  });
});

describe("backlinks under a storage fault", () => {
  it("writes nothing of a citing prompt when its index rows cannot be written (one transaction)", async () => {
    const dataDir = await makeTempDir();
    const store = await openTestStore(dataDir);
    const source = await seedDemoThread(store, { turns: 2, title: "Faulty" });
    await store.close();
    const faults = new StorageFaults();
    const faulty = await startTestServer({
      adapter: new RecordingAdapter(),
      dataDir,
      ...(testStoreKind === "sqlite" ? { openDatabase: faults.open } : {}),
    });
    let admin: pg.Client | null = null;
    try {
      const env = (await faulty.getJson<Environment>("/api/environment")).environmentId;
      const before = await faulty.getJson<MessagePage>(`/api/threads/${source}/messages`);
      const answer = before.messages.find((m) => m.kind === "answer")!;
      const lead = seededAnswerLead(1);
      const input = `Cite ${serializeAssistantCitation({
        version: 1,
        environmentId: env,
        threadId: source,
        messageId: answer.id,
        text: lead,
        start: 0,
        end: lead.length,
        prefix: "",
        suffix: "",
      })}`;
      const detailBefore = await faulty.getJson<{ lastEventId: number; thread: Thread }>(
        `/api/threads/${source}`,
      );
      // The fault hits only the index insert, after the prompt and its turn were written.
      if (testStoreKind === "sqlite") {
        faults.failWrites("SQLITE_IOERR_WRITE", { only: /message_citations/ });
      } else {
        admin = new pg.Client({ connectionString: (await testDatabaseUrl(dataDir))! });
        await admin.connect();
        await admin.query(`
          CREATE FUNCTION fail_citations() RETURNS trigger LANGUAGE plpgsql AS $$
          BEGIN RAISE EXCEPTION 'disk full' USING ERRCODE = '53100'; END $$;
          CREATE TRIGGER fail_citations BEFORE INSERT ON message_citations
            FOR EACH ROW EXECUTE FUNCTION fail_citations();`);
      }
      const res = await faulty.post(`/api/threads/${source}/turns`, { input });
      expect(res.status).toBe(503);
      const detailAfter = await faulty.getJson<{ lastEventId: number; thread: Thread }>(
        `/api/threads/${source}`,
      );
      expect(detailAfter.lastEventId).toBe(detailBefore.lastEventId);
      expect(detailAfter.thread.messageCount).toBe(detailBefore.thread.messageCount);
      const after = await faulty.getJson<MessagePage>(`/api/threads/${source}/messages`);
      expect(after.messages.map((m) => m.id)).toEqual(before.messages.map((m) => m.id));
      // The seeded last prompt already cites answer 1; nothing was added.
      expect(answer.citedBy!.count).toBe(1);
      expect(after.messages.find((m) => m.id === answer.id)!.citedBy).toEqual(answer.citedBy);
      // Healed: the same prompt is stored with its index row.
      if (testStoreKind === "sqlite") faults.heal();
      else await admin!.query("DROP TRIGGER fail_citations ON message_citations");
      const retry = await faulty.post(`/api/threads/${source}/turns`, { input });
      expect(retry.status).toBe(201);
      const healed = await faulty.getJson<MessagePage>(
        `/api/threads/${source}/messages?around=${answer.id}`,
      );
      expect(healed.messages.find((m) => m.id === answer.id)!.citedBy!.count).toBe(2);
    } finally {
      await admin?.end();
      await faulty.close();
      await removeDir(dataDir);
    }
  });
});
