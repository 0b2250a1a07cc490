import type { Thread } from "@app/protocol";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  appendThreadPage,
  applyThreadListChange,
  compareThreads,
  EMPTY_THREAD_LIST,
  mergeFirstPage,
} from "./threadListState.ts";

const thread = (id: string, updatedAt: string, title = id): Thread => ({
  id,
  environmentId: "env",
  title,
  branchName: null,
  createdAt: updatedAt,
  updatedAt,
  messageCount: 2,
});

describe("thread list state", () => {
  it("puts a new thread at the top and a renamed one in its place", () => {
    let list = appendThreadPage(EMPTY_THREAD_LIST, {
      threads: [thread("b", "2026-01-02"), thread("a", "2026-01-01")],
      nextCursor: null,
    });
    list = applyThreadListChange(list, { type: "upsert", thread: thread("c", "2026-01-03") });
    expect(list.threads.map((t) => t.id)).toEqual(["c", "b", "a"]);
    list = applyThreadListChange(list, {
      type: "upsert",
      thread: thread("a", "2026-01-01", "Renamed"),
    });
    expect(list.threads.map((t) => t.title)).toEqual(["c", "b", "Renamed"]);
    list = applyThreadListChange(list, { type: "remove", threadId: "b" });
    expect(list.threads.map((t) => t.id)).toEqual(["c", "a"]);
  });

  it("keeps an upsert older than the loaded pages for its own page", () => {
    const list = appendThreadPage(EMPTY_THREAD_LIST, {
      threads: [thread("b", "2026-01-02")],
      nextCursor: "more",
    });
    const next = applyThreadListChange(list, { type: "upsert", thread: thread("z", "2020-01-01") });
    expect(next.threads.map((t) => t.id)).toEqual(["b"]);
  });

  it("merges a fresh first page over the loaded list without losing older pages", () => {
    let list = appendThreadPage(EMPTY_THREAD_LIST, {
      threads: [thread("c", "3"), thread("b", "2")],
      nextCursor: "p2",
    });
    list = appendThreadPage(list, { threads: [thread("a", "1")], nextCursor: null });
    const merged = mergeFirstPage(list, {
      threads: [thread("d", "4"), thread("c", "3")],
      nextCursor: "x",
    });
    expect(merged.threads.map((t) => t.id)).toEqual(["d", "c", "b", "a"]);
    expect(merged.nextCursor).toBeNull();
  });

  it("orders like the server: updatedAt descending, ties by id", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.constantFrom("1", "2", "3"), fc.string({ maxLength: 3 })), {
          maxLength: 20,
        }),
        (pairs) => {
          let list = EMPTY_THREAD_LIST;
          for (const [at, id] of pairs) {
            list = applyThreadListChange(list, { type: "upsert", thread: thread(id, at) });
          }
          const sorted = [...list.threads].sort(compareThreads);
          expect(list.threads).toEqual(sorted);
          expect(new Set(list.threads.map((t) => t.id)).size).toBe(list.threads.length);
        },
      ),
    );
  });
});
