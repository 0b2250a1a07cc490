import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  observeSelectionActions,
  SELECTION_SETTLE_MS,
  type SelectionActionsObserver,
  type SelectionActionsOpen,
} from "./selectionActions.ts";

let surface: HTMLElement;
let outside: HTMLElement;
let toolbar: HTMLElement;
let text: Text;
let observer: SelectionActionsObserver;
let opened: (SelectionActionsOpen & { range: Range })[];
let dismissed: number;

function pointer(
  type: "pointerdown" | "pointerup",
  target: Element,
  x = 0,
  y = 0,
  button = 0,
  init: PointerEventInit = {},
) {
  target.dispatchEvent(
    new PointerEvent(type, {
      bubbles: true,
      cancelable: true,
      button,
      clientX: x,
      clientY: y,
      isPrimary: true,
      pointerType: "mouse",
      ...init,
    }),
  );
}

/** jsdom does not fire `selectionchange`; browsers do, after every selection change. */
function selectionChanged() {
  document.dispatchEvent(new Event("selectionchange"));
}

function key(type: "keydown" | "keyup", target: Element, init: KeyboardEventInit) {
  target.dispatchEvent(new KeyboardEvent(type, { bubbles: true, cancelable: true, ...init }));
}

function selectText(node: Text, start: number, end: number) {
  window.getSelection()!.setBaseAndExtent(node, start, node, end);
}

/** A drag inside the surface (press, move, release elsewhere) that leaves `text[start, end)` selected. */
function dragSelect(start: number, end: number, x = 40, y = 12) {
  const paragraph = surface.querySelector("p")!;
  pointer("pointerdown", paragraph, 5, 5);
  selectText(text, start, end);
  selectionChanged();
  pointer("pointerup", paragraph, x, y);
}

/** A click (press and release at one point) with the given click count. */
function click(x: number, detail: number) {
  const paragraph = surface.querySelector("p")!;
  paragraph.dispatchEvent(
    new PointerEvent("pointerdown", {
      bubbles: true,
      button: 0,
      clientX: x,
      clientY: x,
      detail,
      pointerType: "mouse",
      isPrimary: true,
    }),
  );
  return () =>
    paragraph.dispatchEvent(
      new PointerEvent("pointerup", {
        bubbles: true,
        button: 0,
        clientX: x,
        clientY: x,
        detail,
        pointerType: "mouse",
        isPrimary: true,
      }),
    );
}

function observe(repeatClickWindowMs?: number) {
  observer = observeSelectionActions({
    surface,
    onOpen: (range, open) => opened.push({ ...open, range }),
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
    "<div id='surface'><div id='scroller'><p>Select some words here.</p><button>Copy</button></div></div>" +
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
  it("opens at once after a drag, anchored at the release point", () => {
    dragSelect(7, 11, 120, 30);
    expect(opened).toHaveLength(1);
    expect(opened[0]!.anchor).toEqual({ x: 120, y: 30 });
    expect(opened[0]!.input).toBe("mouse");
    expect(opened[0]!.range.toString()).toBe("some");
    expect(observer.isOpen).toBe(true);
    // The browser's trailing selectionchange for the same range is no news.
    selectionChanged();
    vi.advanceTimersByTime(1000);
    expect(opened).toHaveLength(1);
  });

  it("lets a double click finish before opening; a triple click opens at once", () => {
    click(10, 1)();
    vi.advanceTimersByTime(300);
    // The second click of a double click lands inside the window and cancels the pending open.
    const release = click(10, 2);
    selectText(text, 7, 11);
    selectionChanged();
    release();
    selectionChanged();
    vi.advanceTimersByTime(499);
    expect(opened).toHaveLength(0);
    vi.advanceTimersByTime(1);
    expect(opened).toHaveLength(1);
    expect(opened[0]!.range.toString()).toBe("some");
    const releaseTriple = click(12, 3);
    selectText(text, 0, text.data.length);
    releaseTriple();
    expect(opened).toHaveLength(2);
    expect(opened[1]!.anchor).toEqual({ x: 12, y: 12 });
    expect(opened[1]!.range.toString()).toBe("Select some words here.");
  });

  it("does not open for a gesture that started outside the surface or on a control", () => {
    pointer("pointerdown", outside, 1, 1);
    selectText(text, 0, 6);
    selectionChanged();
    pointer("pointerup", surface.querySelector("p")!, 30, 10);
    vi.advanceTimersByTime(1000);
    // Pressing a button in the thread (a Copy button) keeps the selection but opens nothing.
    const button = surface.querySelector("button")!;
    pointer("pointerdown", button, 50, 50);
    pointer("pointerup", button, 50, 50);
    vi.advanceTimersByTime(1000);
    expect(opened).toHaveLength(0);
  });

  it("does not open for a non-primary release, a collapsed selection or one leaving the surface", () => {
    const paragraph = surface.querySelector("p")!;
    pointer("pointerdown", paragraph, 1, 1, 2);
    selectText(text, 0, 6);
    pointer("pointerup", paragraph, 30, 1, 2);
    vi.advanceTimersByTime(1000);
    pointer("pointerdown", paragraph);
    selectText(text, 3, 3);
    pointer("pointerup", paragraph, 30, 0);
    vi.advanceTimersByTime(1000);
    pointer("pointerdown", paragraph);
    window.getSelection()!.setBaseAndExtent(text, 0, outside.querySelector("p")!.firstChild!, 4);
    pointer("pointerup", paragraph, 30, 0);
    vi.advanceTimersByTime(1000);
    expect(opened).toHaveLength(0);
  });

  it("dismisses on Escape, on a press outside and when the selection collapses, not on scrolling", () => {
    dragSelect(0, 6);
    key("keydown", document.body, { key: "Escape" });
    expect(dismissed).toBe(1);
    expect(observer.isOpen).toBe(false);

    dragSelect(0, 6);
    pointer("pointerdown", outside);
    expect(dismissed).toBe(2);

    dragSelect(0, 6);
    document.getElementById("scroller")!.dispatchEvent(new Event("scroll"));
    expect(dismissed).toBe(2);
    window.getSelection()!.removeAllRanges();
    selectionChanged();
    expect(dismissed).toBe(3);
    expect(opened).toHaveLength(3);
  });

  it("cancels a pending click open on Escape and on a press outside", () => {
    click(5, 1)();
    selectText(text, 0, 6);
    vi.advanceTimersByTime(200);
    key("keydown", document.body, { key: "Escape" });
    vi.advanceTimersByTime(1000);
    click(5, 1)();
    pointer("pointerdown", outside);
    vi.advanceTimersByTime(1000);
    expect(opened).toHaveLength(0);
    expect(dismissed).toBe(0);
  });

  it("ignores interaction with a registered toolbar element, and selection changes while it has focus", () => {
    dragSelect(7, 11);
    const button = toolbar.querySelector("button")!;
    pointer("pointerdown", button);
    pointer("pointerup", button);
    key("keydown", button, { key: "Escape" });
    button.focus();
    selectText(text, 0, 3);
    selectionChanged();
    vi.advanceTimersByTime(2000);
    expect(dismissed).toBe(0);
    expect(opened).toHaveLength(1);
    expect(opened[0]!.range.toString()).toBe("some");
    expect(observer.isOpen).toBe(true);
  });

  it("without Pointer Events, a middle-button press and release during a left drag do not end it", () => {
    observer.dispose();
    vi.stubGlobal("PointerEvent", undefined);
    try {
      observe();
      const paragraph = surface.querySelector("p")!;
      const mouse = (type: "mousedown" | "mouseup", button: number, x: number, y: number) =>
        paragraph.dispatchEvent(
          new MouseEvent(type, { bubbles: true, cancelable: true, button, clientX: x, clientY: y }),
        );
      mouse("mousedown", 0, 5, 5);
      selectText(text, 0, 6);
      selectionChanged();
      // The middle button goes down and up while the left one is still held.
      mouse("mousedown", 1, 20, 8);
      mouse("mouseup", 1, 20, 8);
      expect(opened).toHaveLength(0);
      selectText(text, 0, 11);
      selectionChanged();
      // The left release ends the drag: actions open on its selection, at once.
      mouse("mouseup", 0, 40, 12);
      expect(opened).toHaveLength(1);
      expect(opened[0]!.range.toString()).toBe("Select some");
      expect(opened[0]!.anchor).toEqual({ x: 40, y: 12 });
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it("a new press inside the surface dismisses and starts a new gesture", () => {
    dragSelect(7, 11);
    dragSelect(12, 17, 70, 20);
    expect(dismissed).toBe(1);
    expect(opened.map((o) => o.range.toString())).toEqual(["some", "words"]);
  });

  it("opens for a keyboard, caret-browsing or scripted selection once it settles", () => {
    key("keydown", document.body, { key: "ArrowRight", shiftKey: true });
    selectText(text, 0, 6);
    selectionChanged();
    vi.advanceTimersByTime(SELECTION_SETTLE_MS - 1);
    selectText(text, 0, 7);
    selectionChanged();
    vi.advanceTimersByTime(SELECTION_SETTLE_MS - 1);
    expect(opened).toHaveLength(0);
    vi.advanceTimersByTime(1);
    expect(opened).toHaveLength(1);
    expect(opened[0]).toMatchObject({ anchor: null, input: "keyboard" });
    expect(opened[0]!.range.toString()).toBe("Select ");
    // Extending it re-opens on the new range without a dismiss in between.
    selectText(text, 0, 11);
    selectionChanged();
    vi.advanceTimersByTime(SELECTION_SETTLE_MS);
    expect(opened.map((o) => o.range.toString())).toEqual(["Select ", "Select some"]);
    expect(dismissed).toBe(0);
    // Collapsing it (a plain arrow key) closes.
    selectText(text, 3, 3);
    selectionChanged();
    expect(dismissed).toBe(1);
  });

  it("a touch selection (long-press, handles) opens through selectionchange, marked as touch", () => {
    pointer("pointerdown", surface.querySelector("p")!, 10, 10, 0, { pointerType: "touch" });
    selectText(text, 7, 11);
    selectionChanged();
    vi.advanceTimersByTime(SELECTION_SETTLE_MS);
    expect(opened).toHaveLength(1);
    expect(opened[0]).toMatchObject({ anchor: null, input: "touch" });
  });

  it("markOpen lets the usual rules close actions opened by other means", () => {
    selectText(text, 0, 6);
    observer.markOpen(window.getSelection()!.getRangeAt(0));
    expect(observer.isOpen).toBe(true);
    pointer("pointerdown", outside);
    expect(dismissed).toBe(1);
  });

  it("honours a custom repeat-click window and stops after dispose", () => {
    observer.dispose();
    observe(100);
    click(5, 1)();
    selectText(text, 0, 6);
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
    observer.dismiss();
    observer.dismiss();
    expect(dismissed).toBe(1);
  });
});
