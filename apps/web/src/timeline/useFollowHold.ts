/**
 * Whether the timeline must stop following a streaming reply because the reader is selecting
 * text in it. Following moves the text under a held pointer (a drag would select other words)
 * and scrolls a held selection away.
 *
 * The hold starts when a pointer goes down in the timeline, a selection appears in it, or a
 * citation jump takes the reader elsewhere (`hold()`). It
 * ends when the reader scrolls back to the end (with no button held) or sends (`release()`),
 * not merely when the selection goes away: the reader has left the end, and following would
 * jump the view.
 */
import { type RefObject, useCallback, useEffect, useRef, useState } from "react";

/** How close to the end (CSS px) counts as "at the end". */
const AT_END = 2;

function selectionTouches(root: Element): boolean {
  const selection = root.ownerDocument.getSelection();
  if (selection === null || selection.isCollapsed || selection.rangeCount === 0) return false;
  return selection.getRangeAt(0).intersectsNode(root);
}

/** See the module doc. `getScroller` returns the timeline's scrolling element. */
export function useFollowHold(
  rootRef: RefObject<Element | null>,
  getScroller: () => Element | null,
): { held: boolean; release(): void; hold(): void } {
  const [held, setHeld] = useState(false);
  const heldRef = useRef(false);
  const pointerDown = useRef(false);
  const latestScroller = useRef(getScroller);
  latestScroller.current = getScroller;

  const set = useCallback((next: boolean) => {
    if (heldRef.current === next) return;
    heldRef.current = next;
    setHeld(next);
  }, []);

  useEffect(() => {
    const root = rootRef.current;
    if (root === null) return;
    const document = root.ownerDocument;
    const onPointerDown = (event: PointerEvent) => {
      if (event.target instanceof Node && root.contains(event.target)) {
        pointerDown.current = true;
        set(true);
      }
    };
    const atEnd = () => {
      const scroller = latestScroller.current();
      return (
        scroller !== null &&
        scroller.scrollHeight - scroller.scrollTop - scroller.clientHeight <= AT_END
      );
    };
    const onPointerUp = () => {
      if (!pointerDown.current) return;
      pointerDown.current = false;
      // A click or a scrollbar drag that leaves the view at the end, with nothing selected,
      // holds nothing.
      if (atEnd() && !selectionTouches(root)) set(false);
    };
    const onSelectionChange = () => {
      if (selectionTouches(root)) set(true);
    };
    const onScroll = (event: Event) => {
      if (!heldRef.current || pointerDown.current) return;
      if (event.target === latestScroller.current() && atEnd()) set(false);
    };
    document.addEventListener("pointerdown", onPointerDown, true);
    document.addEventListener("pointerup", onPointerUp, true);
    document.addEventListener("pointercancel", onPointerUp, true);
    document.addEventListener("selectionchange", onSelectionChange);
    root.addEventListener("scroll", onScroll, { capture: true, passive: true });
    return () => {
      document.removeEventListener("pointerdown", onPointerDown, true);
      document.removeEventListener("pointerup", onPointerUp, true);
      document.removeEventListener("pointercancel", onPointerUp, true);
      document.removeEventListener("selectionchange", onSelectionChange);
      root.removeEventListener("scroll", onScroll, { capture: true });
    };
  }, [rootRef, set]);

  const release = useCallback(() => set(false), [set]);
  const hold = useCallback(() => set(true), [set]);
  return { held, release, hold };
}
