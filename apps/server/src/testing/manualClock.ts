/**
 * A {@link Clock} that stands still until a test advances it (issue 34: tests without sleeps).
 * Give it to a service through its `clock` option; `advance(ms)` then runs every timer that falls
 * due on the way, in order of due time (timers due together: in the order they were set), with
 * `now()` at each timer's due time while it runs. Timers set by a callback run in the same
 * advance when they fall due within it. Callbacks run synchronously: work they start (a queued
 * write) runs once the test awaits something.
 */
import type { Clock, ClockTimer } from "../domain/clock.ts";

class ManualTimer implements ClockTimer {
  constructor(
    readonly callback: () => void,
    public due: number,
    public order: number,
    /** Interval period; null for a one-shot timer. */
    readonly every: number | null,
  ) {}

  unref(): this {
    return this;
  }
}

export class ManualClock implements Clock {
  #now: number;
  #order = 0;
  readonly #timers = new Set<ManualTimer>();

  /** Starts at `start` (ms since the epoch; a fixed date by default, so runs repeat). */
  constructor(start = Date.UTC(2026, 0, 1)) {
    this.#now = start;
  }

  now(): number {
    return this.#now;
  }

  setTimeout(callback: () => void, ms: number): ClockTimer {
    return this.#add(callback, ms, null);
  }

  setInterval(callback: () => void, ms: number): ClockTimer {
    return this.#add(callback, ms, Math.max(1, delay(ms)));
  }

  clearTimeout(timer: ClockTimer | undefined): void {
    if (timer instanceof ManualTimer) this.#timers.delete(timer);
  }

  clearInterval(timer: ClockTimer | undefined): void {
    this.clearTimeout(timer);
  }

  /** Timers waiting to run. */
  get pending(): number {
    return this.#timers.size;
  }

  /** Moves time forward by `ms`, running each timer that falls due on the way. */
  advance(ms: number): void {
    if (!(ms >= 0)) throw new RangeError(`advance: ms must be >= 0, got ${ms}.`);
    const end = this.#now + ms;
    for (let next = this.#next(end); next; next = this.#next(end)) {
      this.#now = next.due;
      if (next.every === null) {
        this.#timers.delete(next);
      } else {
        next.due += next.every;
        next.order = this.#order++;
      }
      next.callback();
    }
    this.#now = end;
  }

  #add(callback: () => void, ms: number, every: number | null): ManualTimer {
    const timer = new ManualTimer(callback, this.#now + delay(ms), this.#order++, every);
    this.#timers.add(timer);
    return timer;
  }

  #next(end: number): ManualTimer | undefined {
    let first: ManualTimer | undefined;
    for (const timer of this.#timers) {
      if (timer.due > end) continue;
      if (
        !first ||
        timer.due < first.due ||
        (timer.due === first.due && timer.order < first.order)
      ) {
        first = timer;
      }
    }
    return first;
  }
}

/** As Node reads a delay: anything not a number >= 0 (NaN, negative) is 0. */
function delay(ms: number): number {
  return Number.isNaN(ms) ? 0 : Math.max(ms, 0);
}
