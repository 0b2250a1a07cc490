import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  AWAY_FROM_END_PX,
  distanceFromEnd,
  type FollowEvent,
  followDecision,
  followReducer,
  initialFollowState,
  isAtEnd,
  isOutOfBox,
  scrollTopToPlace,
  showsJumpToLatest,
} from "./followPolicy.ts";

const QUIET = { positioning: false, turnFolding: false, messageFolding: false, reachedEnd: true };

const eventArb: fc.Arbitrary<FollowEvent> = fc.oneof(
  fc.constant({ type: "press" as const }),
  fc.record({
    type: fc.constant("release" as const),
    atEnd: fc.boolean(),
    selecting: fc.boolean(),
  }),
  fc.constant({ type: "select" as const }),
  fc.constant({ type: "scroll-away" as const }),
  fc.record({
    type: fc.constant("scrolled" as const),
    atEnd: fc.boolean(),
    movedUp: fc.boolean(),
    byReader: fc.boolean(),
  }),
  fc.constant({ type: "fold" as const }),
  fc.constant({ type: "hold" as const }),
  fc.constant({ type: "follow" as const }),
);

describe("followReducer", () => {
  it("opens following the end, unless the session opens at a placed message", () => {
    expect(initialFollowState(false).following).toBe(true);
    expect(initialFollowState(true).following).toBe(false);
  });

  it("a press stops following for the whole gesture, whatever scrolls meanwhile", () => {
    let state = followReducer(initialFollowState(false), { type: "press" });
    expect(state).toEqual({ following: false, pressed: true });
    state = followReducer(state, { type: "scrolled", atEnd: true });
    expect(followDecision(state, QUIET).pinToEnd).toBe(false);
    // Released at the end with nothing selected: a plain click, following goes on.
    expect(followReducer(state, { type: "release", atEnd: true, selecting: false }).following).toBe(
      true,
    );
    // Released with words selected, or away from the end: following stays off.
    expect(followReducer(state, { type: "release", atEnd: true, selecting: true }).following).toBe(
      false,
    );
    expect(
      followReducer(state, { type: "release", atEnd: false, selecting: false }).following,
    ).toBe(false);
  });

  it("a scroll up and away from the end stops following, whatever input made it", () => {
    const following = initialFollowState(false);
    expect(
      followReducer(following, { type: "scrolled", atEnd: false, movedUp: true }).following,
    ).toBe(false);
    // Growth below (the view did not move up) and rows above shrinking (still at the end) do not.
    expect(followReducer(following, { type: "scrolled", atEnd: false, movedUp: false })).toBe(
      following,
    );
    expect(followReducer(following, { type: "scrolled", atEnd: true, movedUp: true })).toBe(
      following,
    );
  });

  it("only the reader's own return to the end, a send or Jump to latest resumes following", () => {
    for (const stop of ["select", "scroll-away", "fold", "hold"] as const) {
      const stopped = followReducer(initialFollowState(false), { type: stop });
      expect(stopped.following).toBe(false);
      expect(
        followReducer(stopped, { type: "scrolled", atEnd: false, byReader: true }).following,
      ).toBe(false);
      expect(
        followReducer(stopped, { type: "scrolled", atEnd: true, byReader: true }).following,
      ).toBe(true);
      // Brought to the end by anything but the reader (a tool scrolling a button into view, the
      // list settling): following stays off, so nothing pins the rows under the next click.
      expect(followReducer(stopped, { type: "scrolled", atEnd: true }).following).toBe(false);
      expect(
        followReducer(stopped, { type: "scrolled", atEnd: true, byReader: false }).following,
      ).toBe(false);
      expect(followReducer(stopped, { type: "follow" }).following).toBe(true);
    }
  });

  it("property: following never pins while pressed, and follow always pins in a quiet list", () => {
    fc.assert(
      fc.property(fc.array(eventArb, { maxLength: 30 }), fc.boolean(), (events, placed) => {
        let state = initialFollowState(placed);
        for (const event of events) {
          const next = followReducer(state, event);
          if (next.pressed) expect(followDecision(next, QUIET).pinToEnd).toBe(false);
          // Unchanged states are returned as they are (no needless renders).
          if (next.following === state.following && next.pressed === state.pressed) {
            expect(next).toBe(state);
          }
          state = next;
        }
        const followed = followReducer(state, { type: "follow" });
        expect(followDecision(followed, QUIET).pinToEnd).toBe(true);
      }),
    );
  });
});

describe("followDecision", () => {
  it("pins nothing while positioning, folding or showing a detached window", () => {
    const following = initialFollowState(false);
    // Pinned to the end, nothing else anchors the view (a second anchor overshot the end).
    expect(followDecision(following, QUIET)).toEqual({ pinToEnd: true, keepVisibleContent: false });
    expect(followDecision(following, { ...QUIET, positioning: true })).toEqual({
      pinToEnd: false,
      keepVisibleContent: false,
    });
    expect(followDecision(following, { ...QUIET, turnFolding: true })).toEqual({
      pinToEnd: false,
      keepVisibleContent: true,
    });
    expect(followDecision(following, { ...QUIET, messageFolding: true })).toEqual({
      pinToEnd: false,
      keepVisibleContent: false,
    });
    expect(followDecision(following, { ...QUIET, reachedEnd: false }).pinToEnd).toBe(false);
  });

  it("keeps the rows in view still exactly when nothing pins the end (outside placing and folding)", () => {
    fc.assert(
      fc.property(
        fc.record({ following: fc.boolean(), pressed: fc.boolean() }),
        fc.record({
          positioning: fc.boolean(),
          turnFolding: fc.boolean(),
          messageFolding: fc.boolean(),
          reachedEnd: fc.boolean(),
        }),
        (state, context) => {
          const decision = followDecision(state, context);
          expect(decision.pinToEnd && decision.keepVisibleContent).toBe(false);
          if (!context.positioning && !context.messageFolding) {
            expect(decision.keepVisibleContent).toBe(!decision.pinToEnd);
          }
        },
      ),
    );
    const held = followReducer(initialFollowState(false), { type: "press" });
    expect(followDecision(held, QUIET)).toEqual({ pinToEnd: false, keepVisibleContent: true });
  });
});

describe("geometry", () => {
  it("measures the distance to the end and the end itself", () => {
    const metrics = { scrollTop: 598, scrollHeight: 1000, clientHeight: 400 };
    expect(distanceFromEnd(metrics)).toBe(2);
    expect(isAtEnd(metrics)).toBe(true);
    expect(isAtEnd(metrics, 0)).toBe(false);
    expect(distanceFromEnd({ ...metrics, scrollTop: 700 })).toBe(0);
  });

  it("shows Jump to latest for a detached window, or away from the end", () => {
    const at = (distance: number) => ({
      scrollTop: 600 - distance,
      scrollHeight: 1000,
      clientHeight: 400,
    });
    expect(showsJumpToLatest(true, at(0))).toBe(true);
    expect(showsJumpToLatest(false, null)).toBe(false);
    expect(showsJumpToLatest(false, at(AWAY_FROM_END_PX))).toBe(false);
    expect(showsJumpToLatest(false, at(AWAY_FROM_END_PX + 1))).toBe(true);
  });

  it("places a target at a view position, clamped to the scrollable extent", () => {
    const metrics = { scrollTop: 1000, scrollHeight: 5000, clientHeight: 600 };
    const box = { top: 100, height: 600 };
    // A 60 px row at 400 on screen, wanted at the top: 300 px further down.
    expect(scrollTopToPlace(metrics, box, { top: 400, height: 60 }, 0)).toBe(1300);
    // Wanted at the bottom: its bottom edge at the box's bottom.
    expect(scrollTopToPlace(metrics, box, { top: 400, height: 60 }, 1)).toBe(1000 + 400 - 640);
    expect(scrollTopToPlace(metrics, box, { top: -5000, height: 60 }, 0)).toBe(0);
    expect(scrollTopToPlace(metrics, box, { top: 9000, height: 60 }, 0)).toBe(4400);
  });

  it("property: a placed target lands at its view position whenever the extent allows", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 4000 }),
        fc.integer({ min: -3000, max: 3000 }),
        fc.integer({ min: 0, max: 500 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (scrollTop, targetTop, height, viewPosition) => {
          const metrics = { scrollTop, scrollHeight: 100_000, clientHeight: 600 };
          const box = { top: 50, height: 600 };
          const top = scrollTopToPlace(metrics, box, { top: targetTop, height }, viewPosition);
          if (top === 0) return;
          const landed = targetTop - (top - scrollTop);
          const wanted = box.top + viewPosition * Math.max(0, box.height - height);
          expect(landed).toBeCloseTo(wanted, 6);
        },
      ),
    );
  });

  it("tells a target out of the box from one partly in it", () => {
    const box = { top: 100, height: 600 };
    expect(isOutOfBox(box, { top: 40, height: 60 })).toBe(true);
    expect(isOutOfBox(box, { top: 41, height: 60 })).toBe(false);
    expect(isOutOfBox(box, { top: 699, height: 60 })).toBe(false);
    expect(isOutOfBox(box, { top: 700, height: 60 })).toBe(true);
  });
});
