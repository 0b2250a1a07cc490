import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  IDLE_NAVIGATION,
  isNavigating,
  isRevealing,
  NAVIGATION_WARNINGS,
  type NavigationEvent,
  type NavigationState,
  navigationReducer,
  navigationWarning,
} from "./navigationMachine.ts";

const run = (events: NavigationEvent[], from: NavigationState = IDLE_NAVIGATION) =>
  events.reduce(navigationReducer, from);

const activate = (loaded: boolean, activationId = "a1"): NavigationEvent => ({
  type: "activate",
  activationId,
  messageId: "m1",
  loaded,
});

describe("navigationReducer", () => {
  it("positions a loaded source at once, then reveals and settles", () => {
    let state = run([activate(true)]);
    expect(state).toEqual({
      phase: "positioning",
      activationId: "a1",
      messageId: "m1",
      fetched: false,
    });
    expect(isNavigating(state)).toBe(true);
    state = run([{ type: "positioned", activationId: "a1" }], state);
    expect(state.phase).toBe("revealing");
    expect(isRevealing(state)).toBe(true);
    state = run([{ type: "revealed", activationId: "a1", warning: null }], state);
    expect(state).toMatchObject({ phase: "settled", warning: null });
    expect(isNavigating(state)).toBe(false);
    expect(isRevealing(state)).toBe(true);
    expect(navigationWarning(state)).toBeNull();
  });

  it("fetches one window for a source that is not loaded, then positions it", () => {
    let state = run([activate(false)]);
    expect(state.phase).toBe("fetching");
    state = run([{ type: "fetched", activationId: "a1", outcome: "loaded" }], state);
    expect(state).toMatchObject({ phase: "positioning", fetched: true });
  });

  it("says the message is no longer in this thread only when the server says so", () => {
    const missing = run([
      activate(false),
      { type: "fetched", activationId: "a1", outcome: "missing" },
    ]);
    expect(navigationWarning(missing)).toBe(NAVIGATION_WARNINGS.missing);
    const failed = run([
      activate(false),
      { type: "fetched", activationId: "a1", outcome: "failed" },
    ]);
    expect(failed.phase).toBe("failed");
    expect(navigationWarning(failed)).toBe(NAVIGATION_WARNINGS.historyFailed);
  });

  it("retries a failed request", () => {
    const state = run([
      activate(false),
      { type: "fetched", activationId: "a1", outcome: "failed" },
      { type: "retry", activationId: "a1" },
    ]);
    expect(state.phase).toBe("fetching");
    expect(navigationWarning(state)).toBeNull();
    expect(run([{ type: "fetched", activationId: "a1", outcome: "loaded" }], state).phase).toBe(
      "positioning",
    );
  });

  it("passes on the highlighter's warnings (changed, ambiguous, not shown)", () => {
    for (const warning of [
      NAVIGATION_WARNINGS.changed,
      NAVIGATION_WARNINGS.ambiguous,
      NAVIGATION_WARNINGS.notShown,
    ]) {
      const state = run([
        activate(true),
        { type: "positioned", activationId: "a1" },
        { type: "revealed", activationId: "a1", warning },
      ]);
      expect(navigationWarning(state)).toBe(warning);
      expect(isRevealing(state)).toBe(false);
    }
  });

  it("ignores events of an earlier activation", () => {
    const state = run([activate(false, "a1"), activate(false, "a2")]);
    expect(run([{ type: "fetched", activationId: "a1", outcome: "missing" }], state)).toBe(state);
    expect(run([{ type: "cancel", activationId: "a1" }], state)).toBe(state);
  });

  it("cancels a pending navigation, but not a settled one", () => {
    expect(run([activate(false), { type: "cancel", activationId: "a1" }]).phase).toBe("cancelled");
    const settled = run([
      activate(true),
      { type: "positioned", activationId: "a1" },
      { type: "revealed", activationId: "a1", warning: null },
    ]);
    expect(run([{ type: "cancel", activationId: "a1" }], settled)).toBe(settled);
  });

  it("a repeated activate of the same activation changes nothing; reset returns to idle", () => {
    const state = run([activate(false)]);
    expect(run([activate(true)], state)).toBe(state);
    expect(run([{ type: "reset" }], state)).toBe(IDLE_NAVIGATION);
    expect(run([{ type: "reset" }])).toBe(IDLE_NAVIGATION);
  });

  it("never warns that the message is gone unless the fetch answered missing (property)", () => {
    const eventArb: fc.Arbitrary<NavigationEvent> = fc.oneof(
      fc.record({
        type: fc.constant("activate" as const),
        activationId: fc.constantFrom("a1", "a2"),
        messageId: fc.constant("m1"),
        loaded: fc.boolean(),
      }),
      fc.record({
        type: fc.constant("fetched" as const),
        activationId: fc.constantFrom("a1", "a2"),
        outcome: fc.constantFrom("loaded" as const, "failed" as const),
      }),
      fc.record({ type: fc.constant("retry" as const), activationId: fc.constantFrom("a1", "a2") }),
      fc.record({
        type: fc.constant("positioned" as const),
        activationId: fc.constantFrom("a1", "a2"),
      }),
      fc.record({
        type: fc.constant("revealed" as const),
        activationId: fc.constantFrom("a1", "a2"),
        warning: fc.constantFrom(null, NAVIGATION_WARNINGS.changed),
      }),
      fc.record({
        type: fc.constant("cancel" as const),
        activationId: fc.constantFrom("a1", "a2"),
      }),
      fc.constant({ type: "reset" as const }),
    );
    fc.assert(
      fc.property(fc.array(eventArb, { maxLength: 30 }), (events) => {
        let state: NavigationState = IDLE_NAVIGATION;
        for (const event of events) {
          state = navigationReducer(state, event);
          expect(navigationWarning(state)).not.toBe(NAVIGATION_WARNINGS.missing);
          // Only one state at a time: never navigating and settled at once.
          if (isNavigating(state)) expect(navigationWarning(state)).toBeNull();
        }
      }),
    );
  });
});
