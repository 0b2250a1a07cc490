/**
 * The seed writes its turns in bulk (`appendFinishedTurns`, issue 33). On the store under test,
 * a thread seeded so holds exactly what the seed wrote before, one query per row: the same
 * thread record, messages (seqs, parents, versions), turns, provider history, search hits and
 * backlinks, with every message indexed as `searchTextOf` renders it. Both threads are made from
 * the same ids (but for their prefix) and times, so they compare whole.
 */
import { describe, expect, it } from "vitest";
import { seedDemoThread, seededTurns } from "./seed.ts";
import type { ChatStore } from "./storage/chatStore.ts";
import { citationEntriesOf } from "./storage/citationIndex.ts";
import { searchTextOf } from "./storage/searchText.ts";
import { makeTempDir, openTestStore, removeDir } from "./testing/harness.ts";
import { deriveBranchName } from "./titles.ts";

const TURNS = 130;
const START = new Date("2026-02-01T00:00:00.000Z");
const ONE_BY_ONE = "aaaaaaaa-aaaa-4aaa-8aaa-";
const BULK = "bbbbbbbb-bbbb-4bbb-8bbb-";

function idsFrom(prefix: string): () => string {
  let n = 0;
  return () => `${prefix}${(n++).toString(16).padStart(12, "0")}`;
}

/** The seed as it was before the bulk writes: one query per row, indexed by `searchTextOf`. */
async function seedOneByOne(store: ChatStore, newId: () => string): Promise<string> {
  let tick = 0;
  const at = () => new Date(START.getTime() + 1000 * tick++).toISOString();
  const threadId = newId();
  const title = `Long demo thread (${TURNS} turns)`;
  await store.transaction(async (repo) => {
    await repo.createThread({ id: threadId, title, now: at() });
    await repo.setThreadTitle({
      id: threadId,
      title,
      titleSource: "custom",
      branchName: deriveBranchName(title),
      now: at(),
    });
    const turns = seededTurns({
      turns: TURNS,
      environmentId: store.environmentId,
      threadId,
      at,
      newId,
    });
    for (const turn of turns) {
      const { message } = await repo.insertTurnWithPrompt({
        threadId,
        turnId: turn.turnId,
        messageId: turn.prompt.id,
        text: turn.prompt.text,
        providerInput: turn.prompt.providerInput,
        now: turn.prompt.now,
      });
      await repo.writeSearchText(message.id, searchTextOf("user", message.text));
      await repo.insertCitations(
        citationEntriesOf({ ...message, messageId: message.id, createdAt: message.createdAt }),
      );
      for (const reply of turn.replies) {
        await repo.insertAssistantMessage({
          id: reply.id,
          threadId,
          turnId: turn.turnId,
          kind: reply.kind,
          text: reply.text,
          status: "complete",
          now: reply.now,
        });
        await repo.writeSearchText(reply.id, searchTextOf("assistant", reply.text));
      }
      await repo.updateTurn({
        id: turn.turnId,
        status: "completed",
        completedAt: turn.replies.at(-1)!.now,
      });
    }
  });
  return threadId;
}

/** Everything the store answers about the thread (index row ids, which differ, left out). */
async function snapshot(store: ChatStore, threadId: string) {
  const messages = [];
  let after = 0;
  for (;;) {
    const page = await store.messagesAfter(threadId, after, 200);
    messages.push(...page.messages);
    if (!page.hasNewer) break;
    after = page.messages.at(-1)!.seq;
  }
  const messageIds = messages.map((m) => m.id);
  const turnIds = [...new Set(messages.map((m) => m.turnId))];
  const lastPrompt = messages.findLast((m) => m.role === "user")!;
  const search: Record<string, unknown> = {};
  for (const [query, caseSensitive] of [
    [" ", true],
    ["answer 1", false],
    ["SQLite", true],
    ["deep link to turn", false],
    ["| parse", false],
  ] as const) {
    const candidates = await store.searchCandidates({
      threadId,
      query,
      caseSensitive,
      afterKey: 0,
      limit: 10_000,
    });
    search[query] = candidates.map(({ messageId, role, text }) => ({ messageId, role, text }));
  }
  const citedBy = [...(await store.citedByOf(threadId, messageIds))].sort(([a], [b]) =>
    a < b ? -1 : 1,
  );
  const citing: Record<string, unknown> = {};
  for (const [id] of citedBy) {
    const records = await store.citingMessagesOf(threadId, id, 0, 200);
    citing[id] = records.map(({ id: _rowId, ...record }) => record);
  }
  const tree: Record<string, unknown> = {};
  for (const message of messages) {
    tree[message.id] = {
      shown: await store.messageShown(message.id),
      versions: await store.versionsOf(message.id),
      run: message.role === "assistant" ? await store.answerRunOf(message.id) : null,
    };
  }
  return {
    thread: await store.getThread(threadId),
    tree,
    detail: await store.threadDetail(threadId),
    lastSeq: await store.lastSeq(threadId),
    messages,
    turns: await store.turnsByIds(turnIds),
    history: await store.historyBefore(threadId, lastPrompt.seq, {
      maxTurns: 50,
      maxChars: 480_000,
    }),
    search,
    citedBy,
    citing,
  };
}

describe("seed in bulk", () => {
  it("writes what one query per row wrote: messages, turns, search hits and backlinks", async () => {
    const dir = await makeTempDir("chat-seed-bulk-");
    const store = await openTestStore(dir);
    try {
      const before = await seedOneByOne(store, idsFrom(ONE_BY_ONE));
      const bulk = await seedDemoThread(store, {
        turns: TURNS,
        startAt: START,
        newId: idsFrom(BULK),
      });
      expect(await store.queuedSearchTexts(10)).toEqual([]);
      const expected = await snapshot(store, before);
      const actual = await snapshot(store, bulk);
      // The thread is whole and its indexes are not empty, so the comparison means something.
      expect(actual.messages).toHaveLength(TURNS * 2 + 26);
      expect(actual.citedBy.length).toBeGreaterThanOrEqual(7);
      expect((actual.search["deep link to turn"] as unknown[]).length).toBe(1);
      expect(actual.history).toHaveLength(50);
      expect(JSON.parse(JSON.stringify(actual))).toEqual(
        JSON.parse(JSON.stringify(expected).replaceAll(ONE_BY_ONE, BULK)),
      );
      // An edit of the 5th prompt hides everything after it, through the parent links.
      for (const [threadId, prefix] of [
        [before, ONE_BY_ONE],
        [bulk, BULK],
      ] as const) {
        const fifth = actual.messages.filter((m) => m.role === "user")[4]!;
        await store.transaction(async (tx) => {
          await tx.insertTurnWithPrompt({
            threadId,
            turnId: `${prefix}fffffffffffe`,
            messageId: `${prefix}ffffffffffff`,
            text: "Edited",
            providerInput: "Edited",
            now: "2026-03-01T00:00:00.000Z",
            versionOf: fifth.id.replace(BULK, prefix),
          });
        });
      }
      const edited = await snapshot(store, bulk);
      expect(edited.messages.map((m) => m.text).slice(-2)).toEqual([
        expect.stringContaining("Answer 4 "),
        "Edited",
      ]);
      expect(JSON.parse(JSON.stringify(edited))).toEqual(
        JSON.parse(JSON.stringify(await snapshot(store, before)).replaceAll(ONE_BY_ONE, BULK)),
      );
    } finally {
      await store.close();
      await removeDir(dir);
    }
  }, 120_000);
});
