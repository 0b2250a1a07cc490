import { describe, expect, it } from "vitest";
import { ManualClock } from "../testing/manualClock.ts";
import { TurnDeadlines } from "./turnDeadlines.ts";

function deadlines(clock: ManualClock) {
  const expired: ["idle" | "turn", number][] = [];
  const d = new TurnDeadlines({
    idleMs: 100,
    turnMs: 250,
    onExpire: (which) => expired.push([which, clock.now()]),
    clock,
  });
  return { d, expired };
}

describe("TurnDeadlines on a manual clock", () => {
  it("expires idle after idleMs without activity; activity starts the idle clock again", () => {
    const clock = new ManualClock(0);
    const { d, expired } = deadlines(clock);
    d.start();
    clock.advance(99);
    d.touch();
    clock.advance(99);
    expect(expired).toEqual([]);
    clock.advance(1);
    expect(expired).toEqual([["idle", 199]]);
    // Expired once: both clocks stopped.
    clock.advance(1_000);
    expect(expired).toHaveLength(1);
  });

  it("expires the turn after turnMs of running time, not counting time paused", () => {
    const clock = new ManualClock(0);
    const { d, expired } = deadlines(clock);
    d.start();
    clock.advance(80);
    d.touch();
    clock.advance(70);
    // Waiting for the user: neither clock runs.
    d.pause();
    clock.advance(10_000);
    expect(expired).toEqual([]);
    // 150 of 250 ms used: the turn has 100 left, and the idle clock starts from zero.
    d.start();
    clock.advance(60);
    d.touch();
    clock.advance(39);
    expect(expired).toEqual([]);
    clock.advance(1);
    expect(expired).toEqual([["turn", 10_250]]);
  });
});
