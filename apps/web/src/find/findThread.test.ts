import { describe, expect, it } from "vitest";
import { isFindShortcut, isLoadedIn, liveKeyOf } from "./findThread.ts";

const EMPTY_STATE = { messagesById: new Map(), ranges: [] };

describe("thread helpers", () => {
  const message = (id: string, status: "streaming" | "complete") => [id, { id, status }] as const;
  it("liveKeyOf changes when the newest message completes or a new one is stored", () => {
    const streaming = {
      messagesById: new Map([message("u1", "complete"), message("a1", "streaming")]),
      ranges: [{ ids: ["u1", "a1"] }],
    };
    expect(liveKeyOf(streaming)).toBe("u1");
    const done = {
      ...streaming,
      messagesById: new Map([message("u1", "complete"), message("a1", "complete")]),
    };
    expect(liveKeyOf(done)).toBe("a1");
    expect(liveKeyOf(EMPTY_STATE)).toBe("");
  });

  it("isLoadedIn needs the message in a loaded range", () => {
    const state = { messagesById: new Map([message("a", "complete")]), ranges: [{ ids: ["a"] }] };
    expect(isLoadedIn(state, "a")).toBe(true);
    expect(isLoadedIn(state, "b")).toBe(false);
    expect(isLoadedIn({ ...state, ranges: [] }, "a")).toBe(false);
  });
});

describe("isFindShortcut", () => {
  const key = (init: Partial<KeyboardEvent>) =>
    ({
      key: "f",
      ctrlKey: false,
      metaKey: false,
      altKey: false,
      shiftKey: false,
      ...init,
    }) as KeyboardEvent;
  it("is Ctrl+F or Cmd+F, either case, with no Alt or Shift", () => {
    expect(isFindShortcut(key({ ctrlKey: true }))).toBe(true);
    expect(isFindShortcut(key({ metaKey: true, key: "F" }))).toBe(true);
    expect(isFindShortcut(key({}))).toBe(false);
    expect(isFindShortcut(key({ ctrlKey: true, shiftKey: true }))).toBe(false);
    expect(isFindShortcut(key({ ctrlKey: true, altKey: true }))).toBe(false);
    expect(isFindShortcut(key({ ctrlKey: true, key: "g" }))).toBe(false);
  });
});
