/**
 * Issue 33: a search does not hold the event loop for its whole scan. SQLite answers
 * synchronously, so before the slices one request over long messages ran start to end without
 * letting a pending `setImmediate` (another request's turn) run; now find in thread yields each
 * `SLICE_CHARS` of candidate text and search all threads between two batches. Same answers.
 * SQLite only (the `server` project): on PostgreSQL every store call is I/O, so a pending
 * `setImmediate` runs whatever the domain does, and the check could not fail there.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ChatStore } from "../storage/chatStore.ts";
import { makeTempDir, openTestStore, removeDir } from "../testing/harness.ts";
import { searchAllThreads } from "./crossThreadSearch.ts";
import { SLICE_CHARS, searchThread } from "./threadSearch.ts";

let dir: string;
let store: ChatStore;

beforeAll(async () => {
  dir = await makeTempDir("chat-search-slices-");
  store = await openTestStore(dir);
  const now = "2030-01-01T00:00:00.000Z";
  // Three replies, each over half a slice, so one page reads more than a slice.
  const long = `${"lorem ipsum ".repeat(Math.ceil(SLICE_CHARS / 2 / 12))}needle here`;
  // 150 messages that contain "zorb" but never as a whole word: more than one batch of
  // candidates for search all threads, none a match.
  await store.transaction(async (tx) => {
    await tx.createThread({ id: "slices-long", title: null, now });
    await tx.createThread({ id: "slices-many", title: null, now });
    for (let n = 0; n < 3; n++) {
      await tx.insertTurnWithPrompt({
        threadId: "slices-long",
        turnId: `long-t${n}`,
        messageId: `long-p${n}`,
        text: "go",
        providerInput: "go",
        now,
      });
      await tx.insertAssistantMessage({
        id: `long-a${n}`,
        threadId: "slices-long",
        turnId: `long-t${n}`,
        kind: "answer",
        text: long,
        status: "complete",
        now,
      });
    }
    for (let n = 0; n < 75; n++) {
      await tx.insertTurnWithPrompt({
        threadId: "slices-many",
        turnId: `many-t${n}`,
        messageId: `many-p${n}`,
        text: `zorbs ${n}`,
        providerInput: "x",
        now,
      });
      await tx.insertAssistantMessage({
        id: `many-a${n}`,
        threadId: "slices-many",
        turnId: `many-t${n}`,
        kind: "answer",
        text: `more zorbs ${n}`,
        status: "complete",
        now,
      });
    }
  });
  await store.searchIndexIdle();
  // Rendering 1,500,000 characters for the index takes a while on a loaded machine.
}, 120_000);

afterAll(async () => {
  await store.close();
  await removeDir(dir);
});

/** Runs `search` and says whether a `setImmediate` queued at its start ran before it ended. */
async function letsOthersRun<T>(search: () => Promise<T>): Promise<{ result: T; ran: boolean }> {
  let ran = false;
  setImmediate(() => {
    ran = true;
  });
  const result = await search();
  return { result, ran };
}

describe("searches leave the event loop to others between slices", () => {
  it("find in thread over more than a slice of text", async () => {
    const { result, ran } = await letsOthersRun(() =>
      searchThread(store, "slices-long", {
        query: "needle",
        caseSensitive: false,
        wholeWord: false,
      }),
    );
    expect(ran).toBe(true);
    expect(result.matches.map((m) => m.messageId)).toEqual(["long-a0", "long-a1", "long-a2"]);
    expect(result.nextCursor).toBeNull();
  });

  it("search all threads over more than one batch of candidates", async () => {
    const { result, ran } = await letsOthersRun(() =>
      searchAllThreads(store, { query: "zorb", caseSensitive: false, wholeWord: true }),
    );
    expect(ran).toBe(true);
    expect(result.groups).toEqual([]);
    const substring = await searchAllThreads(store, {
      query: "zorb",
      caseSensitive: false,
      wholeWord: false,
    });
    expect(substring.groups.flatMap((g) => g.matches)).toHaveLength(30);
  });
});
