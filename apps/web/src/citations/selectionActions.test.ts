import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  observeSelectionActions,
  type SelectionActionsAnchor,
  type SelectionActionsObserver,
} from "./selectionActions.ts";

let surface: HTMLElement;
let outside: HTMLElement;
let toolbar: HTMLElement;
let text: Text;
let observer: SelectionActionsObserver;
let opened: { anchor: SelectionActionsAnchor; range: Range }[];
let dismissed: number;

function pointer(type: "pointerdown" | "pointerup", target: Element, x = 0, y = 0, button = 0) {
  target.dispatchEvent(
    new PointerEvent(type, {
      bubbles: true,
      cancelable: true,
      button,
      clientX: x,
      clientY: y,
      isPrimary: true,
    }),
  );
}

function key(type: "keydown" | "keyup", target: Element, init: KeyboardEventInit) {
  target.dispatchEvent(new KeyboardEvent(type, { bubbles: true, cancelable: true, ...init }));
}

function selectText(node: Text, start: number, end: number) {
  window.getSelection()!.setBaseAndExtent(node, start, node, end);
}

/** A press and release inside the surface that leaves `text[start, end)` selected. */
function dragSelect(start: number, end: number, x = 40, y = 12) {
  const paragraph = surface.querySelector("p")!;
  pointer("pointerdown", paragraph, 5, 5);
  selectText(text, start, end);
  pointer("pointerup", paragraph, x, y);
}

function observe(repeatClickWindowMs?: number) {
  observer = observeSelectionActions({
    surface,
    onOpen: (anchor, range) => opened.push({ anchor, range }),
    onDismiss: () => {
      dismissed++;
    },
    ...(repeatClickWindowMs === undefined ? {} : { repeatClickWindowMs }),
  });
  observer.registerToolbarElement(toolbar);
}

beforeEach(() => {
  vi.useFakeTimers();
  document.body.innerHTML =
    "<div id='surface'><div id='scroller'><p>Select some words here.</p></div></div>" +
    "<div id='outside'><p>Elsewhere.</p></div><div id='toolbar'><button>Cite in composer</button></div>";
  surface = document.getElementById("surface")!;
  outside = document.getElementById("outside")!;
  toolbar = document.getElementById("toolbar")!;
  text = surface.querySelector("p")!.firstChild as Text;
  opened = [];
  dismissed = 0;
  observe();
});

afterEach(() => {
  observer.dispose();
  vi.useRealTimers();
  window.getSelection()?.removeAllRanges();
  document.body.innerHTML = "";
});

describe("observeSelectionActions", () => {
  it("opens 500 ms after a primary release, anchored at the release point", () => {
    dragSelect(7, 11, 120, 30);
    vi.advanceTimersByTime(499);
    expect(opened).toHaveLength(0);
    vi.advanceTimersByTime(1);
    expect(opened).toHaveLength(1);
    expect(opened[0]!.anchor).toEqual({ x: 120, y: 30 });
    expect(opened[0]!.range.toString()).toBe("some");
    expect(observer.isOpen).toBe(true);
  });

  it("lets a double or triple click finish before opening", () => {
    const paragraph = surface.querySelector("p")!;
    pointer("pointerdown", paragraph, 10, 10);
    pointer("pointerup", paragraph, 10, 10);
    vi.advanceTimersByTime(300);
    // The second click of a double click lands inside the window and cancels the pending open.
    pointer("pointerdown", paragraph, 10, 10);
    selectText(text, 7, 11);
    vi.advanceTimersByTime(400);
    expect(opened).toHaveLength(0);
    pointer("pointerup", paragraph, 11, 11);
    vi.advanceTimersByTime(300);
    pointer("pointerdown", paragraph, 12, 12);
    selectText(text, 0, text.data.length);
    pointer("pointerup", paragraph, 12, 12);
    vi.advanceTimersByTime(499);
    expect(opened).toHaveLength(0);
    vi.advanceTimersByTime(1);
    expect(opened).toHaveLength(1);
    expect(opened[0]!.anchor).toEqual({ x: 12, y: 12 });
    expect(opened[0]!.range.toString()).toBe("Select some words here.");
  });

  it("does not open for a gesture that started outside the surface", () => {
    pointer("pointerdown", outside, 1, 1);
    selectText(text, 0, 6);
    pointer("pointerup", surface.querySelector("p")!, 30, 10);
    vi.advanceTimersByTime(1000);
    expect(opened).toHaveLength(0);
  });

  it("does not open for a non-primary release, a collapsed selection or one leaving the surface", () => {
    const paragraph = surface.querySelector("p")!;
    pointer("pointerdown", paragraph, 1, 1, 2);
    selectText(text, 0, 6);
    pointer("pointerup", paragraph, 1, 1, 2);
    vi.advanceTimersByTime(1000);
    pointer("pointerdown", paragraph);
    selectText(text, 3, 3);
    pointer("pointerup", paragraph);
    vi.advanceTimersByTime(1000);
    pointer("pointerdown", paragraph);
    window.getSelection()!.setBaseAndExtent(text, 0, outside.querySelector("p")!.firstChild!, 4);
    pointer("pointerup", paragraph);
    vi.advanceTimersByTime(1000);
    expect(opened).toHaveLength(0);
  });

  it("dismisses on Escape, on a press outside and on scrolling", () => {
    dragSelect(0, 6);
    vi.advanceTimersByTime(500);
    key("keydown", document.body, { key: "Escape" });
    expect(dismissed).toBe(1);
    expect(observer.isOpen).toBe(false);

    dragSelect(0, 6);
    vi.advanceTimersByTime(500);
    pointer("pointerdown", outside);
    expect(dismissed).toBe(2);

    dragSelect(0, 6);
    vi.advanceTimersByTime(500);
    // Scroll events do not bubble: the observer must see an inner scroller's in the capture phase.
    document.getElementById("scroller")!.dispatchEvent(new Event("scroll"));
    expect(dismissed).toBe(3);
    expect(opened).toHaveLength(3);
  });

  it("cancels a pending open on Escape and on a press outside", () => {
    dragSelect(0, 6);
    vi.advanceTimersByTime(200);
    key("keydown", document.body, { key: "Escape" });
    vi.advanceTimersByTime(1000);
    dragSelect(0, 6);
    pointer("pointerdown", outside);
    vi.advanceTimersByTime(1000);
    expect(opened).toHaveLength(0);
    expect(dismissed).toBe(0);
  });

  it("ignores interaction with a registered toolbar element", () => {
    dragSelect(7, 11);
    vi.advanceTimersByTime(500);
    const button = toolbar.querySelector("button")!;
    pointer("pointerdown", button);
    // Even if the click moved the selection, nothing is replaced or reopened.
    selectText(text, 0, 3);
    pointer("pointerup", button);
    key("keydown", button, { key: "Enter" });
    key("keydown", button, { key: "ArrowRight", shiftKey: true });
    key("keyup", button, { key: "ArrowRight", shiftKey: true });
    button.dispatchEvent(new Event("scroll"));
    vi.advanceTimersByTime(2000);
    expect(dismissed).toBe(0);
    expect(opened).toHaveLength(1);
    expect(opened[0]!.range.toString()).toBe("some");
    expect(observer.isOpen).toBe(true);
  });

  it("a new press inside the surface dismisses and starts a new gesture", () => {
    dragSelect(7, 11);
    vi.advanceTimersByTime(500);
    dragSelect(12, 17, 70, 20);
    expect(dismissed).toBe(1);
    vi.advanceTimersByTime(500);
    expect(opened.map((o) => o.range.toString())).toEqual(["some", "words"]);
  });

  describe("with layout", () => {
    const original = Object.getOwnPropertyDescriptor(Range.prototype, "getClientRects");
    beforeEach(() => {
      // jsdom has no layout: give ranges one line box per call, ending at (200, 48).
      Object.defineProperty(Range.prototype, "getClientRects", {
        configurable: true,
        value: () => [new DOMRect(100, 30, 100, 18)],
      });
    });
    afterEach(() => {
      if (original) Object.defineProperty(Range.prototype, "getClientRects", original);
      else delete (Range.prototype as Partial<Range>).getClientRects;
    });

    it("opens for a keyboard selection, anchored at the end of the selected text", () => {
      selectText(text, 0, 6);
      key("keydown", document.body, { key: "ArrowRight", shiftKey: true });
      selectText(text, 0, 7);
      key("keyup", document.body, { key: "ArrowRight", shiftKey: true });
      vi.advanceTimersByTime(499);
      expect(opened).toHaveLength(0);
      vi.advanceTimersByTime(1);
      expect(opened[0]!.anchor).toEqual({ x: 200, y: 48 });
      // A plain arrow key collapses the selection and dismisses.
      key("keydown", document.body, { key: "ArrowLeft" });
      expect(dismissed).toBe(1);
      key("keyup", document.body, { key: "ArrowLeft" });
      vi.advanceTimersByTime(1000);
      expect(opened).toHaveLength(1);
    });

    it("opens for select-all and for Shift released before the arrow", () => {
      key("keydown", document.body, { key: "a", ctrlKey: true });
      selectText(text, 0, text.data.length);
      key("keyup", document.body, { key: "Control" });
      vi.advanceTimersByTime(500);
      expect(opened).toHaveLength(1);
      key("keydown", document.body, { key: "End", shiftKey: true });
      key("keyup", document.body, { key: "Shift" });
      key("keyup", document.body, { key: "End" });
      vi.advanceTimersByTime(500);
      expect(opened).toHaveLength(2);
    });

    it("re-anchors a pending open on the text when the page scrolls", () => {
      dragSelect(0, 6, 5, 5);
      vi.advanceTimersByTime(100);
      window.dispatchEvent(new Event("scroll"));
      vi.advanceTimersByTime(400);
      expect(opened[0]!.anchor).toEqual({ x: 200, y: 48 });
    });
  });

  it("honours a custom repeat-click window and stops after dispose", () => {
    observer.dispose();
    observe(100);
    dragSelect(0, 6);
    vi.advanceTimersByTime(100);
    expect(opened).toHaveLength(1);
    observer.dispose();
    dragSelect(0, 6);
    vi.advanceTimersByTime(1000);
    key("keydown", document.body, { key: "Escape" });
    expect(opened).toHaveLength(1);
    expect(dismissed).toBe(0);
    // afterEach disposes again: dispose is idempotent.
  });

  it("dismiss() closes open actions once", () => {
    dragSelect(0, 6);
    vi.advanceTimersByTime(500);
    observer.dismiss();
    observer.dismiss();
    expect(dismissed).toBe(1);
  });
});
