/**
 * Keeps the timeline at its end while the follow policy pins it there (followPolicy.ts), under
 * Legend List's own `maintainScrollAtEnd`.
 *
 * Why our own: on a busy machine (several chunks landing between two layouts, a table shown only
 * once its reply is complete, code highlighted late in a freshly opened browser) Legend List
 * sometimes misses a content-size change, or lands short of the end, and then never follows
 * again. This hook watches the content's and the view's sizes itself: whenever either changes
 * while the policy pins the end, it scrolls to the end, however far the end moved. Whether to pin
 * is the policy's alone (a press, a selection, a fold or a jump turns it off at once).
 *
 * Sizes alone are not enough: the content's height is the list's own sum of the rows it
 * measured, so when the list misses a row's growth (the last lines and the Copy button of a
 * just-completed reply), the content keeps its old height while the row overflows it, and no
 * size we observe changes. So a change of the rows' DOM (text streamed in, a table or the
 * message actions rendered) also checks the end, once per frame, against the scroller's
 * `scrollHeight`, which counts that overflow.
 */
import { type RefObject, useEffect, useRef } from "react";
import { isAtEnd } from "./followPolicy.ts";

/**
 * While `shouldPin()` is true, keeps the view at the end when the content under `rootRef` (the
 * element matching `contentSelector`) or the scroller changes size. `getScroller` returns the
 * scrolling element; `onResize` runs after every check (to measure the view again).
 */
export function useStickToEnd(
  rootRef: RefObject<Element | null>,
  getScroller: () => Element | null,
  contentSelector: string,
  shouldPin: () => boolean,
  onResize?: () => void,
): void {
  const latest = useRef({ getScroller, shouldPin, onResize });
  latest.current = { getScroller, shouldPin, onResize };

  useEffect(() => {
    const root = rootRef.current;
    if (root === null || typeof ResizeObserver === "undefined") return;
    const pinIfNeeded = () => {
      const { getScroller: scrollerOf, shouldPin: pin, onResize: resized } = latest.current;
      const scroller = scrollerOf();
      if (scroller === null) return;
      if (pin() && !isAtEnd(scroller, 0)) {
        scroller.scrollTop = scroller.scrollHeight - scroller.clientHeight;
      }
      resized?.();
    };
    const observer = new ResizeObserver(pinIfNeeded);
    // Row DOM changes (a streamed chunk): one check at once, in the same task as the change, so
    // no frame (nor a script reading the page) sees the newest line below the view; and one in
    // the next frame, for what the list re-positions before painting.
    let frame: number | null = null;
    const rowsChanged = new MutationObserver(() => {
      const { getScroller: scrollerOf, shouldPin: pin } = latest.current;
      const scroller = scrollerOf();
      if (scroller !== null && pin() && !isAtEnd(scroller, 0)) {
        scroller.scrollTop = scroller.scrollHeight - scroller.clientHeight;
      }
      if (frame !== null) return;
      frame = requestAnimationFrame(() => {
        frame = null;
        pinIfNeeded();
      });
    });
    let observed: Element | null = null;
    let observedScroller: Element | null = null;
    const attach = () => {
      const content = root.querySelector(contentSelector);
      if (content !== observed) {
        if (observed !== null) observer.unobserve(observed);
        rowsChanged.disconnect();
        observed = content;
        if (content !== null) {
          observer.observe(content);
          rowsChanged.observe(content, { childList: true, subtree: true, characterData: true });
        }
      }
      const scroller = latest.current.getScroller();
      if (scroller !== observedScroller) {
        if (observedScroller !== null) observer.unobserve(observedScroller);
        observedScroller = scroller;
        if (scroller !== null) observer.observe(scroller);
      }
    };
    attach();
    // The list may mount its content container after us, or replace it (a new placement).
    const mutations = new MutationObserver(attach);
    mutations.observe(root, { childList: true, subtree: false });
    return () => {
      observer.disconnect();
      mutations.disconnect();
      rowsChanged.disconnect();
      if (frame !== null) cancelAnimationFrame(frame);
    };
  }, [rootRef, contentSelector]);
}
