import type { LegendListRef } from "@legendapp/list/react";
import { render } from "@testing-library/react";
import { type RefObject, useRef } from "react";
import { describe, expect, it, vi } from "vitest";
import type { FollowState } from "./followPolicy.ts";
import { useHoldListOnPress } from "./useHoldListOnPress.ts";

// jsdom has no layout: the scroller's extent is set by hand, and the list is a stub that records
// the offsets it is asked for. The real list runs in Chromium (e2e/following.spec.ts).
type HarnessProps = { state: FollowState; list: LegendListRef; scroller: HTMLElement };
function Harness({ state, list, scroller }: HarnessProps) {
  const listRef = useRef<LegendListRef | null>(list) as RefObject<LegendListRef | null>;
  useHoldListOnPress(state, listRef, () => scroller);
  return null;
}

function setup(scrollHeight: number, clientHeight: number, scrollTop: number) {
  const scroller = document.createElement("div");
  Object.defineProperty(scroller, "scrollHeight", { configurable: true, value: scrollHeight });
  Object.defineProperty(scroller, "clientHeight", { configurable: true, value: clientHeight });
  scroller.scrollTop = scrollTop;
  const scrollToOffset = vi.fn(() => Promise.resolve());
  const list = { scrollToOffset } as unknown as LegendListRef;
  const following = { following: true, pressed: false };
  const utils = render(<Harness state={following} list={list} scroller={scroller} />);
  const rerender = (state: FollowState) =>
    utils.rerender(<Harness state={state} list={list} scroller={scroller} />);
  return { scrollToOffset, rerender };
}

describe("useHoldListOnPress", () => {
  it("pins the list where the view is when a press ends following", () => {
    const { scrollToOffset, rerender } = setup(2000, 500, 1500);
    rerender({ following: false, pressed: true });
    expect(scrollToOffset).toHaveBeenCalledExactlyOnceWith({ offset: 1500, animated: false });
  });

  // A brand-new thread's first reply, not yet taller than the view when pressed: the list's
  // opening scroll to the end stayed armed and fired once a flush made it overflow, moving the
  // pressed words 128-152 px up under the held button.
  it("pins the list too when the content does not fill the view yet", () => {
    const { scrollToOffset, rerender } = setup(580, 580, 0);
    rerender({ following: false, pressed: true });
    expect(scrollToOffset).toHaveBeenCalledExactlyOnceWith({ offset: 0, animated: false });
  });

  it("asks nothing for a press while the view was not following", () => {
    const { scrollToOffset, rerender } = setup(2000, 500, 700);
    rerender({ following: false, pressed: false });
    rerender({ following: false, pressed: true });
    expect(scrollToOffset).not.toHaveBeenCalled();
  });
});
