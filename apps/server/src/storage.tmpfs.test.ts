/**
 * The same storage faults on a real file system: DATA_DIR on a small tmpfs that a streaming
 * reply fills up, then grows again; and the same mount made read-only. Needs `mount` (root on
 * Linux); elsewhere the suite is skipped and says why.
 */
import { execFileSync } from "node:child_process";
import type { MessagePage, Thread, ThreadDetail } from "@app/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Logger, silentLogger } from "./logger.ts";
import type { ProviderTurnContext } from "./providers/types.ts";
import {
  makeTempDir,
  RecordingAdapter,
  removeDir,
  startTestServer,
  type TestServer,
} from "./testing/harness.ts";

let mountDir = "";
let mounted = false;
let skipReason = "";

function mount(...args: string[]): void {
  execFileSync("mount", args, { stdio: "pipe" });
}

beforeAll(async () => {
  mountDir = await makeTempDir("chat-tmpfs-");
  try {
    mount("-t", "tmpfs", "-o", "size=1m", "tmpfs", mountDir);
    mounted = true;
  } catch (error) {
    skipReason = error instanceof Error ? error.message.split("\n")[0]! : String(error);
  }
});

afterAll(async () => {
  if (mounted) execFileSync("umount", ["-l", mountDir]);
  await removeDir(mountDir);
});

const untilAborted = (ctx: ProviderTurnContext) =>
  new Promise((_, reject) => {
    if (ctx.signal.aborted) reject(ctx.signal.reason);
    ctx.signal.addEventListener("abort", () => reject(ctx.signal.reason));
  });

describe("storage faults on a real tmpfs", () => {
  it("fills the disk with a streaming reply, keeps serving, and continues once space is back", async (ctx) => {
    if (!mounted) {
      console.warn(`Skipping the tmpfs test: mount is not permitted here (${skipReason}).`);
      ctx.skip();
    }
    let written = "";
    const adapter = new RecordingAdapter(async (turn) => {
      const writer = turn.startMessage("answer");
      // 8 MB of text into a 1 MB file system, a chunk per turn of the event loop (the writer
      // flushes every 64 KiB), until the turn is stopped.
      for (let i = 0; i < 400 && !turn.signal.aborted; i++) {
        const chunk = `${String(i).padStart(4, "0")}${"z".repeat(19_996)}`;
        writer.append(chunk);
        written += chunk;
        await new Promise((resolve) => setImmediate(resolve));
      }
      await untilAborted(turn);
    });
    // The retry queue says when a write waits for storage: the moment the disk is full.
    let writeWaits: () => void = () => {};
    const diskFull = new Promise<void>((resolve) => {
      writeWaits = resolve;
    });
    const logger: Logger = {
      ...silentLogger,
      warn: (message) => {
        if (message.startsWith("Storage unavailable: a write waits")) writeWaits();
      },
    };
    const server: TestServer = await startTestServer({
      adapter,
      dataDir: mountDir,
      storageRetryMs: 60_000,
      maxReplyChars: 50_000_000,
      logger,
    });
    try {
      const thread = (await (await server.post("/api/threads", {})).json()) as Thread;
      await server.post(`/api/threads/${thread.id}/turns`, { input: "fill the disk" });
      await diskFull;
      expect(server.provider.writesWaitingForStorage).toBeGreaterThan(0);

      // Full: writes get 503, reads work.
      const refused = await server.post(`/api/threads/${thread.id}/turns`, {
        input: "x".repeat(100_000),
      });
      expect(refused.status).toBe(503);
      expect(((await refused.json()) as { error: { code: string } }).error.code).toBe(
        "storage_unavailable",
      );
      const detail = await server.getJson<ThreadDetail>(`/api/threads/${thread.id}`);
      expect(detail.activeTurn?.status).toBe("running");

      // Space is back: the stopped turn is recorded with every character it produced.
      mount("-o", "remount,size=64m", mountDir);
      await server.provider.retryStorageNow();
      expect(server.provider.writesWaitingForStorage).toBe(0);
      const page = await server.getJson<MessagePage>(`/api/threads/${thread.id}/messages`);
      expect(page.turns[0]).toMatchObject({
        status: "failed",
        error: { code: "storage_unavailable" },
      });
      expect(page.messages[1]!.text).toBe(written);
      // The reply filled the disk (more than a fifth of it is reply text; the rest is the
      // schema, its indexes, the WAL and the search queue, which grew with later features).
      expect(written.length).toBeGreaterThan(200_000);

      // The same turn's thread keeps working.
      adapter.script = async (turn) => {
        const writer = turn.startMessage("answer");
        writer.append("all good");
        writer.complete();
      };
      expect((await server.post(`/api/threads/${thread.id}/turns`, { input: "ok?" })).status).toBe(
        201,
      );
      await server.provider.whenIdle();
      const last = await server.getJson<MessagePage>(`/api/threads/${thread.id}/messages`);
      expect(last.messages.at(-1)!.text).toBe("all good");
    } finally {
      await server.close();
    }
  });

  it("refuses to start on a read-only data dir with a message that says what to do", async (ctx) => {
    if (!mounted) {
      console.warn(`Skipping the tmpfs test: mount is not permitted here (${skipReason}).`);
      ctx.skip();
    }
    mount("-o", "remount,ro", mountDir);
    try {
      await expect(
        startTestServer({ adapter: new RecordingAdapter(), dataDir: mountDir }),
      ).rejects.toThrow(/Cannot open the database in DATA_DIR=.*writable/);
    } finally {
      mount("-o", "remount,rw", mountDir);
    }
    const again = await startTestServer({ adapter: new RecordingAdapter(), dataDir: mountDir });
    expect((await again.post("/api/threads", {})).status).toBe(201);
    await again.close();
  });
});
