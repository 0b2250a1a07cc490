import { describe, expect, it } from "vitest";
import { ManualClock } from "./manualClock.ts";

describe("ManualClock", () => {
  it("runs nothing until advanced, then each due timer in order of due time, with now() at its due time", () => {
    const clock = new ManualClock(1_000);
    const ran: [string, number][] = [];
    clock.setTimeout(() => ran.push(["b", clock.now()]), 20);
    clock.setTimeout(() => ran.push(["a", clock.now()]), 10);
    clock.setTimeout(() => ran.push(["a2", clock.now()]), 10);
    clock.setTimeout(() => ran.push(["late", clock.now()]), 31);
    expect(ran).toEqual([]);
    clock.advance(9);
    expect(ran).toEqual([]);
    clock.advance(21);
    expect(ran).toEqual([
      ["a", 1_010],
      ["a2", 1_010],
      ["b", 1_020],
    ]);
    expect(clock.now()).toBe(1_030);
    expect(clock.pending).toBe(1);
  });

  it("repeats intervals, runs timers set by a callback within the same advance, and clears", () => {
    const clock = new ManualClock(0);
    const ran: string[] = [];
    const tick = clock.setInterval(() => ran.push(`tick@${clock.now()}`), 10);
    clock.setTimeout(() => {
      ran.push(`outer@${clock.now()}`);
      clock.setTimeout(() => ran.push(`inner@${clock.now()}`), 5);
    }, 12);
    const cleared = clock.setTimeout(() => ran.push("never"), 1);
    clock.clearTimeout(cleared);
    clock.advance(25);
    expect(ran).toEqual(["tick@10", "outer@12", "inner@17", "tick@20"]);
    clock.clearInterval(tick);
    clock.advance(100);
    expect(ran).toHaveLength(4);
    expect(clock.pending).toBe(0);
  });

  it("reads a negative or NaN delay as 0 and refuses to go back", () => {
    const clock = new ManualClock(0);
    let runs = 0;
    clock.setTimeout(() => runs++, -5);
    clock.setTimeout(() => runs++, Number.NaN);
    clock.advance(0);
    expect(runs).toBe(2);
    expect(() => clock.advance(-1)).toThrow(RangeError);
  });
});
