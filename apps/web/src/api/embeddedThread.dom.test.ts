/**
 * A thread page may carry the thread's detail and newest page as an inert JSON block
 * (`#first-rows-data`, apps/server/src/http/firstRows.ts): `takeThreadPrefetch` takes it once,
 * validated like a response, and says the page is current (read after its detail).
 */
import type { MessagePage, ThreadDetail } from "@app/protocol";
import { afterEach, describe, expect, it } from "vitest";
import { FIRST_ROWS_DATA_ID, takeThreadPrefetch } from "./threadPrefetch.ts";

const detail: ThreadDetail = {
  thread: {
    id: "t1",
    environmentId: "e1",
    title: "A thread",
    branchName: null,
    createdAt: "2026-01-01T00:00:00.000Z",
    updatedAt: "2026-01-01T00:00:00.000Z",
    messageCount: 1,
  } as ThreadDetail["thread"],
  activeTurn: null,
  pendingUserInput: null,
  lastEventId: 9,
};
const page: MessagePage = {
  messages: [
    {
      id: "m1",
      threadId: "t1",
      turnId: "u1",
      role: "user",
      kind: "prompt",
      text: "</script> stays text",
      status: "complete",
      seq: 1,
      createdAt: "2026-01-01T00:00:00.000Z",
    },
  ],
  nextCursor: null,
  newerCursor: null,
  turns: [],
};

function embed(text: string): void {
  const block = document.createElement("script");
  block.type = "application/json";
  block.id = FIRST_ROWS_DATA_ID;
  block.textContent = text;
  document.body.append(block);
}

const json = (value: unknown) => JSON.stringify(value).replace(/</g, "\\u003c");

afterEach(() => {
  document.getElementById(FIRST_ROWS_DATA_ID)?.remove();
});

describe("the thread embedded in the page", () => {
  it("is taken once, parsed and validated, and marked current", async () => {
    embed(json({ threadId: "t1", detail, page }));
    const taken = takeThreadPrefetch("t1");
    expect(taken?.current).toBe(true);
    expect(await taken?.detail).toEqual(detail);
    expect(await taken?.page).toEqual(page);
    expect(document.getElementById(FIRST_ROWS_DATA_ID)).toBeNull();
    expect(takeThreadPrefetch("t1")).toBeNull();
  });

  it("is ignored for another thread, when it does not parse, or does not validate", () => {
    embed(json({ threadId: "t2", detail, page }));
    expect(takeThreadPrefetch("t1")).toBeNull();
    embed("{ not json");
    expect(takeThreadPrefetch("t1")).toBeNull();
    embed(json({ threadId: "t1", detail: { ...detail, lastEventId: "9" }, page }));
    expect(takeThreadPrefetch("t1")).toBeNull();
    expect(document.getElementById(FIRST_ROWS_DATA_ID)).toBeNull();
  });
});
