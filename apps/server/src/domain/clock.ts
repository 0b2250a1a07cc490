/**
 * The clock the turn path's timers go through (issue 34): the writer's periodic flush, the lease
 * renewals and the claim sweep, the turn deadlines, the storage retry and the shutdown grace,
 * and the deleted threads' undo window (the stamp, the purge timer and the sweep).
 * Production uses {@link realClock} (Node's timers, `Date.now`); a test gives the services a
 * `ManualClock` (`testing/manualClock.ts`) through their options and advances it instead of
 * sleeping. Shaped like TanStack Query's `timeoutManager`, but passed in, not swapped globally.
 */

/** A pending timer; `unref()` lets the process exit while it waits (a no-op on a manual clock). */
export interface ClockTimer {
  unref(): unknown;
}

export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  setTimeout(callback: () => void, ms: number): ClockTimer;
  clearTimeout(timer: ClockTimer | undefined): void;
  setInterval(callback: () => void, ms: number): ClockTimer;
  clearInterval(timer: ClockTimer | undefined): void;
}

/** Node's timers and `Date.now`: the default everywhere. */
export const realClock: Clock = {
  now: () => Date.now(),
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (timer) => clearTimeout(timer as NodeJS.Timeout | undefined),
  setInterval: (callback, ms) => setInterval(callback, ms),
  clearInterval: (timer) => clearInterval(timer as NodeJS.Timeout | undefined),
};
