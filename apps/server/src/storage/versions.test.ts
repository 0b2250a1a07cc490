/**
 * Versions and branches in the store (issue 30), on SQLite (`server`) and PostgreSQL
 * (`server-pg`): edits and regenerations make versions, switches move the path shown, pages,
 * `around=` windows, history and search follow it, branches copy it (with citation rows and
 * copy links) or, on a fault, write nothing; and a property test holds random sequences of
 * edits, regenerations and switches to one linear path that every page, window and search
 * result agrees with.
 */
import { serializeAssistantCitation } from "@app/citations";
import type { Message } from "@app/protocol";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeTempDir, openTestStore, removeDir } from "../testing/harness.ts";
import type { ChatQueries, ChatStore } from "./chatStore.ts";
import { citationEntriesOf } from "./citationIndex.ts";

const NOW = "2026-01-01T00:00:00.000Z";
const BUDGET = { maxTurns: 50, maxChars: 1_000_000 };
let dir: string;
let store: ChatStore;
let counter = 0;
const nextId = (prefix: string) => `${prefix}-${++counter}`;

beforeAll(async () => {
  dir = await makeTempDir("chat-versions-");
  store = await openTestStore(dir);
});

afterAll(async () => {
  await store.close();
  await removeDir(dir);
});

async function newThread(): Promise<string> {
  const id = nextId("thread");
  await store.transaction((tx) => tx.createThread({ id, title: "T", now: NOW }).then(() => {}));
  return id;
}

/** A prompt (optionally a new version of `versionOf`) and its answer. */
async function turn(
  threadId: string,
  text: string,
  versionOf?: string,
): Promise<{ prompt: Message; answer: Message }> {
  return store.transaction(async (tx) => {
    const turnId = nextId("turn");
    const { message: prompt } = await tx.insertTurnWithPrompt({
      threadId,
      turnId,
      messageId: nextId("m"),
      text,
      providerInput: text,
      now: NOW,
      ...(versionOf === undefined ? {} : { versionOf }),
    });
    await tx.insertCitations(
      citationEntriesOf({ ...prompt, messageId: prompt.id, createdAt: prompt.createdAt }),
    );
    const answer = await tx.insertAssistantMessage({
      id: nextId("m"),
      threadId,
      turnId,
      kind: "answer",
      text: `answer to ${text}`,
      status: "complete",
      now: NOW,
    });
    return { prompt, answer };
  });
}

/** A regeneration of `answer` (whose prompt is `prompt`): its new answer. */
async function regenerate(threadId: string, prompt: Message, answer: Message): Promise<Message> {
  return store.transaction(async (tx) => {
    const turnId = nextId("turn");
    await tx.insertRegenerateTurn({
      threadId,
      turnId,
      sourceTurnId: prompt.turnId,
      regeneratesId: answer.id,
      providerInput: prompt.text,
      now: NOW,
    });
    return tx.insertAssistantMessage({
      id: nextId("m"),
      threadId,
      turnId,
      kind: "answer",
      text: `again: ${answer.text}`,
      status: "complete",
      now: NOW,
    });
  });
}

/** The whole path shown, read in pages of `size` from the newest back. */
async function pathInPages(q: ChatQueries, threadId: string, size: number): Promise<string[]> {
  const ids: string[] = [];
  let before: number | null = null;
  for (;;) {
    const page = await q.messagesBefore(threadId, before, size);
    ids.unshift(...page.messages.map((m) => m.id));
    if (!page.hasOlder || page.messages.length === 0) return ids;
    before = page.messages[0]!.seq;
  }
}

const ids = (messages: readonly Message[]) => messages.map((m) => m.id);

describe("versions", () => {
  it("an edit makes a version; the later history follows the version shown", async () => {
    const threadId = await newThread();
    const one = await turn(threadId, "one");
    const two = await turn(threadId, "two");
    const edited = await turn(threadId, "one, edited", one.prompt.id);
    expect(edited.prompt).toMatchObject({ version: 2, versions: 2 });
    expect(await pathInPages(store, threadId, 3)).toEqual(ids([edited.prompt, edited.answer]));
    expect(await store.messageShown(two.prompt.id)).toBe(false);
    expect(await store.versionsOf(one.prompt.id)).toEqual([one.prompt.id, edited.prompt.id]);

    await store.transaction((tx) => tx.selectVersion(one.prompt.id));
    const back = await pathInPages(store, threadId, 2);
    expect(back).toEqual(ids([one.prompt, one.answer, two.prompt, two.answer]));
    const page = await store.messagesBefore(threadId, null, 10);
    expect(page.messages[0]).toMatchObject({ id: one.prompt.id, version: 1, versions: 2 });
    // History of a new turn: its own path only.
    expect(
      (await store.historyBefore(threadId, Number.MAX_SAFE_INTEGER, BUDGET)).map((h) => h.input),
    ).toEqual(["one", "two"]);
    await store.transaction((tx) => tx.selectVersion(edited.prompt.id));
    expect(
      (await store.historyBefore(threadId, Number.MAX_SAFE_INTEGER, BUDGET)).map((h) => h.input),
    ).toEqual(["one, edited"]);
  });

  it("a regeneration keeps the old answer's backlinks; the new one starts with none", async () => {
    const threadId = await newThread();
    const first = await turn(threadId, "explain");
    const link = serializeAssistantCitation({
      version: 1,
      environmentId: store.environmentId,
      threadId,
      messageId: first.answer.id,
      text: "answer",
      start: 0,
      end: 6,
      prefix: "",
      suffix: " to explain",
    });
    const citing = await turn(threadId, `see ${link}`);
    const fresh = await regenerate(threadId, first.prompt, first.answer);
    expect(fresh).toMatchObject({ version: 2, versions: 2 });
    expect(await pathInPages(store, threadId, 5)).toEqual(ids([first.prompt, fresh]));
    // Backlinks follow the path shown: the citing prompt left the path with the old answer.
    const cited = await store.citedByOf(threadId, [first.answer.id, fresh.id]);
    expect(cited.has(first.answer.id)).toBe(false);
    expect(cited.has(fresh.id)).toBe(false);
    expect(await store.citingMessagesOf(threadId, first.answer.id, 0, 10)).toEqual([]);
    // The regeneration's history is the path before its prompt; its answer is history next.
    const promptSeq = Number.MAX_SAFE_INTEGER;
    expect(await store.historyBefore(threadId, promptSeq, BUDGET)).toEqual([
      { input: "explain", answer: fresh.text },
    ]);
    // A version not shown is shown again through its ancestors' choices.
    await store.transaction((tx) => tx.showMessage(citing.prompt.id));
    expect(await pathInPages(store, threadId, 5)).toEqual(
      ids([first.prompt, first.answer, citing.prompt, citing.answer]),
    );
    // ... and the old answer's backlinks with it; the new version still has none.
    const again = await store.citedByOf(threadId, [first.answer.id, fresh.id]);
    expect(again.get(first.answer.id)?.count).toBe(1);
    expect(again.has(fresh.id)).toBe(false);
    expect(
      (await store.citingMessagesOf(threadId, first.answer.id, 0, 10)).map((c) => c.messageId),
    ).toEqual([citing.prompt.id]);
  });

  it("backlinks count only citing prompts on the path shown, across threads too", async () => {
    const sourceThread = await newThread();
    const source = await turn(sourceThread, "the source");
    const citingThread = await newThread();
    const link = (start: number, end: number) =>
      serializeAssistantCitation({
        version: 1,
        environmentId: store.environmentId,
        threadId: sourceThread,
        messageId: source.answer.id,
        text: source.answer.text.slice(start, end),
        start,
        end,
        prefix: source.answer.text.slice(0, start),
        suffix: source.answer.text.slice(end),
      });
    const countOf = async () =>
      (await store.citedByOf(sourceThread, [source.answer.id])).get(source.answer.id) ?? null;
    const v1 = await turn(citingThread, `first ${link(0, 6)}`);
    const later = await turn(citingThread, `later ${link(10, 13)}`);
    expect(await countOf()).toMatchObject({ count: 2 });
    // Edit the first prompt without the chip: it and the later prompt leave the path.
    const v2 = await turn(citingThread, "first, no chip", v1.prompt.id);
    expect(await countOf()).toBeNull();
    expect(await store.citingMessagesOf(sourceThread, source.answer.id, 0, 10)).toEqual([]);
    // Back to version 1: both cite again, with their ranges.
    await store.transaction((tx) => tx.selectVersion(v1.prompt.id));
    const back = await countOf();
    expect(back?.count).toBe(2);
    expect(back?.ranges).toHaveLength(2);
    expect(
      (await store.citingMessagesOf(sourceThread, source.answer.id, 0, 10)).map((c) => c.messageId),
    ).toEqual([v1.prompt.id, later.prompt.id]);
    // An edit that keeps a chip cites once on the path shown, whichever version is shown.
    const v3 = await turn(citingThread, `first again ${link(0, 6)}`, v1.prompt.id);
    expect((await countOf())?.count).toBe(1);
    await store.transaction((tx) => tx.selectVersion(v2.prompt.id));
    expect(await countOf()).toBeNull();
    await store.transaction((tx) => tx.selectVersion(v3.prompt.id));
    expect(
      (await store.citingMessagesOf(sourceThread, source.answer.id, 0, 10)).map((c) => c.messageId),
    ).toEqual([v3.prompt.id]);
  });

  it("a prompt hidden by a version switch still gets the history of its own path", async () => {
    const threadId = await newThread();
    const one = await turn(threadId, "one");
    await turn(threadId, "two");
    const three = await turn(threadId, "three"); // say it waits in the queue
    const edited = await turn(threadId, "one, edited", one.prompt.id);
    expect(await store.messageShown(three.prompt.id)).toBe(false);
    const inputs = async (seq: number) =>
      (await store.historyBefore(threadId, seq, BUDGET)).map((h) => [h.input, h.answer]);
    expect(await inputs(three.prompt.seq)).toEqual([
      ["one", "answer to one"],
      ["two", "answer to two"],
    ]);
    // The path shown is the edited one: a new turn there sees only it.
    expect(await inputs(Number.MAX_SAFE_INTEGER)).toEqual([
      ["one, edited", "answer to one, edited"],
    ]);
    // Shown again, the same prompt reads the same history through the path shown.
    await store.transaction((tx) => tx.selectVersion(one.prompt.id));
    expect(await inputs(three.prompt.seq)).toEqual([
      ["one", "answer to one"],
      ["two", "answer to two"],
    ]);
    expect(edited.prompt.seq).toBeGreaterThan(three.prompt.seq);
  });

  it("search finds only messages on the path shown", async () => {
    const threadId = await newThread();
    const { prompt } = await turn(threadId, "zebra crossing");
    await turn(threadId, "giraffe crossing", prompt.id);
    const found = async (query: string) =>
      (
        await store.searchCandidates({
          threadId,
          query,
          caseSensitive: false,
          afterKey: 0,
          limit: 10,
        })
      ).map((c) => c.text);
    await store.searchIndexIdle();
    expect((await found("zebra")).length).toBe(0);
    expect((await found("giraffe")).length).toBe(2);
  });
});

describe("branches", () => {
  it("copies the path up to a message with turns, citation rows and copy links", async () => {
    const threadId = await newThread();
    const one = await turn(threadId, "one");
    const link = serializeAssistantCitation({
      version: 1,
      environmentId: store.environmentId,
      threadId,
      messageId: one.answer.id,
      text: "answer",
      start: 0,
      end: 6,
      prefix: "",
      suffix: " to one",
    });
    const two = await turn(threadId, `two ${link}`);
    await turn(threadId, "three");
    const branchId = nextId("branch");
    const thread = await store.transaction((tx) =>
      tx.branchThread({
        sourceThreadId: threadId,
        messageId: two.prompt.id,
        threadId: branchId,
        title: "T (branch)",
        branchName: null,
        now: NOW,
      }),
    );
    expect(thread).toMatchObject({ id: branchId, title: "T (branch)", messageCount: 3 });
    const copied = (await store.messagesBefore(branchId, null, 10)).messages;
    expect(copied.map((m) => m.text)).toEqual(["one", one.answer.text, two.prompt.text]);
    expect(copied.every((m) => m.threadId === branchId && m.version === undefined)).toBe(true);
    expect(await store.copyOf(branchId, one.answer.id)).toBe(copied[1]!.id);
    const citing = await store.citingMessagesOf(threadId, one.answer.id, 0, 10);
    expect(citing.map((c) => c.messageId).sort()).toEqual([two.prompt.id, copied[2]!.id].sort());
    // The branch's own turns: history and a new turn after the copies.
    const history = await store.historyBefore(branchId, Number.MAX_SAFE_INTEGER, BUDGET);
    expect(history.map((h) => h.input)).toEqual(["one", two.prompt.text]);
    const next = await turn(branchId, "four");
    expect((await pathInPages(store, branchId, 2)).at(-2)).toBe(next.prompt.id);
  });

  it("a fault in the middle of the copy leaves nothing written", async () => {
    const threadId = await newThread();
    const one = await turn(threadId, "one");
    const branchId = nextId("branch");
    await expect(
      store.transaction(async (tx) => {
        await tx.branchThread({
          sourceThreadId: threadId,
          messageId: one.answer.id,
          threadId: branchId,
          title: "T (branch)",
          branchName: null,
          now: NOW,
        });
        throw new Error("fault after the copy, before the commit");
      }),
    ).rejects.toThrow("fault after the copy");
    expect(await store.getThread(branchId)).toBeNull();
    expect(await store.copyOf(branchId, one.answer.id)).toBeNull();
    expect((await store.messagesBefore(branchId, null, 10)).messages).toEqual([]);
  });
});

/** One step of a random conversation. */
type Op =
  | { kind: "send" }
  | { kind: "edit"; pick: number }
  | { kind: "regenerate"; pick: number }
  | { kind: "switch"; pick: number; version: number };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.constant<Op>({ kind: "send" }),
  fc.record({ kind: fc.constant("edit" as const), pick: fc.nat(50) }),
  fc.record({ kind: fc.constant("regenerate" as const), pick: fc.nat(50) }),
  fc.record({ kind: fc.constant("switch" as const), pick: fc.nat(50), version: fc.nat(4) }),
);

describe("property: one linear path", () => {
  it("random edits, regenerations and switches leave one path that pages, windows and search agree with", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { minLength: 1, maxLength: 14 }), async (ops) => {
        const threadId = await newThread();
        /** Every message by id, with the prompt each answer answers. */
        const all = new Map<string, Message>();
        const promptOf = new Map<string, Message>();
        let n = 0;
        const shownNow = async () => {
          const page = await store.messagesBefore(threadId, null, 1000);
          return page.messages;
        };
        for (const op of ops) {
          const shown = await shownNow();
          const prompts = shown.filter((m) => m.role === "user");
          const answers = shown.filter((m) => m.role === "assistant");
          if (op.kind === "send" || prompts.length === 0) {
            const made = await turn(threadId, `word${++n} prompt`);
            all.set(made.prompt.id, made.prompt).set(made.answer.id, made.answer);
            promptOf.set(made.answer.id, made.prompt);
          } else if (op.kind === "edit") {
            const target = prompts[op.pick % prompts.length]!;
            const made = await turn(threadId, `word${++n} edit`, target.id);
            all.set(made.prompt.id, made.prompt).set(made.answer.id, made.answer);
            promptOf.set(made.answer.id, made.prompt);
          } else if (op.kind === "regenerate" && answers.length > 0) {
            const target = answers[op.pick % answers.length]!;
            const prompt = promptOf.get(target.id)!;
            const fresh = await regenerate(threadId, prompt, target);
            all.set(fresh.id, fresh);
            promptOf.set(fresh.id, prompt);
          } else if (op.kind === "switch") {
            const target = shown[op.pick % shown.length]!;
            const versions = await store.versionsOf(target.id);
            const chosen = versions[op.version % versions.length]!;
            await store.transaction((tx) => tx.selectVersion(chosen));
          }
        }
        const path = await shownNow();
        // One linear path: each message answers or follows the one before it, seq increasing.
        for (let i = 1; i < path.length; i++) {
          expect(path[i]!.seq).toBeGreaterThan(path[i - 1]!.seq);
          const message = path[i]!;
          if (message.role === "assistant")
            expect(promptOf.get(message.id)!.id).toBe(path[i - 1]!.id);
          else expect(path[i - 1]!.role).toBe("assistant");
        }
        if (path.length > 0) expect(path[0]!.role).toBe("user");
        for (const message of path) expect(await store.messageShown(message.id)).toBe(true);
        // Pages of any size agree with it.
        for (const size of [1, 3]) {
          expect(await pathInPages(store, threadId, size)).toEqual(ids(path));
        }
        // Every around= window is a slice of it.
        const pathIds = ids(path);
        for (const anchor of path) {
          const window = await store.messagesAround(anchor, 3);
          const start = pathIds.indexOf(window.messages[0]!.id);
          expect(ids(window.messages)).toEqual(
            pathIds.slice(start, start + window.messages.length),
          );
          expect(window.hasOlder).toBe(start > 0);
        }
        // Search finds exactly the path's matches.
        const hits = await store.searchCandidates({
          threadId,
          query: "word",
          caseSensitive: false,
          afterKey: 0,
          limit: 1000,
        });
        expect(hits.map((h) => h.messageId)).toEqual(ids(path));
        // Hidden messages are never shown.
        for (const id of all.keys()) {
          expect(await store.messageShown(id)).toBe(pathIds.includes(id));
        }
      }),
      { numRuns: 25 },
    );
  });
});
