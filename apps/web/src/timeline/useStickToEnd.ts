/**
 * Keeps the timeline at its end while it follows a growing reply, as a safety net under Legend
 * List's own `maintainScrollAtEnd`.
 *
 * Why our own: on a busy machine (several chunks landing between two layouts) Legend List
 * sometimes misses one content-size change and then never follows again, leaving the reader
 * looking at a reply that grows out of view (seen in e2e/citationInput.spec.ts under load).
 * This hook watches the content's size itself: when it grows while the view was at the end
 * (within the same threshold Legend List uses), and following is allowed, it scrolls to the end.
 * The timeline enables it only while a turn is running: other growth (a fold opening, an older
 * page) is Legend List's alone to place.
 */
import { type RefObject, useEffect, useRef } from "react";

/** Fraction of the viewport's height that still counts as "at the end" (Legend List's). */
export const STICK_THRESHOLD = 0.1;

/** Whether `scroller` is within the threshold of its end. */
export function isNearEnd(scroller: Element, threshold = STICK_THRESHOLD): boolean {
  const distance = scroller.scrollHeight - scroller.scrollTop - scroller.clientHeight;
  return distance <= threshold * scroller.clientHeight;
}

/**
 * While `follow` is true, keeps the view at the end when the content under `rootRef` (the
 * element matching `contentSelector`) grows. `getScroller` returns the scrolling element.
 */
export function useStickToEnd(
  rootRef: RefObject<Element | null>,
  getScroller: () => Element | null,
  contentSelector: string,
  follow: boolean,
): void {
  const followRef = useRef(follow);
  followRef.current = follow;
  const latestScroller = useRef(getScroller);
  latestScroller.current = getScroller;

  useEffect(() => {
    const root = rootRef.current;
    if (root === null || typeof ResizeObserver === "undefined") return;
    // Whether the view was at the end before the content changed: scroll events and our own
    // checks keep it current (a content change fires no scroll event).
    let wasNearEnd = true;
    const onScroll = (event: Event) => {
      const scroller = latestScroller.current();
      if (scroller !== null && event.target === scroller) wasNearEnd = isNearEnd(scroller);
    };
    let observed: Element | null = null;
    const observer = new ResizeObserver(() => {
      const scroller = latestScroller.current();
      if (scroller === null) return;
      if (followRef.current && wasNearEnd && !isNearEnd(scroller, 0)) {
        scroller.scrollTop = scroller.scrollHeight - scroller.clientHeight;
      }
      wasNearEnd = isNearEnd(scroller);
    });
    const attach = () => {
      const content = root.querySelector(contentSelector);
      if (content === observed) return;
      if (observed !== null) observer.unobserve(observed);
      observed = content;
      if (content !== null) observer.observe(content);
    };
    attach();
    // The list may mount its content container after us, or replace it (a new placement).
    const mutations = new MutationObserver(attach);
    mutations.observe(root, { childList: true, subtree: false });
    root.addEventListener("scroll", onScroll, { capture: true, passive: true });
    return () => {
      observer.disconnect();
      mutations.disconnect();
      root.removeEventListener("scroll", onScroll, { capture: true });
    };
  }, [rootRef, contentSelector]);
}
