import type { Message, MessagePage, ServerEvent, Thread, Turn } from "@app/protocol";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  createThreadState,
  newestRange,
  orderedMessages,
  type ThreadState,
} from "./threadState.ts";
import { type ThreadAction, threadReducer } from "./threadStore.ts";

const thread: Thread = {
  id: "t1",
  environmentId: "env",
  title: "New thread",
  branchName: null,
  createdAt: "2026-01-01T00:00:00.000Z",
  updatedAt: "2026-01-01T00:00:00.000Z",
  messageCount: 0,
};

function message(seq: number, overrides: Partial<Message> = {}): Message {
  return {
    id: `m${seq}`,
    threadId: "t1",
    turnId: `turn${Math.ceil(seq / 2)}`,
    role: seq % 2 === 1 ? "user" : "assistant",
    kind: seq % 2 === 1 ? "prompt" : "answer",
    text: `text ${seq}`,
    status: "complete",
    seq,
    createdAt: "2026-01-01T00:00:00.000Z",
    ...overrides,
  };
}

function turn(id: string, status: Turn["status"]): Turn {
  return {
    id,
    threadId: "t1",
    status,
    error: status === "failed" ? { code: "provider_error", message: "boom" } : null,
    createdAt: "2026-01-01T00:00:00.000Z",
    completedAt: status === "completed" || status === "failed" ? "2026-01-01T00:00:01.000Z" : null,
  };
}

function page(messages: Message[], nextCursor: string | null, turns: Turn[] = []): MessagePage {
  return { messages, nextCursor, newerCursor: null, turns };
}

function loaded(): ThreadState {
  return threadReducer(createThreadState(), {
    type: "detail.loaded",
    detail: { thread, activeTurn: null, pendingUserInput: null, lastEventId: 10 },
  });
}

function run(state: ThreadState, actions: ThreadAction[]): ThreadState {
  return actions.reduce(threadReducer, state);
}

const event = (eventId: number, e: ServerEvent): ThreadAction => ({
  type: "event",
  eventId,
  event: e,
});

describe("threadReducer", () => {
  it("takes backlinks from pages and message.cited events, and keeps them through events without them", () => {
    const range = { text: "text", start: 0, end: 4, prefix: "", suffix: " 2" };
    let state = threadReducer(loaded(), {
      type: "page.loaded",
      page: page([message(1), message(2, { citedBy: { count: 0, ranges: [] } })], null),
      position: "newest",
    });
    state = threadReducer(
      state,
      event(11, { type: "message.cited", messageId: "m2", citedBy: { count: 1, ranges: [range] } }),
    );
    expect(state.messagesById.get("m2")!.citedBy).toEqual({ count: 1, ranges: [range] });
    // A replay of the same event changes nothing; one for a message not loaded is ignored.
    const again = threadReducer(
      state,
      event(12, { type: "message.cited", messageId: "m2", citedBy: { count: 1, ranges: [range] } }),
    );
    expect(again.messagesById).toBe(state.messagesById);
    const unknown = threadReducer(
      state,
      event(13, { type: "message.cited", messageId: "m9", citedBy: { count: 1, ranges: [range] } }),
    );
    expect(unknown.messagesById).toBe(state.messagesById);
    // message.completed carries no citedBy: the known backlinks stay.
    state = threadReducer(state, event(14, { type: "message.completed", message: message(2) }));
    expect(state.messagesById.get("m2")!.citedBy!.count).toBe(1);
    // A page read before that event (the refetch after the first paint) does not lower it.
    state = threadReducer(state, {
      type: "page.loaded",
      page: page([message(1), message(2, { citedBy: { count: 0, ranges: [] } })], null),
      position: "newest",
    });
    expect(state.messagesById.get("m2")!.citedBy).toEqual({ count: 1, ranges: [range] });
    // A later page with a new count replaces it.
    state = threadReducer(state, {
      type: "page.loaded",
      page: page([message(1), message(2, { citedBy: { count: 2, ranges: [range] } })], null),
      position: "newest",
    });
    expect(state.messagesById.get("m2")!.citedBy!.count).toBe(2);
  });

  it("orders a newest page and prepends older pages by seq", () => {
    let state = threadReducer(loaded(), {
      type: "page.loaded",
      page: page([message(3), message(4)], "c2"),
      position: "newest",
    });
    expect(newestRange(state)).toMatchObject({
      olderCursor: "c2",
      hasOlder: true,
      hasNewer: false,
    });
    state = threadReducer(state, {
      type: "page.loaded",
      page: page([message(1), message(2)], null),
      position: "older",
      cursor: "c2",
    });
    expect(state.order).toEqual(["m1", "m2", "m3", "m4"]);
    expect(state.ranges).toHaveLength(1);
    expect(newestRange(state)).toMatchObject({ olderCursor: null, hasOlder: false });
  });

  it("ignores duplicate messages and replayed events", () => {
    const base = threadReducer(loaded(), {
      type: "page.loaded",
      page: page([message(1)], null),
      position: "newest",
    });
    const created = event(11, {
      type: "message.created",
      message: message(2, { text: "", status: "streaming" }),
    });
    const once = run(base, [
      created,
      event(12, { type: "message.delta", messageId: "m2", offset: 0, delta: "Hi" }),
    ]);
    const twice = run(once, [
      created,
      event(12, { type: "message.delta", messageId: "m2", offset: 0, delta: "Hi" }),
    ]);
    expect(twice).toBe(once);
    expect(orderedMessages(twice).map((m) => m.text)).toEqual(["text 1", "Hi"]);
    expect(twice.lastEventId).toBe(12);
  });

  it("drops a delta whose offset is already covered and appends only the new tail of an overlap", () => {
    const state = run(loaded(), [
      event(11, {
        type: "message.created",
        message: message(2, { text: "", status: "streaming" }),
      }),
      event(12, { type: "message.delta", messageId: "m2", offset: 0, delta: "Hello" }),
      // Same chunk again under a fresh id (e.g. a page fetched after the stream already had it).
      event(13, { type: "message.delta", messageId: "m2", offset: 0, delta: "Hello" }),
      event(14, { type: "message.delta", messageId: "m2", offset: 3, delta: "lo, world" }),
    ]);
    expect(state.messagesById.get("m2")?.text).toBe("Hello, world");
  });

  it("marks a message stale on a delta gap and repairs it on completion", () => {
    let state = run(loaded(), [
      event(11, {
        type: "message.created",
        message: message(2, { text: "", status: "streaming" }),
      }),
      event(12, { type: "message.delta", messageId: "m2", offset: 5, delta: "later" }),
    ]);
    expect(state.messagesById.get("m2")?.text).toBe("");
    expect(state.staleMessageIds.has("m2")).toBe(true);
    state = threadReducer(
      state,
      event(13, { type: "message.completed", message: message(2, { text: "early later" }) }),
    );
    expect(state.messagesById.get("m2")?.text).toBe("early later");
    expect(state.staleMessageIds.size).toBe(0);
  });

  it("marks an unknown message stale on a delta so it gets fetched", () => {
    const state = run(loaded(), [
      event(11, { type: "message.delta", messageId: "m9", offset: 0, delta: "x" }),
    ]);
    expect(state.staleMessageIds.has("m9")).toBe(true);
    expect(state.order).toEqual([]);
  });

  it("keeps a completed message when a stale streaming copy arrives later", () => {
    const state = run(loaded(), [
      { type: "page.loaded", page: page([message(2, { text: "done" })], null), position: "newest" },
      event(11, {
        type: "message.created",
        message: message(2, { text: "", status: "streaming" }),
      }),
      event(12, { type: "message.delta", messageId: "m2", offset: 0, delta: "do" }),
    ]);
    expect(state.messagesById.get("m2")).toMatchObject({ text: "done", status: "complete" });
  });

  it("inserts messages that arrive out of order by seq", () => {
    const state = run(loaded(), [
      event(11, { type: "message.created", message: message(5) }),
      event(12, { type: "message.created", message: message(3) }),
      { type: "page.loaded", page: page([message(4), message(1)], null), position: "around" },
    ]);
    expect(state.order).toEqual(["m1", "m3", "m4", "m5"]);
  });

  // A brand-new thread's live range asked for older history it cannot have (an `around=` read),
  // whose stored copy of the streaming reply overtook the live events (navigation.spec.ts
  // "a chip pressed while the reply under it streams stays put" failed in CI).
  it("starts the thread with the live messages of a thread read empty: no older history to read", () => {
    const empty = run(loaded(), [
      { type: "page.loaded", page: page([], null), position: "newest" },
      event(11, { type: "message.created", message: message(2) }),
      event(12, { type: "message.created", message: message(1) }),
      event(13, { type: "message.created", message: message(3) }),
    ]);
    expect(empty.order).toEqual(["m1", "m2", "m3"]);
    expect(newestRange(empty)).toMatchObject({ hasOlder: false, hasNewer: false });
    // Live messages of a thread not read yet (or read with history) still have older history.
    const unread = run(loaded(), [event(11, { type: "message.created", message: message(7) })]);
    expect(newestRange(unread)).toMatchObject({ hasOlder: true, olderCursor: null });
    const read = run(loaded(), [
      { type: "page.loaded", page: page([message(1), message(2)], "c1"), position: "newest" },
      event(11, { type: "message.created", message: message(3) }),
    ]);
    expect(newestRange(read)).toMatchObject({ hasOlder: true, olderCursor: "c1" });
  });

  it("keeps the order array identity when only text changes", () => {
    const state = run(loaded(), [
      event(11, {
        type: "message.created",
        message: message(2, { text: "", status: "streaming" }),
      }),
    ]);
    const next = threadReducer(
      state,
      event(12, { type: "message.delta", messageId: "m2", offset: 0, delta: "a" }),
    );
    expect(next.order).toBe(state.order);
    expect(next.messagesById).not.toBe(state.messagesById);
  });

  it("tracks the active turn, user input requests and thread updates", () => {
    const request = {
      id: "r1",
      threadId: "t1",
      turnId: "turn1",
      questions: [{ id: "q", prompt: "Which?" }],
      createdAt: "2026-01-01T00:00:00.000Z",
    };
    let state = run(loaded(), [
      event(11, { type: "turn.updated", turn: turn("turn1", "running") }),
      event(12, { type: "user_input.requested", request }),
    ]);
    expect(state.activeTurnId).toBe("turn1");
    expect(state.pendingUserInput?.id).toBe("r1");
    state = run(state, [
      event(13, { type: "user_input.resolved", requestId: "r1" }),
      event(14, { type: "turn.updated", turn: turn("turn1", "failed") }),
      event(15, { type: "thread.updated", thread: { ...thread, title: "Renamed" } }),
    ]);
    expect(state.pendingUserInput).toBeNull();
    expect(state.activeTurnId).toBeNull();
    expect(state.turnsById.get("turn1")?.error?.message).toBe("boom");
    expect(state.thread?.title).toBe("Renamed");
  });

  it("keeps Stop on the reply that streams: a prompt queued behind it becomes active when it ends", () => {
    const first = { ...turn("turnA", "running"), createdAt: "2026-01-01T00:00:01.000Z" };
    const queued = { ...turn("turnB", "running"), createdAt: "2026-01-01T00:00:02.000Z" };
    let state = run(loaded(), [
      event(11, { type: "turn.updated", turn: first }),
      { type: "turn.sent", response: { turn: queued, message: message(17) } },
      event(12, { type: "turn.updated", turn: queued }),
    ]);
    expect(state.activeTurnId).toBe("turnA");
    state = run(state, [
      event(13, { type: "turn.updated", turn: { ...first, status: "completed" } }),
    ]);
    expect(state.activeTurnId).toBe("turnB");
    state = run(state, [
      event(14, { type: "turn.updated", turn: { ...queued, status: "cancelled" } }),
    ]);
    expect(state.activeTurnId).toBeNull();
  });

  it("makes the earliest running turn active, whatever order the turns' events arrive in", () => {
    const ended = fc.constantFrom<Turn["status"]>("completed", "failed", "cancelled");
    // Three turns sent one after another; each runs (maybe waits for input), then maybe ends.
    const lifecycle = fc.tuple(fc.boolean(), fc.option(ended, { nil: undefined }));
    fc.assert(
      fc.property(
        fc.tuple(lifecycle, lifecycle, lifecycle),
        fc.array(fc.integer({ min: 0, max: 2 }), { minLength: 12, maxLength: 12 }),
        (lifecycles, picks) => {
          const queues = lifecycles.map(([waits, end], i) => {
            const base = {
              ...turn(`turn${i}`, "running"),
              createdAt: `2026-01-01T00:00:0${i}.000Z`,
            };
            const statuses: Turn["status"][] = ["running"];
            if (waits) statuses.push("waiting_for_input");
            if (end !== undefined) statuses.push(end);
            return statuses.map((status) => ({ ...base, status }));
          });
          // Interleave the three lifecycles (each in its own order), as streams may deliver them.
          let state = loaded();
          const latest = new Map<string, Turn>();
          let id = 11;
          for (const pick of [...picks, 0, 1, 2, 0, 1, 2, 0, 1, 2]) {
            const next = queues[pick]!.shift();
            if (next === undefined) continue;
            state = threadReducer(state, event(id++, { type: "turn.updated", turn: next }));
            latest.set(next.id, next);
            const running = [...latest.values()]
              .filter((t) => t.status === "running" || t.status === "waiting_for_input")
              .sort((a, b) => a.createdAt.localeCompare(b.createdAt));
            expect(state.activeTurnId).toBe(running[0]?.id ?? null);
          }
        },
      ),
    );
  });

  it("does not let an older page rewind a turn known from the stream", () => {
    const state = run(loaded(), [
      event(11, { type: "turn.updated", turn: turn("turn1", "completed") }),
      {
        type: "page.loaded",
        page: page([], null, [turn("turn1", "running")]),
        position: "older",
        cursor: "c",
      },
    ]);
    expect(state.turnsById.get("turn1")?.status).toBe("completed");
    expect(state.activeTurnId).toBeNull();
  });

  it("adds the sent prompt and its turn", () => {
    const state = threadReducer(loaded(), {
      type: "turn.sent",
      response: { turn: turn("turn9", "running"), message: message(17) },
    });
    expect(state.order).toEqual(["m17"]);
    expect(state.activeTurnId).toBe("turn9");
  });

  it("keeps a stopped turn cancelled when the send's response arrives after the turn's last event", () => {
    const state = run(loaded(), [
      event(11, { type: "turn.updated", turn: turn("turn9", "running") }),
      event(12, { type: "turn.updated", turn: turn("turn9", "cancelled") }),
      { type: "turn.sent", response: { turn: turn("turn9", "running"), message: message(17) } },
    ]);
    expect(state.turnsById.get("turn9")?.status).toBe("cancelled");
    expect(state.activeTurnId).toBeNull();
  });

  it("ends every turn in the status of the server's last event, whatever the send's response says when", () => {
    const ended = fc.constantFrom<Turn["status"]>("completed", "failed", "cancelled");
    fc.assert(
      fc.property(ended, fc.integer({ min: 0, max: 3 }), (last, sentAt) => {
        const events: ThreadAction[] = [
          event(11, { type: "turn.updated", turn: turn("turn9", "running") }),
          event(12, { type: "turn.updated", turn: turn("turn9", "waiting_for_input") }),
          event(13, { type: "turn.updated", turn: turn("turn9", last) }),
        ];
        const sent: ThreadAction = {
          type: "turn.sent",
          response: { turn: turn("turn9", "running"), message: message(17) },
        };
        const state = run(loaded(), [...events.slice(0, sentAt), sent, ...events.slice(sentAt)]);
        expect(state.turnsById.get("turn9")?.status).toBe(last);
        expect(state.activeTurnId).toBeNull();
      }),
    );
  });

  it("converges to the same messages whatever order pages and events are applied in", () => {
    const all = [1, 2, 3, 4, 5, 6, 7, 8].map((seq) => message(seq));
    const actions: ThreadAction[] = [
      { type: "page.loaded", page: page(all.slice(4), "c"), position: "newest" },
      { type: "page.loaded", page: page(all.slice(0, 4), null), position: "older", cursor: "c" },
      event(11, { type: "message.created", message: all[6]! }),
      event(12, { type: "message.completed", message: all[7]! }),
    ];
    fc.assert(
      fc.property(fc.shuffledSubarray(actions, { minLength: actions.length }), (shuffled) => {
        const state = run(loaded(), shuffled);
        expect(state.order).toEqual(all.map((m) => m.id));
        expect(orderedMessages(state)).toEqual(all);
      }),
    );
  });
});

describe("path.reloaded (versions, issue 30)", () => {
  it("replaces the loaded history with the new path's page, keeping the thread and events", () => {
    const before = run(loaded(), [
      {
        type: "page.loaded",
        page: page([message(1), message(2), message(3), message(4)], null),
        position: "newest",
      },
    ]);
    const edited = message(5, { id: "m1b", role: "user", kind: "prompt", version: 2, versions: 2 });
    const answer = message(6, { id: "m2b" });
    const after = threadReducer(before, {
      type: "path.reloaded",
      page: page([edited, answer], null),
      position: "newest",
    });
    expect(orderedMessages(after).map((m) => m.id)).toEqual(["m1b", "m2b"]);
    expect(after.messagesById.has("m3")).toBe(false);
    expect(newestRange(after)?.ids).toEqual(["m1b", "m2b"]);
    expect(after.thread).toBe(before.thread);
    expect(after.lastEventId).toBe(before.lastEventId);
    // A thread.path event alone changes nothing: the hook reads the page.
    const same = threadReducer(after, {
      type: "event",
      eventId: 11,
      event: { type: "thread.path", messageId: "m1b" },
    });
    expect(same.order).toBe(after.order);
  });

  // e2e conversationChanges "version controls (dark)" failed under load: the regenerated answer
  // finished live while the new path's page was in flight, and the page's older snapshot
  // (answer still streaming, empty) replaced it for good.
  it("keeps a message the live events took past the page's snapshot", () => {
    const prompt = message(1);
    const streaming = message(2, {
      id: "m2b",
      text: "",
      status: "streaming",
      version: 2,
      versions: 2,
    });
    const before = run(loaded(), [
      { type: "page.loaded", page: page([prompt, message(2)], null), position: "newest" },
      { type: "event", eventId: 20, event: { type: "message.created", message: streaming } },
      {
        type: "event",
        eventId: 21,
        event: {
          type: "message.completed",
          message: { ...streaming, text: "done", status: "complete" },
        },
      },
    ]);
    const after = threadReducer(before, {
      type: "path.reloaded",
      page: page([prompt, streaming], null),
      position: "newest",
    });
    expect(orderedMessages(after).map((m) => m.id)).toEqual(["m1", "m2b"]);
    expect(after.messagesById.get("m2b")).toMatchObject({ text: "done", status: "complete" });
    // A page whose copy is further along than the live one wins as before.
    const later = threadReducer(before, {
      type: "path.reloaded",
      page: page([prompt, { ...streaming, text: "done and more", status: "complete" }], null),
      position: "newest",
    });
    expect(later.messagesById.get("m2b")?.text).toBe("done and more");
  });
});

// e2e conversationChanges "a second browser follows an edit live" failed under load: the other
// tab's page of the new path was read before the new answer existed, and the answer's
// `message.created` (received while the page was in flight) was lost with the history the page
// replaced; its chunks then fetched it alone, as a range of its own that hid the edited prompt.
describe("path.reloaded replays the events received while its page was in flight", () => {
  const edited = message(3, { id: "m1b", text: "text 1 now", version: 2, versions: 2 });
  const streaming = message(4, { id: "m2b", text: "", status: "streaming" });
  const inFlight: ServerEvent[] = [
    { type: "message.created", message: streaming },
    { type: "message.delta", messageId: "m2b", offset: 0, delta: "Here is" },
  ];
  const before = run(loaded(), [
    { type: "page.loaded", page: page([message(1), message(2)], null), position: "newest" },
    { type: "event", eventId: 11, event: { type: "message.created", message: edited } },
    { type: "event", eventId: 12, event: { type: "thread.path", messageId: "m1b" } },
    ...inFlight.map((event, i): ThreadAction => ({ type: "event", eventId: 13 + i, event })),
  ]);

  it("keeps a message created live after the page was read, in the newest range", () => {
    const after = threadReducer(before, {
      type: "path.reloaded",
      page: page([edited], null),
      position: "newest",
      replay: inFlight,
    });
    expect(newestRange(after)?.ids).toEqual(["m1b", "m2b"]);
    expect(after.messagesById.get("m2b")).toMatchObject({ text: "Here is", status: "streaming" });
    expect(after.staleMessageIds.size).toBe(0);
    expect(after.lastEventId).toBe(14);
    // The next chunk follows on, as for any streaming answer.
    const next = threadReducer(after, {
      type: "event",
      eventId: 15,
      event: { type: "message.delta", messageId: "m2b", offset: 7, delta: " more" },
    });
    expect(next.messagesById.get("m2b")?.text).toBe("Here is more");
    expect(next.staleMessageIds.size).toBe(0);
  });

  it("changes nothing a page read after those events already holds", () => {
    const done = { ...streaming, text: "Here is the whole answer", status: "complete" as const };
    const fromPage = threadReducer(before, {
      type: "path.reloaded",
      page: page([edited, done], null),
      position: "newest",
    });
    const replayed = threadReducer(before, {
      type: "path.reloaded",
      page: page([edited, done], null),
      position: "newest",
      replay: inFlight,
    });
    expect(orderedMessages(replayed)).toEqual(orderedMessages(fromPage));
    expect(replayed.ranges).toEqual(fromPage.ranges);
  });

  it("replays only message events: turns and the pending request stay as the live ones left them", () => {
    const pending = {
      id: "r1",
      threadId: "t1",
      turnId: "turn2",
      questions: [{ id: "q", prompt: "Which?" }],
      createdAt: "2026-01-01T00:00:00.000Z",
    };
    const answered = run(before, [{ type: "userInput.answered", requestId: "r1" }]);
    const after = threadReducer(answered, {
      type: "path.reloaded",
      page: page([edited], null),
      position: "newest",
      replay: [...inFlight, { type: "user_input.requested", request: pending }],
    });
    expect(after.pendingUserInput).toBeNull();
    expect(after.messagesById.has("m2b")).toBe(true);
  });
});

describe("messages.repaired (a stale message fetched again)", () => {
  it("puts a message the view never had into the newest range, not a range of its own", () => {
    const edited = message(3, { id: "m1b", version: 2, versions: 2 });
    const streaming = message(4, { id: "m2b", text: "Here is", status: "streaming" });
    const missed = run(loaded(), [
      { type: "page.loaded", page: page([edited], "cursor-1"), position: "newest" },
      {
        type: "event",
        eventId: 20,
        event: { type: "message.delta", messageId: "m2b", offset: 7, delta: " more" },
      },
    ]);
    expect([...missed.staleMessageIds]).toEqual(["m2b"]);
    // The `around=m2b&limit=1` window: the message alone, with cursors on both sides.
    const window: MessagePage = {
      messages: [{ ...streaming, text: "Here is more" }],
      nextCursor: "cursor-2",
      newerCursor: null,
      turns: [turn("turn2", "running")],
    };
    const repaired = threadReducer(missed, { type: "messages.repaired", page: window });
    expect(repaired.ranges).toHaveLength(1);
    expect(newestRange(repaired)?.ids).toEqual(["m1b", "m2b"]);
    expect(repaired.messagesById.get("m2b")?.text).toBe("Here is more");
    expect(repaired.activeTurnId).toBe("turn2");
    // A known message is only brought up to date, in place.
    const again = threadReducer(repaired, {
      type: "messages.repaired",
      page: { ...window, messages: [{ ...streaming, text: "Here is more!", status: "complete" }] },
    });
    expect(again.order).toBe(repaired.order);
    expect(again.messagesById.get("m2b")?.status).toBe("complete");
    expect(again.staleMessageIds.size).toBe(0);
  });
});
