/**
 * A press in the timeline holds the view where it is (followPolicy.ts: nothing may move under a
 * pressed pointer). The stick-to-end net and `maintainScrollAtEnd` stop at once, but Legend List
 * keeps scrolls to the end of its own that know nothing of a press: the opening
 * `initialScrollAtEnd` target, which it aims at the end again whenever the content grows while
 * the view is there, and a scroll to the end still in flight (which adds the last row's growth).
 * Either moved a chip 36 px up between the press and the release while a reply streamed, so the
 * click landed beside it and nothing opened. A request for another position cancels both
 * (Legend List 3.x), so a press asks for the position the view already has: nothing moves.
 */
import type { LegendListRef } from "@legendapp/list/react";
import { type RefObject, useLayoutEffect, useRef } from "react";
import type { FollowState } from "./followPolicy.ts";

/**
 * When a press ends following, pins Legend List to the scroller's current offset (see above).
 * Only then: Legend List scrolls to the end on its own only while the view follows. Also when
 * the content is not yet taller than the view: the opening target stays armed, and the first
 * growth past the view's height under the held pointer (a larger stored flush of a brand-new
 * thread's first reply) scrolled to the new end, moving the pressed words 128-152 px up.
 */
export function useHoldListOnPress(
  state: FollowState,
  listRef: RefObject<LegendListRef | null>,
  getScroller: () => HTMLElement | null,
): void {
  const previous = useRef(state);
  useLayoutEffect(() => {
    const wasFollowing = previous.current.following && !previous.current.pressed;
    previous.current = state;
    if (!state.pressed || !wasFollowing) return;
    const scroller = getScroller();
    const list = listRef.current;
    if (scroller === null || list === null) return;
    void list.scrollToOffset({ offset: scroller.scrollTop, animated: false });
  }, [state, listRef, getScroller]);
}
