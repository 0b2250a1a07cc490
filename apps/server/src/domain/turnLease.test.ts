/**
 * The lease guard (issue 29): a process whose turn was taken over (its lease expired and another
 * process ended the turn `interrupted`) creates and updates nothing for that turn afterwards:
 * no message left `streaming`, no question, no second final record. On both stores.
 */
import { randomUUID } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ProviderTurnContext } from "../providers/types.ts";
import type { ChatStore } from "../storage/chatStore.ts";
import { makeTempDir, openTestStore, RecordingAdapter, removeDir } from "../testing/harness.ts";
import { ThreadEventLog } from "./events.ts";
import { ProviderService } from "./providerService.ts";
import { recordInterrupted } from "./turnOutcome.ts";

const now = () => new Date().toISOString();
let dataDir: string;
let store: ChatStore;
let events: ThreadEventLog;
let service: ProviderService | null = null;

beforeEach(async () => {
  dataDir = await makeTempDir("chat-lease-");
  store = await openTestStore(dataDir);
  events = new ThreadEventLog(store);
});

afterEach(async () => {
  await service?.close();
  service = null;
  await store.close();
  await removeDir(dataDir);
});

/** What another process does once this one's lease expired: it takes the turn and ends it. */
async function takeOver(turnId: string): Promise<void> {
  await events.atomically(async (w) => {
    const turn = await w.tx.getTurn(turnId);
    await w.tx.claimTurn(turnId, "another-process", 60_000);
    await recordInterrupted(w, turn!, now);
  });
}

async function runTakenOverTurn(
  afterTakeover: (ctx: ProviderTurnContext) => Promise<void>,
): Promise<{ threadId: string; turnId: string }> {
  // The adapter's own end: a shared store's runner may learn of the takeover through its thread's
  // events and settle the turn before the adapter gets to its late writes (it is not awaited).
  let adapterDone!: () => void;
  const adapterFinished = new Promise<void>((resolve) => {
    adapterDone = resolve;
  });
  const adapter = new RecordingAdapter(async (ctx) => {
    try {
      await takenOver(ctx);
    } finally {
      adapterDone();
    }
  });
  const takenOver = async (ctx: ProviderTurnContext) => {
    const progressStored = new Promise<void>((resolve) => {
      const following = events.subscribe(ctx.threadId, null, ({ event }) => {
        if (event.type === "message.created" && event.message.kind === "progress") {
          void following.then((subscription) => subscription.unsubscribe());
          resolve();
        }
      });
    });
    const early = ctx.startMessage("progress");
    early.append("working");
    // Stored first (the writer stores a message as soon as it starts).
    await progressStored;
    await takeOver(ctx.turnId);
    // The adapter goes on as if nothing happened (it cannot know yet).
    early.append(" still");
    await afterTakeover(ctx);
  };
  // A short lease, renewed every 100 ms: the race window the guard closes.
  service = new ProviderService({ store, events, adapter, turnLeaseMs: 300 });
  const threadId = randomUUID();
  await store.transaction((tx) => tx.createThread({ id: threadId, title: null, now: now() }));
  const sent = await service.sendTurn(threadId, "hello");
  await service.whenIdle();
  await adapterFinished;
  return { threadId, turnId: sent.turn.id };
}

async function messagesOf(threadId: string) {
  return (await store.messagesAfter(threadId, 0, 100)).messages;
}

describe("a turn taken over by another process", () => {
  it("gets no new message and no update from the process that lost it", async () => {
    const { threadId, turnId } = await runTakenOverTurn(async (ctx) => {
      const late = ctx.startMessage("answer");
      late.append("late answer");
      late.complete();
    });
    const turn = await store.getTurn(turnId);
    expect(turn?.status).toBe("failed");
    expect(turn?.error?.code).toBe("interrupted");
    const messages = await messagesOf(threadId);
    expect(messages.map((m) => m.status)).not.toContain("streaming");
    expect(messages.map((m) => m.text)).not.toContain("late answer");
    // The progress message ended as it stood at the takeover, not with the later chunk.
    const progress = messages.find((m) => m.kind === "progress");
    expect(progress?.text).not.toContain("still");
    // One final record: the interruption's (one error notice, no second one).
    expect(messages.filter((m) => m.kind === "error")).toHaveLength(1);
  });

  it("stores no question asked after the takeover", async () => {
    let asked: unknown = null;
    const { threadId } = await runTakenOverTurn(async (ctx) => {
      asked = await ctx.requestUserInput([{ id: "q", prompt: "Which?" }]).then(
        () => "answered",
        (error: unknown) => error,
      );
    });
    expect(asked).toBeInstanceOf(Error);
    expect(await store.pendingUserInput(threadId)).toBeNull();
    const messages = await messagesOf(threadId);
    expect(messages.map((m) => m.status)).not.toContain("streaming");
  });
});
