import type { MessagePage, Thread, ThreadDetail } from "@app/protocol";
import { afterEach, describe, expect, it } from "vitest";
import type { ProviderTurnContext } from "./providers/types.ts";
import {
  makeTempDir,
  RecordingAdapter,
  removeDir,
  startTestServer,
  type TestServer,
  waitFor,
} from "./testing/harness.ts";
import { seedInterruptedTurn } from "./testing/interruptedTurn.ts";
import { StorageFaults } from "./testing/storageFaults.ts";
import { storedThreadCount } from "./testing/storedThreadCount.ts";

let server: TestServer | null = null;
afterEach(async () => {
  await server?.close();
  if (server) await removeDir(server.dataDir);
  server = null;
});

function gate(): { promise: Promise<void>; open: () => void } {
  let open = () => {};
  const promise = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}

const untilAborted = (ctx: ProviderTurnContext) =>
  new Promise((_, reject) => {
    if (ctx.signal.aborted) reject(ctx.signal.reason);
    ctx.signal.addEventListener("abort", () => reject(ctx.signal.reason));
  });

async function expectStorageUnavailable(res: Response): Promise<void> {
  expect(res.status).toBe(503);
  const body = (await res.json()) as { error: { code: string; message: string } };
  expect(body.error.code).toBe("storage_unavailable");
  expect(body.error.message.length).toBeGreaterThan(10);
}

describe("storage faults", () => {
  it("answers writes on a full disk with 503 storage_unavailable, keeps reads, and recovers", async () => {
    const faults = new StorageFaults();
    server = await startTestServer({ adapter: new RecordingAdapter(), openDatabase: faults.open });
    const thread = (await (await server.post("/api/threads", {})).json()) as Thread;

    faults.fillDisk();
    // Big enough to need new pages.
    const big = "x".repeat(100_000);
    await expectStorageUnavailable(
      await server.post(`/api/threads/${thread.id}/turns`, { input: big }),
    );
    // Small rows fit in the pages the file already has, until those are used up too.
    let created = 0;
    let res = await server.post("/api/threads", { title: big.slice(0, 200) });
    while (res.status === 201 && created < 5000) {
      created++;
      res = await server.post("/api/threads", { title: big.slice(0, 200) });
    }
    await expectStorageUnavailable(res);
    // The API lists only threads with messages; these are all empty, so count them stored.
    expect(await storedThreadCount(server.dataDir)).toBe(1 + created);
    const detail = await server.getJson<ThreadDetail>(`/api/threads/${thread.id}`);
    expect(detail.thread.messageCount).toBe(0);

    faults.freeDisk();
    expect((await server.post(`/api/threads/${thread.id}/turns`, { input: big })).status).toBe(201);
    await server.provider.whenIdle();
    const page = await server.getJson<MessagePage>(`/api/threads/${thread.id}/messages`);
    expect(page.messages.map((m) => m.text)).toEqual([big, "Reply to turn 1"]);
  });

  it("answers I/O errors and a read-only database with 503, never a generic 500", async () => {
    const faults = new StorageFaults();
    server = await startTestServer({ adapter: new RecordingAdapter(), openDatabase: faults.open });
    const thread = (await (await server.post("/api/threads", {})).json()) as Thread;
    for (const code of ["SQLITE_IOERR_WRITE", "SQLITE_READONLY", "SQLITE_READONLY_DBMOVED"]) {
      faults.failWrites(code);
      await expectStorageUnavailable(
        await server.post(`/api/threads/${thread.id}/turns`, { input: "hello" }),
      );
      await expectStorageUnavailable(await server.post("/api/threads", {}));
      expect((await server.request(`/api/threads/${thread.id}/messages`)).status).toBe(200);
    }
    faults.heal();
    expect((await server.post(`/api/threads/${thread.id}/turns`, { input: "hi" })).status).toBe(
      201,
    );
    await server.provider.whenIdle();
  });

  it("survives a full disk while a reply streams: the turn fails with all its text once space is back", async () => {
    const faults = new StorageFaults();
    const firstStored = gate();
    const chunkA = "a".repeat(30_000);
    const chunkB = "b".repeat(30_000);
    const adapter = new RecordingAdapter(async (ctx) => {
      const writer = ctx.startMessage("answer");
      writer.append(chunkA);
      await firstStored.promise;
      writer.append(chunkB);
      await untilAborted(ctx);
    });
    server = await startTestServer({
      adapter,
      openDatabase: faults.open,
      storageRetryMs: 60_000,
    });
    const thread = (await (await server.post("/api/threads", {})).json()) as Thread;
    const sent = (await (
      await server.post(`/api/threads/${thread.id}/turns`, { input: "stream" })
    ).json()) as { turn: { id: string } };
    const messagesPath = `/api/threads/${thread.id}/messages`;
    await waitFor(async () => {
      const page = await server!.getJson<MessagePage>(messagesPath);
      return page.messages[1]?.text === chunkA ? true : undefined;
    });

    faults.fillDisk();
    firstStored.open();
    // The flush of chunk B hits SQLITE_FULL: the turn stops, and its end waits for storage.
    await waitFor(() => (server!.provider.writesWaitingForStorage > 0 ? true : undefined));
    const during = await server.getJson<ThreadDetail>(`/api/threads/${thread.id}`);
    expect(during.activeTurn?.id).toBe(sent.turn.id);
    expect((await server.getJson<MessagePage>(messagesPath)).messages[1]!.text).toBe(chunkA);
    await expectStorageUnavailable(
      await server.post(`/api/threads/${thread.id}/turns`, { input: "x".repeat(50_000) }),
    );

    faults.freeDisk();
    await server.provider.retryStorageNow();
    expect(server.provider.writesWaitingForStorage).toBe(0);
    const page = await server.getJson<MessagePage>(messagesPath);
    expect(page.messages.map((m) => [m.kind, m.status])).toEqual([
      ["prompt", "complete"],
      ["answer", "error"],
      ["error", "complete"],
    ]);
    expect(page.messages[1]!.text).toBe(chunkA + chunkB);
    expect(page.turns[0]).toMatchObject({
      status: "failed",
      error: { code: "storage_unavailable" },
    });
    expect(page.messages[2]!.text).toMatch(/could not save the reply/);

    // And the thread works again.
    adapter.script = async (ctx) => {
      const writer = ctx.startMessage("answer");
      writer.append("fine again");
      writer.complete();
    };
    expect((await server.post(`/api/threads/${thread.id}/turns`, { input: "again" })).status).toBe(
      201,
    );
    await server.provider.whenIdle();
    const after = await server.getJson<MessagePage>(messagesPath);
    expect(after.messages.at(-1)!.text).toBe("fine again");
  });

  it("starts on a full disk, serves reads, and recovers interrupted turns once space is back", async () => {
    const dataDir = await makeTempDir();
    // What a killed process leaves behind: a running turn with a half-written answer.
    seedInterruptedTurn(dataDir);

    const faults = new StorageFaults({ failWritesFrom: "SQLITE_FULL" });
    server = await startTestServer({
      adapter: new RecordingAdapter(),
      dataDir,
      openDatabase: faults.open,
      storageRetryMs: 60_000,
    });
    expect(server.provider.writesWaitingForStorage).toBe(1);
    const before = await server.getJson<ThreadDetail>("/api/threads/t1");
    expect(before.activeTurn?.status).toBe("running");
    await expectStorageUnavailable(await server.post("/api/threads", {}));

    faults.heal();
    await server.provider.retryStorageNow();
    const page = await server.getJson<MessagePage>("/api/threads/t1/messages");
    expect(page.messages.map((m) => [m.id === "m2" ? m.text : m.kind, m.status])).toEqual([
      ["prompt", "complete"],
      ["half", "error"],
      ["error", "complete"],
    ]);
    expect(page.turns[0]).toMatchObject({ status: "failed", error: { code: "interrupted" } });
  });
});
