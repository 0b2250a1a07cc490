/**
 * The thread store's windows of history against a model server: any sequence of newest pages,
 * `before=`/`after=` edge pages, `around=` windows and live messages, delivered in any order,
 * leaves ranges that are sorted, disjoint, duplicate-free and contiguous in the server's order,
 * and loading every edge afterwards merges them into exactly the server's thread.
 */
import type { Message, MessagePage, Thread } from "@app/protocol";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createThreadState, type ThreadState } from "./threadState.ts";
import { type ThreadAction, threadReducer } from "./threadStore.ts";
import { type HistoryRange, insertSegment, rangeIndexOfSeq } from "./threadWindows.ts";

const thread: Thread = {
  id: "t1",
  environmentId: "env",
  title: "Windows",
  branchName: null,
  createdAt: "2026-01-01T00:00:00.000Z",
  updatedAt: "2026-01-01T00:00:00.000Z",
  messageCount: 0,
};

/** A thread on the "server": seqs strictly increasing with gaps (cursors are opaque to the client). */
class ModelServer {
  messages: Message[] = [];
  private nextSeq = 1;
  constructor(count: number, gaps: readonly number[]) {
    for (let i = 0; i < count; i++) this.append(gaps[i % gaps.length] ?? 1);
  }
  append(gap = 1): Message {
    const seq = this.nextSeq;
    this.nextSeq += gap;
    const message: Message = {
      id: `m${seq}`,
      threadId: "t1",
      turnId: `turn${seq}`,
      role: "user",
      kind: "prompt",
      text: `text ${seq}`,
      status: "complete",
      seq,
      createdAt: "2026-01-01T00:00:00.000Z",
    };
    this.messages.push(message);
    return message;
  }
  private pageOf(slice: Message[], from: number, to: number, newer: boolean): MessagePage {
    const first = slice[0];
    const last = slice[slice.length - 1];
    return {
      messages: slice,
      nextCursor: first && from > 0 ? String(first.seq) : null,
      newerCursor: newer && last && to < this.messages.length ? String(last.seq) : null,
      turns: [],
    };
  }
  newest(limit: number): MessagePage {
    const from = Math.max(0, this.messages.length - limit);
    return this.pageOf(this.messages.slice(from), from, this.messages.length, false);
  }
  before(cursor: string, limit: number): MessagePage {
    const end = this.messages.findIndex((m) => m.seq >= Number(cursor));
    const to = end === -1 ? this.messages.length : end;
    const from = Math.max(0, to - limit);
    return this.pageOf(this.messages.slice(from, to), from, to, false);
  }
  after(cursor: string, limit: number): MessagePage {
    const start = this.messages.findIndex((m) => m.seq > Number(cursor));
    const from = start === -1 ? this.messages.length : start;
    const to = Math.min(this.messages.length, from + limit);
    return this.pageOf(this.messages.slice(from, to), from, to, true);
  }
  around(index: number, limit: number): MessagePage {
    const at = Math.min(index, this.messages.length - 1);
    let from = Math.max(0, at - Math.floor((limit - 1) / 2));
    const to = Math.min(this.messages.length, from + limit);
    from = Math.max(0, to - limit);
    return this.pageOf(this.messages.slice(from, to), from, to, true);
  }
}

function loaded(): ThreadState {
  return threadReducer(createThreadState(), {
    type: "detail.loaded",
    detail: { thread, activeTurn: null, pendingUserInput: null, lastEventId: 0 },
  });
}

const seqOfState = (state: ThreadState) => (id: string) => state.messagesById.get(id)!.seq;

/** The invariants: sorted, disjoint, duplicate-free, contiguous in server order, `order` = ranges. */
function checkRanges(state: ThreadState, server: ModelServer): void {
  const seqOf = seqOfState(state);
  const serverIndex = new Map(server.messages.map((m, i) => [m.id, i]));
  const seen = new Set<string>();
  let previousLast = Number.NEGATIVE_INFINITY;
  for (const range of state.ranges) {
    expect(range.ids.length).toBeGreaterThan(0);
    const first = serverIndex.get(range.ids[0]!)!;
    // Contiguous: exactly the server's messages from its first to its last id.
    expect(range.ids).toEqual(
      server.messages.slice(first, first + range.ids.length).map((m) => m.id),
    );
    expect(seqOf(range.ids[0]!)).toBeGreaterThan(previousLast);
    previousLast = seqOf(range.ids[range.ids.length - 1]!);
    for (const id of range.ids) {
      expect(seen.has(id)).toBe(false);
      seen.add(id);
    }
    if (!range.hasOlder) expect(range.ids[0]).toBe(server.messages[0]!.id);
  }
  expect(state.order).toEqual(state.ranges.flatMap((range) => range.ids));
  const last = state.ranges[state.ranges.length - 1];
  if (last && !last.hasNewer) {
    expect(last.ids[last.ids.length - 1]).toBe(server.messages[server.messages.length - 1]!.id);
  }
}

/** Loads every edge of every range until nothing is missing (bounded). */
function loadEverything(initial: ThreadState, server: ModelServer): ThreadState {
  let state = initial;
  if (state.ranges.length === 0) {
    state = threadReducer(state, {
      type: "page.loaded",
      page: server.newest(7),
      position: "newest",
    });
  }
  for (let step = 0; step < 500; step++) {
    const range = state.ranges.find((r) => r.hasOlder || r.hasNewer);
    if (range === undefined) return state;
    state = threadReducer(state, edgeAction(range, server, 7));
  }
  throw new Error(
    `loading every edge did not finish: ${JSON.stringify(state.ranges.map((r) => ({ ...r, ids: `${r.ids[0]}..${r.ids.at(-1)}` })))}`,
  );
}

/** The request the app makes for a range's next missing edge. */
function edgeAction(range: HistoryRange, server: ModelServer, limit: number): ThreadAction {
  if (range.hasOlder && range.olderCursor !== null) {
    const cursor = range.olderCursor;
    return { type: "page.loaded", page: server.before(cursor, limit), position: "older", cursor };
  }
  if (range.hasNewer && range.newerCursor !== null) {
    const cursor = range.newerCursor;
    return { type: "page.loaded", page: server.after(cursor, limit), position: "newer", cursor };
  }
  // An edge without a cursor (a range started by live messages): a window around its edge.
  const edgeId = range.hasOlder ? range.ids[0]! : range.ids[range.ids.length - 1]!;
  const index = server.messages.findIndex((m) => m.id === edgeId);
  return { type: "page.loaded", page: server.around(index, limit), position: "around" };
}

type Op =
  | { kind: "newest"; limit: number }
  | { kind: "edge"; pick: number; limit: number }
  | { kind: "around"; at: number; limit: number }
  | { kind: "live"; gap: number }
  | { kind: "deliver"; pick: number };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant("newest" as const), limit: fc.integer({ min: 1, max: 12 }) }),
  fc.record({
    kind: fc.constant("edge" as const),
    pick: fc.nat(),
    limit: fc.integer({ min: 1, max: 12 }),
  }),
  fc.record({
    kind: fc.constant("around" as const),
    at: fc.nat(),
    limit: fc.integer({ min: 1, max: 12 }),
  }),
  fc.record({ kind: fc.constant("live" as const), gap: fc.integer({ min: 1, max: 3 }) }),
  fc.record({ kind: fc.constant("deliver" as const), pick: fc.nat() }),
);

describe("thread windows (property)", () => {
  it("any pages, windows and live messages, in any delivery order, keep ranges sound and merge to the server's order", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 60 }),
        fc.array(fc.integer({ min: 1, max: 4 }), { minLength: 1, maxLength: 5 }),
        fc.array(opArb, { maxLength: 40 }),
        (count, gaps, ops) => {
          const server = new ModelServer(count, gaps);
          let state = loaded();
          // Requests in flight: fetched now, applied when delivered (possibly stale by then).
          const inFlight: ThreadAction[] = [];
          let eventId = 0;
          for (const op of ops) {
            switch (op.kind) {
              case "newest":
                inFlight.push({
                  type: "page.loaded",
                  page: server.newest(op.limit),
                  position: "newest",
                });
                break;
              case "edge": {
                const withEdge = state.ranges.filter((r) => r.hasOlder || r.hasNewer);
                const range = withEdge[op.pick % Math.max(1, withEdge.length)];
                if (range) inFlight.push(edgeAction(range, server, op.limit));
                break;
              }
              case "around":
                inFlight.push({
                  type: "page.loaded",
                  page: server.around(op.at % server.messages.length, op.limit),
                  position: "around",
                });
                break;
              case "live":
                // Events arrive in order and at once (the stream is ordered).
                eventId += 1;
                state = threadReducer(state, {
                  type: "event",
                  eventId,
                  event: { type: "message.created", message: server.append(op.gap) },
                });
                break;
              case "deliver": {
                if (inFlight.length === 0) break;
                const [action] = inFlight.splice(op.pick % inFlight.length, 1);
                state = threadReducer(state, action!);
                break;
              }
            }
            checkRanges(state, server);
          }
          for (const action of inFlight) {
            state = threadReducer(state, action);
            checkRanges(state, server);
          }
          state = loadEverything(state, server);
          checkRanges(state, server);
          expect(state.ranges).toHaveLength(1);
          expect(state.order).toEqual(server.messages.map((m) => m.id));
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe("thread windows (examples)", () => {
  const seqs = new Map<string, number>();
  for (let i = 1; i <= 100; i++) seqs.set(`m${i}`, i);
  const seqOf = (id: string) => seqs.get(id)!;
  const ids = (from: number, to: number) =>
    Array.from({ length: to - from + 1 }, (_, i) => `m${from + i}`);
  const range = (from: number, to: number, edges: Partial<HistoryRange> = {}): HistoryRange => ({
    ids: ids(from, to),
    hasOlder: from > 1,
    olderCursor: from > 1 ? String(from) : null,
    hasNewer: to < 100,
    newerCursor: to < 100 ? String(to) : null,
    ...edges,
  });

  it("keeps a detached around window apart from the newest range", () => {
    const ranges = insertSegment([range(81, 100)], range(20, 40), null, seqOf);
    expect(ranges.map((r) => [r.ids[0], r.ids.at(-1)])).toEqual([
      ["m20", "m40"],
      ["m81", "m100"],
    ]);
    expect(rangeIndexOfSeq(ranges, 30, seqOf)).toBe(0);
    expect(rangeIndexOfSeq(ranges, 90, seqOf)).toBe(1);
    expect(rangeIndexOfSeq(ranges, 50, seqOf)).toBe(-1);
  });

  it("merges a before= page into the range it was requested from even when they only touch", () => {
    const ranges = insertSegment(
      [range(20, 40), range(81, 100)],
      range(45, 80, { hasNewer: true, newerCursor: null }),
      { side: "older", cursor: "81" },
      seqOf,
    );
    expect(ranges).toHaveLength(2);
    expect(ranges[1]!.ids).toEqual(ids(45, 100));
    expect(ranges[1]).toMatchObject({ olderCursor: "45", hasOlder: true, hasNewer: false });
    // The next older page overlaps the detached window: one range.
    const joined = insertSegment(ranges, range(35, 44), { side: "older", cursor: "45" }, seqOf);
    expect(joined).toHaveLength(1);
    expect(joined[0]!.ids).toEqual(ids(20, 100));
  });

  it("an empty before= page marks its range as the start of the thread", () => {
    const ranges = insertSegment(
      [range(5, 100)],
      { ids: [], hasOlder: false, olderCursor: null, hasNewer: true, newerCursor: null },
      { side: "older", cursor: "5" },
      seqOf,
    );
    expect(ranges[0]).toMatchObject({ hasOlder: false, olderCursor: null });
  });

  it("an after= page that reaches the newest messages joins the newest range", () => {
    const ranges = insertSegment(
      [range(20, 40), range(61, 100)],
      range(41, 62),
      { side: "newer", cursor: "40" },
      seqOf,
    );
    expect(ranges).toHaveLength(1);
    expect(ranges[0]).toMatchObject({ hasNewer: false, hasOlder: true, olderCursor: "20" });
  });
});
