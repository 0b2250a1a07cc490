/**
 * Every failed turn is logged at `LOG_LEVEL=warn` (README), interrupted ones too (issue 29): a
 * turn whose process died (an expired lease, or on SQLite a turn started before the restart) is
 * ended `failed` (interrupted) with a warning naming it. On both stores.
 */
import { randomUUID } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createLogger } from "../logger.ts";
import type { ChatStore } from "../storage/chatStore.ts";
import {
  makeTempDir,
  openTestStore,
  RecordingAdapter,
  removeDir,
  waitFor,
} from "../testing/harness.ts";
import { ThreadEventLog } from "./events.ts";
import { ProviderService } from "./providerService.ts";

const now = () => new Date().toISOString();
let dataDir: string;
let store: ChatStore;
let service: ProviderService | null = null;

beforeEach(async () => {
  dataDir = await makeTempDir("chat-interrupted-log-");
  store = await openTestStore(dataDir);
});

afterEach(async () => {
  await service?.close();
  service = null;
  await store.close();
  await removeDir(dataDir);
});

describe("an interrupted turn", () => {
  it("is logged at warn with its id, thread and cause", async () => {
    const threadId = randomUUID();
    const turnId = randomUUID();
    await store.transaction(async (tx) => {
      await tx.createThread({ id: threadId, title: null, now: now() });
      await tx.insertTurnWithPrompt({
        threadId,
        turnId,
        messageId: randomUUID(),
        text: "hello",
        providerInput: "hello",
        now: now(),
      });
      // Started by a process that then died: its lease is already over.
      await tx.claimTurn(turnId, "a-dead-process", 1);
    });
    const lines: string[] = [];
    const sink = { error: () => {}, log: () => {}, warn: (line: string) => lines.push(line) };
    service = new ProviderService({
      store,
      events: new ThreadEventLog(store),
      adapter: new RecordingAdapter(),
      logger: createLogger("warn", sink),
      turnLeaseMs: 300,
    });
    await waitFor(async () =>
      (await store.getTurn(turnId))?.status === "failed" ? true : undefined,
    );
    expect((await store.getTurn(turnId))?.error?.code).toBe("interrupted");
    const line = await waitFor(() => lines.find((l) => l.includes(turnId)));
    expect(line).toContain(threadId);
    expect(line).toContain("interrupted");
  });
});
