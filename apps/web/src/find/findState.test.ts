import type { ThreadSearchMatch } from "@app/protocol";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  countText,
  createFindState,
  currentMatch,
  type FindAction,
  type FindState,
  findReducer,
  flattenMatches,
  pageToFetch,
} from "./findState.ts";

const message = (id: string, ranges: Array<[number, number]>): ThreadSearchMatch => ({
  messageId: id,
  role: id.startsWith("u") ? "user" : "assistant",
  ranges,
});

function run(state: FindState, ...actions: FindAction[]): FindState {
  return actions.reduce(findReducer, state);
}

const searching = (query = "step") => run(createFindState(), { type: "query", query });

describe("findReducer", () => {
  it("a query starts a search; the first page makes the first match current", () => {
    const state = searching();
    expect(state.phase).toBe("searching");
    expect(countText(state)).toBe("Searching…");
    expect(pageToFetch(state)).toEqual({ searchId: state.searchId });
    const ready = run(state, {
      type: "page",
      searchId: state.searchId,
      matches: [
        message("a1", [
          [0, 4],
          [10, 14],
        ]),
        message("u2", [[3, 7]]),
      ],
      nextCursor: null,
    });
    expect(ready.matches.map((m) => [m.messageId, m.occurrence])).toEqual([
      ["a1", 0],
      ["a1", 1],
      ["u2", 0],
    ]);
    expect(currentMatch(ready)).toMatchObject({ messageId: "a1", start: 0, end: 4 });
    expect(countText(ready)).toBe("1 of 3");
    expect(pageToFetch(ready)).toBeNull();
  });

  it("says there are no matches, and that a search failed", () => {
    const state = searching();
    const none = run(state, {
      type: "page",
      searchId: state.searchId,
      matches: [],
      nextCursor: null,
    });
    expect(countText(none)).toBe("No matches");
    expect(run(none, { type: "next" })).toBe(none);
    const failed = run(state, { type: "failed", searchId: state.searchId, message: "offline" });
    expect(countText(failed)).toBe("Search failed");
    expect(pageToFetch(failed)).toBeNull();
  });

  it("an empty query is idle and fetches nothing", () => {
    const state = run(searching(), { type: "query", query: "" });
    expect(state.phase).toBe("idle");
    expect(countText(state)).toBe("");
    expect(pageToFetch(state)).toBeNull();
  });

  it("ignores pages and failures of an older search", () => {
    const first = searching("a");
    const second = run(first, { type: "query", query: "ab" });
    const after = run(
      second,
      {
        type: "page",
        searchId: first.searchId,
        matches: [message("m", [[0, 1]])],
        nextCursor: null,
      },
      { type: "failed", searchId: first.searchId, message: "late" },
    );
    expect(after).toBe(second);
  });

  it("steps and wraps both ways once every page is in", () => {
    const state = searching();
    let ready = run(state, {
      type: "page",
      searchId: state.searchId,
      matches: [message("a", [[0, 1]]), message("b", [[0, 1]]), message("c", [[0, 1]])],
      nextCursor: null,
    });
    ready = run(ready, { type: "next" }, { type: "next" });
    expect(countText(ready)).toBe("3 of 3");
    ready = run(ready, { type: "next" });
    expect(countText(ready)).toBe("1 of 3");
    ready = run(ready, { type: "previous" });
    expect(countText(ready)).toBe("3 of 3");
  });

  it("shows n of N+ while pages remain, fetches them, and a step past the end waits for them", () => {
    const state = searching();
    const page1 = run(state, {
      type: "page",
      searchId: state.searchId,
      matches: [message("a", [[0, 1]]), message("b", [[0, 1]])],
      nextCursor: "c2",
    });
    expect(countText(page1)).toBe("1 of 2+");
    expect(pageToFetch(page1)).toEqual({ searchId: state.searchId, cursor: "c2" });
    const waiting = run(page1, { type: "next" }, { type: "next" });
    expect(waiting.pendingStep).toBe("next");
    expect(countText(waiting)).toBe("2 of 2+");
    const page2 = run(waiting, {
      type: "page",
      searchId: state.searchId,
      matches: [message("c", [[0, 1]])],
      nextCursor: null,
    });
    expect(currentMatch(page2)?.messageId).toBe("c");
    expect(countText(page2)).toBe("3 of 3");
    expect(page2.pendingStep).toBeNull();
  });

  it("Previous on the first match waits for the last page, then lands on the last match", () => {
    const state = searching();
    const page1 = run(state, {
      type: "page",
      searchId: state.searchId,
      matches: [message("a", [[0, 1]])],
      nextCursor: "c2",
    });
    const waiting = run(page1, { type: "previous" });
    expect(waiting.pendingStep).toBe("last");
    const page2 = run(waiting, {
      type: "page",
      searchId: state.searchId,
      matches: [message("b", [[0, 1]])],
      nextCursor: "c3",
    });
    expect(currentMatch(page2)?.messageId).toBe("a");
    const page3 = run(page2, {
      type: "page",
      searchId: state.searchId,
      matches: [message("c", [[0, 1]])],
      nextCursor: null,
    });
    expect(currentMatch(page3)?.messageId).toBe("c");
  });

  it("a refresh keeps the old matches until the new ones are complete, and the current match", () => {
    const state = searching();
    const ready = run(
      state,
      {
        type: "page",
        searchId: state.searchId,
        matches: [message("a", [[0, 1]]), message("b", [[0, 1]])],
        nextCursor: null,
      },
      { type: "next" },
    );
    const refreshing = run(ready, { type: "refresh" });
    expect(countText(refreshing)).toBe("2 of 2");
    expect(pageToFetch(refreshing)).toEqual({ searchId: refreshing.searchId });
    const half = run(refreshing, {
      type: "page",
      searchId: refreshing.searchId,
      matches: [message("a", [[0, 1]])],
      nextCursor: "more",
    });
    expect(countText(half)).toBe("2 of 2");
    expect(pageToFetch(half)).toEqual({ searchId: refreshing.searchId, cursor: "more" });
    const done = run(half, {
      type: "page",
      searchId: refreshing.searchId,
      matches: [message("b", [[0, 1]]), message("new", [[2, 3]])],
      nextCursor: null,
    });
    expect(countText(done)).toBe("2 of 3");
    expect(currentMatch(done)?.messageId).toBe("b");
    // A failed refresh keeps what was there.
    const again = run(done, { type: "refresh" });
    expect(run(again, { type: "failed", searchId: again.searchId, message: "x" }).matches).toEqual(
      done.matches,
    );
  });

  it("changing an option searches again; the same options do not", () => {
    const state = searching();
    expect(run(state, { type: "options", options: state.options })).toBe(state);
    const cased = run(state, { type: "options", options: { matchCase: true, wholeWords: false } });
    expect(cased.searchId).toBe(state.searchId + 1);
    expect(cased.phase).toBe("searching");
  });

  it("close forgets the matches but keeps the query for the next opening", () => {
    const state = searching("step 100");
    const closed = run(state, { type: "close" });
    expect(closed.query).toBe("step 100");
    expect(closed.phase).toBe("idle");
    expect(run(closed, { type: "query", query: "step 100" }).phase).toBe("searching");
  });

  it("flattens each message's ranges in order with their occurrence index", () => {
    expect(
      flattenMatches([
        message("m", [
          [1, 2],
          [5, 6],
        ]),
      ]),
    ).toEqual([
      { messageId: "m", role: "assistant", start: 1, end: 2, occurrence: 0 },
      { messageId: "m", role: "assistant", start: 5, end: 6, occurrence: 1 },
    ]);
  });

  it("property: any sequence of actions keeps the current index inside the matches", () => {
    const action = fc.oneof(
      fc.constantFrom<FindAction>(
        { type: "next" },
        { type: "previous" },
        { type: "refresh" },
        { type: "close" },
        { type: "query", query: "x" },
        { type: "query", query: "" },
        { type: "options", options: { matchCase: true, wholeWords: false } },
      ),
      fc.record({
        count: fc.nat(4),
        more: fc.boolean(),
        stale: fc.boolean(),
      }),
      fc.integer({ min: -2, max: 8 }),
    );
    fc.assert(
      fc.property(fc.array(action, { maxLength: 40 }), (actions) => {
        let state = searching("x");
        let counter = 0;
        for (const a of actions) {
          if (typeof a === "number") {
            state = findReducer(state, { type: "select", index: a });
          } else if ("count" in a) {
            const matches = Array.from({ length: a.count }, () =>
              message(`m${counter++}`, [[0, 1]]),
            );
            state = findReducer(state, {
              type: "page",
              searchId: a.stale ? state.searchId - 1 : state.searchId,
              matches,
              nextCursor: a.more ? `c${counter}` : null,
            });
          } else {
            state = findReducer(state, a);
          }
          const count = state.matches.length;
          if (count === 0) expect(state.current).toBe(-1);
          else if (state.phase === "ready") {
            expect(state.current).toBeGreaterThanOrEqual(0);
            expect(state.current).toBeLessThan(count);
          }
          const text = countText(state);
          if (state.phase === "ready" && count > 0) {
            expect(text).toMatch(new RegExp(`^${state.current + 1} of ${count}\\+?$`));
            expect(text.endsWith("+")).toBe(state.nextCursor !== null);
          }
        }
      }),
      { numRuns: 500 },
    );
  });
});

describe("seed (opened at a match by search all threads)", () => {
  it("makes the match current at once and keeps it current once every page is in", () => {
    const seeded = { messageId: "m2", role: "assistant" as const, start: 4, end: 7, occurrence: 0 };
    let state = findReducer(createFindState(), {
      type: "seed",
      query: "fox",
      options: { matchCase: false, wholeWords: false },
      match: seeded,
    });
    expect(currentMatch(state)).toEqual(seeded);
    const wanted = pageToFetch(state);
    expect(wanted).toEqual({ searchId: state.searchId });
    state = findReducer(state, {
      type: "page",
      searchId: state.searchId,
      matches: [
        { messageId: "m1", role: "user", ranges: [[0, 3]] },
        { messageId: "m2", role: "assistant", ranges: [[4, 7]] },
      ],
      nextCursor: null,
    });
    expect(state.matches).toHaveLength(2);
    expect(currentMatch(state)?.messageId).toBe("m2");
    expect(countText(state)).toBe("2 of 2");
  });
});
