import { ServerEventSchema } from "@app/protocol";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { type EventStreamStatus, reconnectDelay, subscribeThreadEvents } from "./threadEvents.ts";

/** A controllable stand-in for the browser's EventSource. */
class FakeEventSource {
  static instances: FakeEventSource[] = [];
  onopen: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onmessage: ((event: MessageEvent<string>) => void) | null = null;
  listeners = new Map<string, (event: MessageEvent<string>) => void>();
  closed = false;
  constructor(readonly url: string) {
    FakeEventSource.instances.push(this);
  }
  addEventListener(type: string, listener: (event: MessageEvent<string>) => void) {
    this.listeners.set(type, listener);
  }
  close() {
    this.closed = true;
  }
  emit(type: string, id: string, data: unknown) {
    const event = new MessageEvent(type, { data: JSON.stringify(data), lastEventId: id });
    this.listeners.get(type)?.(event);
  }
}

const factory = (url: string) => new FakeEventSource(url) as unknown as EventSource;
const delta = (offset: number) => ({ type: "message.delta", messageId: "m", offset, delta: "x" });
const turn = {
  type: "turn.updated",
  turn: {
    id: "turn",
    threadId: "t 1",
    status: "running",
    error: null,
    createdAt: "2026-01-01T00:00:00.000Z",
    completedAt: null,
  },
};

beforeEach(() => {
  FakeEventSource.instances = [];
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe("subscribeThreadEvents", () => {
  it("listens to every event type of the protocol's ServerEventSchema", () => {
    const stop = subscribeThreadEvents(
      "t",
      { lastEventId: 0, onEvent() {}, onStatus() {} },
      factory,
    );
    const defined = ServerEventSchema.options.map((option) => option.shape.type.value);
    expect(defined).toContain("thread.updated");
    expect([...FakeEventSource.instances[0]!.listeners.keys()].sort()).toEqual(defined.sort());
    stop();
  });

  it("resumes from the given event id and reconnects with backoff from the last one received", () => {
    const events: (number | null)[] = [];
    const statuses: EventStreamStatus[] = [];
    const reconnected = vi.fn();
    const stop = subscribeThreadEvents(
      "t 1",
      {
        lastEventId: 7,
        onEvent: (id) => events.push(id),
        onStatus: (s) => statuses.push(s),
        onReconnected: reconnected,
      },
      factory,
    );
    const first = FakeEventSource.instances[0]!;
    expect(first.url).toBe("/api/threads/t%201/events?lastEventId=7");
    first.onopen?.();
    first.emit("message.delta", "8", delta(0));
    first.emit("turn.updated", "8", turn); // duplicate id: dropped
    first.emit("message.delta", "9", { type: "nonsense" }); // unknown shape: dropped
    first.onerror?.();
    expect(first.closed).toBe(true);
    expect(statuses).toEqual(["connecting", "open", "reconnecting"]);

    vi.advanceTimersByTime(reconnectDelay(0) - 1);
    expect(FakeEventSource.instances).toHaveLength(1);
    vi.advanceTimersByTime(1);
    const second = FakeEventSource.instances[1]!;
    expect(second.url).toBe("/api/threads/t%201/events?lastEventId=8");
    second.onopen?.();
    expect(reconnected).toHaveBeenCalledTimes(1);
    second.emit("message.delta", "10", delta(1));
    expect(events).toEqual([8, 10]);

    stop();
    expect(second.closed).toBe(true);
    second.onerror?.();
    vi.advanceTimersByTime(60_000);
    expect(FakeEventSource.instances).toHaveLength(2);
  });

  it("starts over from the log's beginning when the server refuses the resume point as invalid_cursor", async () => {
    const reconnected = vi.fn();
    const statuses: EventStreamStatus[] = [];
    const probed: string[] = [];
    const stop = subscribeThreadEvents(
      "t",
      {
        lastEventId: 42,
        onEvent() {},
        onStatus: (s) => statuses.push(s),
        onReconnected: reconnected,
      },
      factory,
      async (url) => {
        probed.push(url);
        return "invalid_cursor";
      },
    );
    // The server answered 400 before the stream opened (a database reset under the tab).
    FakeEventSource.instances[0]!.onerror?.();
    expect(statuses.at(-1)).toBe("reconnecting");
    expect(probed).toEqual(["/api/threads/t/events?lastEventId=42"]);
    await vi.waitFor(() => expect(FakeEventSource.instances).toHaveLength(2));
    const second = FakeEventSource.instances[1]!;
    expect(second.url).toBe("/api/threads/t/events?lastEventId=0");
    second.onopen?.();
    expect(statuses.at(-1)).toBe("open");
    expect(reconnected).toHaveBeenCalledTimes(1);
    // Other refusals keep the backoff (and a stream that had opened is never probed).
    second.onerror?.();
    expect(probed).toHaveLength(1);
    stop();
  });

  it("keeps backing off when the refusal is anything else", async () => {
    let answered = false;
    const stop = subscribeThreadEvents(
      "t",
      { lastEventId: 3, onEvent() {}, onStatus() {} },
      factory,
      async () => {
        answered = true;
        return "storage_unavailable";
      },
    );
    FakeEventSource.instances[0]!.onerror?.();
    await vi.waitFor(() => expect(answered).toBe(true));
    expect(FakeEventSource.instances).toHaveLength(1);
    vi.advanceTimersByTime(reconnectDelay(0));
    expect(FakeEventSource.instances[1]!.url).toBe("/api/threads/t/events?lastEventId=3");
    stop();
  });

  it("passes on live chunks that carry no id of their own, and learns ids moved by bare id lines", () => {
    const events: (number | null)[] = [];
    subscribeThreadEvents(
      "t",
      { lastEventId: 4, onEvent: (id) => events.push(id), onStatus: () => {} },
      factory,
    );
    const source = FakeEventSource.instances[0]!;
    // The browser repeats the last id for an event without one.
    source.emit("message.delta", "4", delta(0));
    source.emit("message.delta", "4", delta(1));
    // A bare `id: 5` line (the stored row of those chunks) moved the id; the next chunk shows it.
    source.emit("message.delta", "5", delta(2));
    source.emit("turn.updated", "5", turn);
    expect(events).toEqual([null, null, 5]);
  });

  it("backs off exponentially up to ten seconds", () => {
    expect([0, 1, 2, 3, 10, 50].map(reconnectDelay)).toEqual([
      500, 1000, 2000, 4000, 10_000, 10_000,
    ]);
  });
});
