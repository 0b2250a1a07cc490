import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { useRef } from "react";
import { afterEach, describe, expect, it } from "vitest";
import type { CiteRange } from "../citations/selection/useAssistantSelectionToolbar.tsx";
import type { TimelineHandle } from "../timeline/Timeline.tsx";
import { ThreadFindBar } from "./ThreadFindBar.tsx";
import { useThreadFind } from "./useThreadFind.ts";

afterEach(cleanup);

const EMPTY_STATE = { messagesById: new Map(), ranges: [] };

function Harness() {
  const timelineRef = useRef<TimelineHandle>(null);
  const citeRangeRef = useRef<CiteRange>(null);
  const find = useThreadFind({
    threadId: "t1",
    thread: { state: EMPTY_STATE, loadAround: async () => ({ status: "loaded" }) },
    view: { showMessage: () => {} },
    timelineRef,
    citeRangeRef,
  });
  return (
    <section className="thread-view">
      <button type="button">Before</button>
      <div className="thread-view__body" />
      <ThreadFindBar find={find} />
    </section>
  );
}

/** Dispatches a keydown on the focused element; returns whether its default was prevented. */
function press(init: KeyboardEventInit): boolean {
  const target = document.activeElement ?? document.body;
  const event = new KeyboardEvent("keydown", { bubbles: true, cancelable: true, ...init });
  act(() => {
    target.dispatchEvent(event);
  });
  return event.defaultPrevented;
}

async function nextFrame() {
  await act(() => new Promise((resolve) => requestAnimationFrame(() => resolve(undefined))));
}

describe("ThreadFindBar keyboard", () => {
  it("Ctrl+F opens it (prevented); again while focused it is the browser's; Escape returns focus", async () => {
    render(<Harness />);
    const before = screen.getByRole("button", { name: "Before" });
    before.focus();
    expect(screen.queryByRole("textbox", { name: "Find in thread" })).toBeNull();
    expect(press({ key: "f", ctrlKey: true })).toBe(true);
    await nextFrame();
    const box = screen.getByRole("textbox", { name: "Find in thread" });
    expect(document.activeElement).toBe(box);
    expect(screen.getByRole("button", { name: "Previous match" })).toBeDisabled();
    expect(screen.getByRole("button", { name: "Next match" })).toBeDisabled();
    expect(screen.getByRole("button", { name: "Cite match" })).toHaveAttribute(
      "aria-disabled",
      "true",
    );
    // Focused: the browser's own find gets the key.
    expect(press({ key: "f", ctrlKey: true })).toBe(false);
    expect(press({ key: "F", metaKey: true })).toBe(false);
    // Escape closes and gives focus back.
    fireEvent.keyDown(box, { key: "Escape" });
    expect(screen.queryByRole("textbox", { name: "Find in thread" })).toBeNull();
    expect(document.activeElement).toBe(before);
  });

  it("Ctrl+F with the bar open but not focused focuses it again", async () => {
    render(<Harness />);
    press({ key: "f", ctrlKey: true });
    await nextFrame();
    const before = screen.getByRole("button", { name: "Before" });
    before.focus();
    expect(press({ key: "f", ctrlKey: true })).toBe(true);
    await nextFrame();
    expect(document.activeElement).toBe(screen.getByRole("textbox", { name: "Find in thread" }));
  });

  it("other shortcuts are left alone", () => {
    render(<Harness />);
    expect(press({ key: "f", ctrlKey: true, shiftKey: true })).toBe(false);
    expect(press({ key: "f" })).toBe(false);
  });
});
