/**
 * The timeline's one scroll policy (pure: no DOM, no React). It decides whether the view follows
 * the end of the thread, when following stops and starts again, and where a row or a range of
 * text goes when something asks to bring it into view. `useFollowPolicy.ts` feeds it the
 * reader's input; `Timeline.tsx` is the only module that applies its answers to the scroller
 * (see README.md: which modules may scroll, and why).
 *
 * Following is a mode, not a measurement: once on (the list opened at the end, the reader sent,
 * pressed Jump to latest, or scrolled back to the end) every growth of the content keeps the end
 * in view, however far a late layout (a table shown at the end of a stream, highlighted code, a
 * chunk landing between two frames on a busy machine) pushed it. Only the reader turns it off:
 * a press in the timeline, a selection in it, a scroll away from the end by wheel, touch or
 * keys, a fold toggled, or a citation jump.
 */

/** The scroller's extent, as read from the DOM. */
export type ScrollMetrics = { scrollTop: number; scrollHeight: number; clientHeight: number };

/** How close to the end (CSS px) counts as "at the end" for the reader's own scrolling. */
export const AT_END_PX = 2;

/** How far from the end (CSS px) the reader must be for **Jump to latest** to show. */
export const AWAY_FROM_END_PX = 48;

/** Distance (px) from the bottom of the view to the end of the content (never negative). */
export function distanceFromEnd(metrics: ScrollMetrics): number {
  return Math.max(0, metrics.scrollHeight - metrics.scrollTop - metrics.clientHeight);
}

/** True when the view shows the very end (within `tolerance` px). */
export function isAtEnd(metrics: ScrollMetrics, tolerance = AT_END_PX): boolean {
  return distanceFromEnd(metrics) <= tolerance;
}

/** The follow mode of one timeline session. */
export type FollowState = {
  /** The view keeps the end in view as the content grows. */
  following: boolean;
  /** A pointer is down in the timeline: nothing may move under it until it is released. */
  pressed: boolean;
};

/** What the reader (or the app on their behalf) did. */
export type FollowEvent =
  /** A pointer went down in the timeline (a press, a drag, a scrollbar grab). */
  | { type: "press" }
  /** The pointer was released; `atEnd` and `selecting` describe the view at that moment. */
  | { type: "release"; atEnd: boolean; selecting: boolean }
  /** A selection appeared in the timeline. */
  | { type: "select" }
  /** The reader scrolled by wheel, touch or keys towards older messages. */
  | { type: "scroll-away" }
  /**
   * The scroller moved; `atEnd` is where it is now, `movedUp` whether it moved towards older
   * messages (a scrollbar, keys on the page, assistive technology: input we do not see),
   * `byReader` whether the reader's own input moved it (a press held, or their wheel, key or
   * press a moment ago).
   */
  | { type: "scrolled"; atEnd: boolean; movedUp?: boolean; byReader?: boolean }
  /** A fold opened or closed under the reader (a turn's updates, a long message). */
  | { type: "fold" }
  /** A citation jump took the reader elsewhere. */
  | { type: "hold" }
  /** The reader sent, or pressed Jump to latest: back to the end, and follow. */
  | { type: "follow" };

/** A session opens following the end, unless it opens at a placed message. */
export function initialFollowState(placed: boolean): FollowState {
  return { following: !placed, pressed: false };
}

/** The next follow state. Returns `state` itself when nothing changes. */
export function followReducer(state: FollowState, event: FollowEvent): FollowState {
  switch (event.type) {
    case "press":
      return state.pressed && !state.following ? state : { following: false, pressed: true };
    case "release": {
      if (!state.pressed) return state;
      // A click or a scrollbar drag that leaves the view at the end, with nothing selected,
      // stops nothing.
      return { following: event.atEnd && !event.selecting, pressed: false };
    }
    case "select":
    case "scroll-away":
    case "fold":
    case "hold":
      return state.following ? { ...state, following: false } : state;
    case "scrolled":
      // Moved up and away from the end: the reader left it, whatever input they used. (Growth
      // at the end never moves the view up; rows above shrinking keep it at the end.)
      if (state.following && event.movedUp && !event.atEnd) return { ...state, following: false };
      // Back at the very end by the reader's own scrolling (never while a button is held). A
      // view brought there by anything else (a script or a tool scrolling a control into view,
      // the list settling) does not follow: pinned, it moved the rows under the next click.
      return event.atEnd && event.byReader === true && !state.following && !state.pressed
        ? { ...state, following: true }
        : state;
    case "follow":
      return state.following && !state.pressed ? state : { following: true, pressed: false };
  }
}

/** What else (besides the reader) may hold the view still. */
export type FollowContext = {
  /** A citation target is being placed: nothing else may move the view. */
  positioning: boolean;
  /** A turn's updates are being unfolded or folded: its rows are being measured. */
  turnFolding: boolean;
  /** A long message is opening or closing under the reader: it opens from where they are. */
  messageFolding: boolean;
  /** The newest message of the thread is loaded (not a detached window of older history). */
  reachedEnd: boolean;
};

/** How the list must behave now. */
export type FollowDecision = {
  /** Keep the end in view as the content or the view changes size. */
  pinToEnd: boolean;
  /**
   * Keep the rows in view still when rows above them change (older pages, measured sizes). Off
   * while `pinToEnd`: the end is the one anchor then.
   */
  keepVisibleContent: boolean;
};

/** The list's behaviour for a follow state in its context. */
export function followDecision(state: FollowState, context: FollowContext): FollowDecision {
  const pinToEnd =
    state.following &&
    !state.pressed &&
    !context.positioning &&
    !context.turnFolding &&
    !context.messageFolding &&
    context.reachedEnd;
  return {
    pinToEnd,
    // Never both: while the end is pinned, the list's own scroll to the end is in flight, and
    // keeping content still then adds the last row's growth to a scroll that already reached the
    // new end (Legend List's MVCP), overshooting it for one frame: the browser clamps it back and
    // every row jumps down when a reply ends (README "No second anchor while pinned").
    keepVisibleContent: !pinToEnd && !context.positioning && !context.messageFolding,
  };
}

/** True when **Jump to latest** applies: a detached window, or the reader away from the end. */
export function showsJumpToLatest(detached: boolean, metrics: ScrollMetrics | null): boolean {
  if (detached) return true;
  return metrics !== null && distanceFromEnd(metrics) > AWAY_FROM_END_PX;
}

/** A box's vertical extent on screen (a `DOMRect`'s top and height). */
export type VerticalBox = { top: number; height: number };

/**
 * The scrollTop that puts `target` (a row or a range of text, in viewport coordinates) at
 * `viewPosition` of the scroller's box (0 top, 1 bottom; the room left over is what moves),
 * clamped to the scrollable extent.
 */
export function scrollTopToPlace(
  metrics: ScrollMetrics,
  box: VerticalBox,
  target: VerticalBox,
  viewPosition: number,
): number {
  const wantedTop = box.top + viewPosition * Math.max(0, box.height - target.height);
  const top = metrics.scrollTop + target.top - wantedTop;
  const max = Math.max(0, metrics.scrollHeight - metrics.clientHeight);
  return Math.min(max, Math.max(0, top));
}

/**
 * The `scrollTop` that puts `target`'s top `offset` px below the top of `box` (negative: above
 * it), clamped to the scroll range. A restored place (Back, Forward) is a row and an offset.
 */
export function scrollTopToOffset(
  metrics: ScrollMetrics,
  box: VerticalBox,
  target: VerticalBox,
  offset: number,
): number {
  const top = metrics.scrollTop + target.top - box.top - offset;
  const max = Math.max(0, metrics.scrollHeight - metrics.clientHeight);
  return Math.min(max, Math.max(0, top));
}

/** True when all of `target` is inside `box` (to within half a pixel). */
export function isInsideBox(box: VerticalBox, target: VerticalBox): boolean {
  return target.top >= box.top - 0.5 && target.top + target.height <= box.top + box.height + 0.5;
}

/** True when no part of `target` is inside `box`. */
export function isOutOfBox(box: VerticalBox, target: VerticalBox): boolean {
  return target.top + target.height <= box.top || target.top >= box.top + box.height;
}
