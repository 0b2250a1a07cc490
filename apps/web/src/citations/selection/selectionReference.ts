/**
 * What a selection popover (the toolbar, the "cannot cite" hint) is placed beside: a Floating UI
 * virtual element that follows the selected text as the page scrolls. Needs a live DOM range.
 *
 * Vertically the reference always spans the whole selected text, from its first line's top to
 * its last line's bottom: the popover goes below the last line, or, flipped, above the first
 * one, never over selected lines (flipped above the last line only, it covered the lines before
 * it when a drag was released low in the view, over the composer). Horizontally:
 *
 * - Mouse: the release point's x clamped into the last line of the selected text (from the
 *   selection's rectangles), moved with the text as it scrolls (a triple click's release lies
 *   mid-paragraph; a drag released outside the thread still places it by the text).
 * - Keyboard (and script): the end of the selected text (its end point's caret box; a range's
 *   last client rect may belong to another row, as rows are not in visual order).
 * - Touch: the whole selected text, so a popover below it leaves the space above, where the
 *   native selection menu appears, free.
 */
import type { VirtualElement } from "@floating-ui/dom";
import type { SelectionActionsOpen } from "./selectionActions.ts";

/** Height of the box around a mouse release point: about one line of text. */
const POINTER_LINE = 20;

/**
 * A virtual reference for a selection; whether its text is gone from the page; where the
 * selected text is (whether the popover is on screen is judged from it, never from the release
 * point); and the text column it belongs to (the answer's body), which the popover stays inside.
 */
export type SelectionReference = VirtualElement & {
  isGone(): boolean;
  textBox(): { x: number; y: number; width: number; height: number };
  column(): Element | null;
  /** The boxes of the selected words (lines of text), which the popover must not cover. */
  words(): { x: number; y: number; width: number; height: number }[];
};

const EMPTY = { x: 0, y: 0, width: 0, height: 0 };

function boundsOf(range: Range): { x: number; y: number; width: number; height: number } {
  if (typeof range.getBoundingClientRect !== "function") return EMPTY;
  const box = range.getBoundingClientRect();
  return { x: box.x, y: box.y, width: box.width, height: box.height };
}

/** Where the selected text ends on screen: a caret-sized box at the range's end point. */
function endOf(range: Range) {
  if (typeof range.cloneRange === "function" && typeof range.getBoundingClientRect === "function") {
    const end = range.cloneRange();
    end.collapse(false);
    const box = end.getBoundingClientRect();
    if (box.height > 0) return { x: box.x, y: box.y, width: 0, height: box.height };
  }
  return lastLineOf(range);
}

function lastLineOf(range: Range) {
  const rects = typeof range.getClientRects === "function" ? [...range.getClientRects()] : [];
  for (let i = rects.length - 1; i >= 0; i--) {
    const rect = rects[i]!;
    if (rect.width > 0 || rect.height > 0)
      return { x: rect.right, y: rect.y, width: 0, height: rect.height };
  }
  return boundsOf(range);
}

/** The top of the selected text: the highest of its non-empty rectangles (null: none). */
function firstTextTop(range: Range): number | null {
  const rects = typeof range.getClientRects === "function" ? [...range.getClientRects()] : [];
  let top: number | null = null;
  for (const rect of rects) {
    if (rect.width < 1 || rect.height < 1) continue;
    if (top === null || rect.top < top) top = rect.top;
  }
  return top;
}

/** `box` stretched upwards to `top` (the first line of the selected text), when that is higher. */
function fromTop(box: { x: number; y: number; width: number; height: number }, top: number | null) {
  if (top === null || top >= box.y) return box;
  return { ...box, y: top, height: box.y + box.height - top };
}

/**
 * The selection's last line of text: of its non-empty rectangles, the lowest; among those
 * ending there, the shortest (a fully selected block also reports its whole box).
 */
function lastTextLine(range: Range) {
  const rects = typeof range.getClientRects === "function" ? [...range.getClientRects()] : [];
  let line: DOMRect | null = null;
  for (const rect of rects) {
    if (rect.width < 1 || rect.height < 1) continue;
    if (
      line === null ||
      rect.bottom > line.bottom + 1 ||
      (Math.abs(rect.bottom - line.bottom) <= 1 && rect.height < line.height)
    ) {
      line = rect;
    }
  }
  return line;
}

/**
 * The line boxes of the text a range selects: each text node's selected part, line by line
 * (a range's own rectangles also hold the whole boxes of fully selected elements, which are wider
 * than their words).
 */
function wordBoxes(range: Range): { x: number; y: number; width: number; height: number }[] {
  const root = range.commonAncestorContainer;
  const doc = root.ownerDocument;
  if (doc === null || typeof range.getClientRects !== "function") return [];
  const boxes: { x: number; y: number; width: number; height: number }[] = [];
  const part = doc.createRange();
  const add = (text: Text) => {
    const start = text === range.startContainer ? range.startOffset : 0;
    const end = text === range.endContainer ? range.endOffset : text.length;
    if (end <= start) return;
    part.setStart(text, start);
    part.setEnd(text, end);
    for (const line of part.getClientRects()) {
      if (line.width >= 1 && line.height >= 1) {
        boxes.push({ x: line.x, y: line.y, width: line.width, height: line.height });
      }
    }
  };
  if (root.nodeType === Node.TEXT_NODE) {
    add(root as Text);
    return boxes;
  }
  const walker = doc.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
    if (range.intersectsNode(node)) add(node as Text);
  }
  return boxes;
}

function rect({
  x,
  y,
  width,
  height,
}: {
  x: number;
  y: number;
  width: number;
  height: number;
}): DOMRect {
  return DOMRect.fromRect({ x, y, width, height });
}

/** The reference for a popover about `range`, opened as `open` says. */
export function selectionReference(range: Range, open: SelectionActionsOpen): SelectionReference {
  const container = range.commonAncestorContainer;
  const contextElement =
    container instanceof Element ? container : (container.parentElement ?? undefined);
  const isGone = () => range.collapsed || !range.startContainer.isConnected;
  const start = boundsOf(range);
  const anchor = open.anchor;
  const measure = () => {
    if (anchor !== null) {
      const now = boundsOf(range);
      const x = anchor.x + (now.x - start.x);
      const line = lastTextLine(range);
      if (line === null) {
        const y = anchor.y + (now.y - start.y);
        return { x, y: y - POINTER_LINE / 2, width: 0, height: POINTER_LINE };
      }
      const lastLine = {
        x: Math.min(Math.max(x, line.left), line.right),
        y: line.y,
        width: 0,
        height: line.height,
      };
      return fromTop(lastLine, firstTextTop(range));
    }
    return open.input === "touch" ? boundsOf(range) : fromTop(endOf(range), firstTextTop(range));
  };
  const columnElement = contextElement?.closest("[data-assistant-citation-source]") ?? null;
  return {
    ...(contextElement ? { contextElement } : {}),
    getBoundingClientRect: () => rect(measure()),
    isGone,
    textBox: () => boundsOf(range),
    column: () => (columnElement?.isConnected ? columnElement : null),
    words: () => (isGone() ? [] : wordBoxes(range)),
  };
}
