import type { Thread, ThreadListChange } from "@app/protocol";
import { describe, expect, it } from "vitest";
import { subscribeThreadListEvents } from "./threadListEvents.ts";

/** Enough of EventSource for the subscriber: listeners by type, and close. */
class FakeSource {
  readonly listeners = new Map<string, ((event: { data?: string }) => void)[]>();
  closed = false;
  constructor(readonly url: string) {}
  addEventListener(type: string, listener: (event: { data?: string }) => void) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }
  emit(type: string, data?: string) {
    for (const listener of this.listeners.get(type) ?? []) listener({ data });
  }
  close() {
    this.closed = true;
  }
}

const thread: Thread = {
  id: "t1",
  environmentId: "env",
  title: "Renamed",
  branchName: null,
  createdAt: "2026-01-01T00:00:00.000Z",
  updatedAt: "2026-01-01T00:00:01.000Z",
  messageCount: 2,
};

describe("subscribeThreadListEvents", () => {
  it("hands over parsed changes, drops frames that do not parse, and refetches on a reconnect", () => {
    let source: FakeSource | null = null;
    const got: ThreadListChange[][] = [];
    let reconnects = 0;
    const close = subscribeThreadListEvents(
      { onChanges: (changes) => got.push(changes), onReconnected: () => reconnects++ },
      (url) => {
        source = new FakeSource(url);
        return source as unknown as EventSource;
      },
    );
    const s = source as unknown as FakeSource;
    expect(s.url).toBe("/api/threads/events");
    s.emit("open");
    const changes: ThreadListChange[] = [
      { type: "upsert", thread },
      { type: "remove", threadId: "t2" },
    ];
    s.emit("threads", JSON.stringify({ changes }));
    s.emit("threads", "not json");
    s.emit("threads", JSON.stringify({ changes: [{ type: "rename", threadId: "t1" }] }));
    expect(got).toEqual([changes]);
    expect(reconnects).toBe(0);
    s.emit("open");
    expect(reconnects).toBe(1);
    close();
    expect(s.closed).toBe(true);
  });
});
