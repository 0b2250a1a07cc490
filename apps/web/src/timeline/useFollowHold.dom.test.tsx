import { act, fireEvent, render } from "@testing-library/react";
import { useRef } from "react";
import { afterEach, describe, expect, it } from "vitest";
import { useFollowHold } from "./useFollowHold.ts";

let release: () => void = () => {};
let holdNow: () => void = () => {};

function Harness() {
  const rootRef = useRef<HTMLElement>(null);
  const scrollerRef = useRef<HTMLDivElement>(null);
  const hold = useFollowHold(rootRef, () => scrollerRef.current);
  release = hold.release;
  holdNow = hold.hold;
  return (
    <section ref={rootRef} data-held={hold.held || undefined}>
      <div ref={scrollerRef} data-testid="scroller">
        <p>Answer text</p>
      </div>
    </section>
  );
}

/** jsdom has no layout: give the scroller a position relative to its end. */
function scrollTo(scroller: HTMLElement, distanceFromEnd: number) {
  Object.defineProperty(scroller, "scrollHeight", { configurable: true, value: 1000 });
  Object.defineProperty(scroller, "clientHeight", { configurable: true, value: 400 });
  Object.defineProperty(scroller, "scrollTop", {
    configurable: true,
    value: 600 - distanceFromEnd,
  });
  fireEvent.scroll(scroller);
}

afterEach(() => window.getSelection()?.removeAllRanges());

describe("useFollowHold", () => {
  it("holds from a press in the timeline until the reader scrolls back to the end", () => {
    const { container, getByTestId } = render(<Harness />);
    const root = container.querySelector("section")!;
    const scroller = getByTestId("scroller");
    scrollTo(scroller, 0);
    fireEvent.pointerDown(container.querySelector("p")!);
    expect(root).toHaveAttribute("data-held");
    // While the button is held, even the end does not release it.
    scrollTo(scroller, 0);
    expect(root).toHaveAttribute("data-held");
    // The reply grew meanwhile: released away from the end, it stays held.
    scrollTo(scroller, 300);
    fireEvent.pointerUp(document);
    expect(root).toHaveAttribute("data-held");
    scrollTo(scroller, 120);
    expect(root).toHaveAttribute("data-held");
    scrollTo(scroller, 0);
    expect(root).not.toHaveAttribute("data-held");
  });

  it("holds while a selection is in the timeline, and release() (sending) ends it", () => {
    const { container } = render(<Harness />);
    const root = container.querySelector("section")!;
    const text = container.querySelector("p")!.firstChild!;
    act(() => {
      window.getSelection()!.setBaseAndExtent(text, 0, text, 6);
      document.dispatchEvent(new Event("selectionchange"));
    });
    expect(root).toHaveAttribute("data-held");
    act(() => release());
    expect(root).not.toHaveAttribute("data-held");
  });

  it("holds after a citation jump (hold()) until the reader scrolls back to the end", () => {
    const { container, getByTestId } = render(<Harness />);
    const root = container.querySelector("section")!;
    const scroller = getByTestId("scroller");
    act(() => holdNow());
    expect(root).toHaveAttribute("data-held");
    scrollTo(scroller, 400);
    expect(root).toHaveAttribute("data-held");
    scrollTo(scroller, 0);
    expect(root).not.toHaveAttribute("data-held");
  });

  it("ignores presses outside the timeline", () => {
    const { container } = render(<Harness />);
    act(() => {
      document.body.dispatchEvent(new PointerEvent("pointerdown", { bubbles: true }));
    });
    expect(container.querySelector("section")).not.toHaveAttribute("data-held");
  });
});
