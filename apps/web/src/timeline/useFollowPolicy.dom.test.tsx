import { act, fireEvent, render } from "@testing-library/react";
import { useRef } from "react";
import { afterEach, describe, expect, it } from "vitest";
import { useFollowPolicy } from "./useFollowPolicy.ts";

let dispatch: ReturnType<typeof useFollowPolicy>["dispatch"] = () => {};

function Harness({
  placed = false,
  onReaderReachedEnd,
}: {
  placed?: boolean;
  onReaderReachedEnd?: () => void;
}) {
  const rootRef = useRef<HTMLElement>(null);
  const scrollerRef = useRef<HTMLDivElement>(null);
  const policy = useFollowPolicy(rootRef, () => scrollerRef.current, placed, onReaderReachedEnd);
  dispatch = policy.dispatch;
  return (
    <section
      ref={rootRef}
      data-following={policy.state.following || undefined}
      data-away={policy.awayFromEnd || undefined}
    >
      <div ref={scrollerRef} data-testid="scroller" tabIndex={-1}>
        <p>Answer text</p>
      </div>
    </section>
  );
}

/** jsdom has no layout: give the scroller a position relative to its end. */
function scrollTo(scroller: HTMLElement, distanceFromEnd: number, scrollHeight = 1000) {
  Object.defineProperty(scroller, "scrollHeight", { configurable: true, value: scrollHeight });
  Object.defineProperty(scroller, "clientHeight", { configurable: true, value: 400 });
  Object.defineProperty(scroller, "scrollTop", {
    configurable: true,
    value: scrollHeight - 400 - distanceFromEnd,
  });
  fireEvent.scroll(scroller);
}

afterEach(() => window.getSelection()?.removeAllRanges());

describe("useFollowPolicy", () => {
  it("follows from the start, stops on a press, and follows again back at the end", () => {
    const { container, getByTestId } = render(<Harness />);
    const root = container.querySelector("section")!;
    const scroller = getByTestId("scroller");
    expect(root).toHaveAttribute("data-following");
    scrollTo(scroller, 0);
    fireEvent.pointerDown(container.querySelector("p")!);
    expect(root).not.toHaveAttribute("data-following");
    // While the button is held, even the end does not resume following.
    scrollTo(scroller, 0);
    expect(root).not.toHaveAttribute("data-following");
    // The reply grew meanwhile: released away from the end, following stays off.
    scrollTo(scroller, 300);
    fireEvent.pointerUp(document);
    expect(root).not.toHaveAttribute("data-following");
    expect(root).toHaveAttribute("data-away");
    scrollTo(scroller, 120);
    expect(root).not.toHaveAttribute("data-following");
    scrollTo(scroller, 0);
    expect(root).toHaveAttribute("data-following");
    expect(root).not.toHaveAttribute("data-away");
  });

  it("stops while a selection is in the timeline, and a send (follow) resumes it", () => {
    const { container } = render(<Harness />);
    const root = container.querySelector("section")!;
    const text = container.querySelector("p")!.firstChild!;
    act(() => {
      window.getSelection()!.setBaseAndExtent(text, 0, text, 6);
      document.dispatchEvent(new Event("selectionchange"));
    });
    expect(root).not.toHaveAttribute("data-following");
    act(() => dispatch({ type: "follow" }));
    expect(root).toHaveAttribute("data-following");
  });

  it("stops on a wheel or a key towards older messages, not on one towards the end", () => {
    const { container, getByTestId } = render(<Harness />);
    const root = container.querySelector("section")!;
    const scroller = getByTestId("scroller");
    fireEvent.wheel(scroller, { deltaY: 40 });
    fireEvent.keyDown(scroller, { key: "PageDown" });
    expect(root).toHaveAttribute("data-following");
    fireEvent.wheel(scroller, { deltaY: -40 });
    expect(root).not.toHaveAttribute("data-following");
    scrollTo(scroller, 0);
    expect(root).toHaveAttribute("data-following");
    fireEvent.keyDown(scroller, { key: "PageUp" });
    expect(root).not.toHaveAttribute("data-following");
  });

  it("a session opened at a placed message does not follow; a jump (hold) stops following until the reader scrolls back", () => {
    const placed = render(<Harness placed />);
    expect(placed.container.querySelector("section")).not.toHaveAttribute("data-following");
    placed.unmount();
    const { container, getByTestId } = render(<Harness />);
    const root = container.querySelector("section")!;
    act(() => dispatch({ type: "hold" }));
    expect(root).not.toHaveAttribute("data-following");
    scrollTo(getByTestId("scroller"), 400);
    expect(root).not.toHaveAttribute("data-following");
    // Back at the end with no input of the reader's (a tool scrolling a control into view):
    // still held, so nothing pins the rows under their next click.
    scrollTo(getByTestId("scroller"), 0);
    expect(root).not.toHaveAttribute("data-following");
    // Their own scrolling back to the end follows again.
    scrollTo(getByTestId("scroller"), 400);
    fireEvent.wheel(getByTestId("scroller"), { deltaY: 40 });
    scrollTo(getByTestId("scroller"), 0);
    expect(root).toHaveAttribute("data-following");
  });

  it("the press that started a jump does not make the list's return to the end the reader's", () => {
    let reachedEnd = 0;
    const { container, getByTestId } = render(<Harness onReaderReachedEnd={() => reachedEnd++} />);
    const scroller = getByTestId("scroller");
    const chip = container.querySelector("p")!;
    scrollTo(scroller, 0);
    // A chip clicked away from the end starts a citation jump, which holds following.
    scrollTo(scroller, 500);
    fireEvent.pointerDown(chip);
    fireEvent.pointerUp(document);
    act(() => dispatch({ type: "hold" }));
    // The jump's scroll moves up; then the list settles back at its end on its own, within a
    // second of the click (CI: the citation was left and its highlight removed).
    scrollTo(scroller, 700);
    scrollTo(scroller, 0);
    expect(reachedEnd).toBe(0);
    // The reader's own scrolling back to the end after the jump still counts.
    scrollTo(scroller, 300);
    fireEvent.wheel(scroller, { deltaY: 40 });
    scrollTo(scroller, 0);
    expect(reachedEnd).toBe(1);
  });

  it("a wheel just before a send does not make the list's moves after the send the reader's", () => {
    const { container, getByTestId } = render(<Harness />);
    const root = container.querySelector("section")!;
    const scroller = getByTestId("scroller");
    scrollTo(scroller, 0);
    // The reader wheels up, then sends from the composer within a second.
    fireEvent.wheel(scroller, { deltaY: -100 });
    scrollTo(scroller, 500);
    expect(root).not.toHaveAttribute("data-following");
    act(() => dispatch({ type: "follow" }));
    scrollTo(scroller, 0, 1200);
    // The new rows are measured: the list moves the view up 180 px, then grows at the end.
    scrollTo(scroller, 180, 1200);
    expect(root).toHaveAttribute("data-following");
    // A wheel after the send is the reader's again.
    fireEvent.wheel(scroller, { deltaY: -100 });
    expect(root).not.toHaveAttribute("data-following");
  });

  it("the list's own upward corrections keep following; a scripted move up stops it", async () => {
    const { container, getByTestId } = render(<Harness />);
    const root = container.querySelector("section")!;
    const scroller = getByTestId("scroller");
    const frames = () =>
      act(
        () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
      );
    scrollTo(scroller, 0);
    // Rows above measured 40 px smaller than estimated: the content shrinks and the view moves
    // up 30 px with it (a reply grew 10 px meanwhile).
    scrollTo(scroller, 10, 960);
    expect(root).toHaveAttribute("data-following");
    scrollTo(scroller, 0, 960);
    // The same correction with the content's height a frame late (a busy machine): still the
    // list's, not the reader's (CI: the follow stopped and a first reply ended 75 px short).
    scrollTo(scroller, 60, 960);
    Object.defineProperty(scroller, "scrollHeight", { configurable: true, value: 920 });
    await frames();
    await frames();
    expect(root).toHaveAttribute("data-following");
    scrollTo(scroller, 0, 960);
    // A move up with no input we saw and no layout change after it (a script): the reader left.
    scrollTo(scroller, 60, 960);
    expect(root).toHaveAttribute("data-following");
    await frames();
    await frames();
    expect(root).not.toHaveAttribute("data-following");
  });

  it("holds away-from-end while a pointer is pressed and reads it again on release", () => {
    const { container, getByTestId } = render(<Harness />);
    const root = container.querySelector("section")!;
    const scroller = getByTestId("scroller");
    const toggle = container.querySelector("p")!;
    scrollTo(scroller, 0);
    // A scroll lands between the press and its release (CI: Playwright scrolled a chip's
    // "Hide full quote" to the bottom edge and pressed it): the Jump to latest strip must not
    // appear under the pointer, or the release lands on it and the click is lost.
    fireEvent.pointerDown(toggle);
    scrollTo(scroller, 300);
    expect(root).not.toHaveAttribute("data-away");
    fireEvent.pointerUp(document);
    expect(root).toHaveAttribute("data-away");
    // Nor may it disappear under a press (the view grows and the words move down).
    fireEvent.pointerDown(toggle);
    scrollTo(scroller, 0);
    expect(root).toHaveAttribute("data-away");
    fireEvent.pointerCancel(document);
    expect(root).not.toHaveAttribute("data-away");
  });

  it("ignores presses outside the timeline", () => {
    const { container } = render(<Harness />);
    act(() => {
      document.body.dispatchEvent(new PointerEvent("pointerdown", { bubbles: true }));
    });
    expect(container.querySelector("section")).toHaveAttribute("data-following");
  });
});
