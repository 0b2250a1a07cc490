import { fireEvent, render } from "@testing-library/react";
import { useRef } from "react";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { useStickToEnd } from "./useStickToEnd.ts";

// jsdom has neither layout nor ResizeObserver. The real thing runs in Chromium
// (e2e/citationInput.spec.ts follows a reply on a busy machine); here a hand-fired observer
// checks the decisions.
const observers: { callback: ResizeObserverCallback; targets: Set<Element> }[] = [];
class TestResizeObserver {
  readonly entry: { callback: ResizeObserverCallback; targets: Set<Element> };
  constructor(callback: ResizeObserverCallback) {
    this.entry = { callback, targets: new Set() };
    observers.push(this.entry);
  }
  observe(target: Element) {
    this.entry.targets.add(target);
  }
  unobserve(target: Element) {
    this.entry.targets.delete(target);
  }
  disconnect() {
    this.entry.targets.clear();
  }
}
const original = globalThis.ResizeObserver;
beforeEach(() => {
  observers.length = 0;
  globalThis.ResizeObserver = TestResizeObserver as unknown as typeof ResizeObserver;
});
afterEach(() => {
  globalThis.ResizeObserver = original;
});

function Harness({ follow }: { follow: boolean }) {
  const rootRef = useRef<HTMLElement>(null);
  const scrollerRef = useRef<HTMLDivElement>(null);
  useStickToEnd(
    rootRef,
    () => scrollerRef.current,
    ".content",
    () => follow,
  );
  return (
    <section ref={rootRef}>
      <div ref={scrollerRef} data-testid="scroller">
        <div className="content">
          <div data-testid="row">First words</div>
        </div>
      </div>
    </section>
  );
}

/** Gives the scroller a size and position; its scrollTop stays writable. */
function layout(scroller: HTMLElement, scrollHeight: number, scrollTop: number) {
  Object.defineProperty(scroller, "scrollHeight", { configurable: true, value: scrollHeight });
  Object.defineProperty(scroller, "clientHeight", { configurable: true, value: 500 });
  scroller.scrollTop = scrollTop;
}

/** The content grew to `scrollHeight` (no scroll event, as in a browser). */
function grow(scroller: HTMLElement, scrollHeight: number) {
  Object.defineProperty(scroller, "scrollHeight", { configurable: true, value: scrollHeight });
  for (const { callback, targets } of observers) {
    if (targets.size > 0) callback([], {} as ResizeObserver);
  }
}

describe("useStickToEnd", () => {
  it("observes the content and scrolls to the end when it grows under a view at the end", () => {
    const { getByTestId } = render(<Harness follow />);
    const scroller = getByTestId("scroller");
    expect([...observers[0]!.targets][0]).toBe(scroller.querySelector(".content"));
    layout(scroller, 1000, 480);
    fireEvent.scroll(scroller);
    grow(scroller, 1300);
    expect(scroller.scrollTop).toBe(800);
  });

  it("reaches the end however far a late layout pushed it, while following", () => {
    // Legend List landed 552 px short (a table shown once the reply completed): still pinned.
    const { getByTestId } = render(<Harness follow />);
    const scroller = getByTestId("scroller");
    layout(scroller, 1000, 500);
    grow(scroller, 1552);
    expect(scroller.scrollTop).toBe(1052);
  });

  it("does nothing while the policy does not pin the end (a press, a selection, a jump)", () => {
    const { getByTestId, rerender } = render(<Harness follow={false} />);
    const scroller = getByTestId("scroller");
    layout(scroller, 1000, 500);
    fireEvent.scroll(scroller);
    grow(scroller, 1300);
    expect(scroller.scrollTop).toBe(500);
    rerender(<Harness follow />);
    grow(scroller, 1400);
    expect(scroller.scrollTop).toBe(900);
  });

  it("checks the end when a row's DOM changes though no observed size did (a missed measurement)", async () => {
    // The content's height is the list's sum of measured rows: when the list misses the last
    // row's growth, only the scroller's scrollHeight (its overflow) says the end moved.
    const { getByTestId, rerender } = render(<Harness follow />);
    const scroller = getByTestId("scroller");
    layout(scroller, 1000, 500);
    Object.defineProperty(scroller, "scrollHeight", { configurable: true, value: 1111 });
    getByTestId("row").append(" and the last lines of the reply");
    await new Promise((resolve) => requestAnimationFrame(resolve));
    expect(scroller.scrollTop).toBe(611);

    // Not while the policy does not pin the end.
    rerender(<Harness follow={false} />);
    Object.defineProperty(scroller, "scrollHeight", { configurable: true, value: 1300 });
    getByTestId("row").append(document.createElement("table"));
    await new Promise((resolve) => requestAnimationFrame(resolve));
    expect(scroller.scrollTop).toBe(611);
  });
});
