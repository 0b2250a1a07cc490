import { describe, expect, it, vi } from "vitest";
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

  it("a stream of activity keeps one idle timer, and idle expires idleMs after the last of it", () => {
    const clock = new ManualClock(0);
    const { d, expired } = deadlines(clock);
    d.start();
    const timers = clock.pending;
    const armed = vi.spyOn(clock, "setTimeout");
    // A chunk a millisecond for 240 ms: the turn clock (250) is the one to run out first.
    for (let ms = 0; ms < 240; ms++) {
      clock.advance(1);
      d.touch();
      expect(clock.pending).toBe(timers);
    }
    // Re-armed only when it fired (at 100 and 200), not once per chunk.
    expect(armed).toHaveBeenCalledTimes(2);
    expect(expired).toEqual([]);
    clock.advance(10);
    expect(expired).toEqual([["turn", 250]]);
  });

  it("activity just before the idle timer fires waits again for what is left, more than once", () => {
    const clock = new ManualClock(0);
    const d = new TurnDeadlines({
      idleMs: 100,
      turnMs: 10_000,
      onExpire: (which) => expired.push([which, clock.now()]),
      clock,
    });
    const expired: ["idle" | "turn", number][] = [];
    d.start();
    clock.advance(90);
    d.touch(); // idle now ends at 190
    clock.advance(95);
    d.touch(); // at 185: ends at 285
    clock.advance(99);
    expect(expired).toEqual([]);
    clock.advance(1);
    expect(expired).toEqual([["idle", 285]]);
  });
});
