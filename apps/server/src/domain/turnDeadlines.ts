import { type Clock, type ClockTimer, realClock } from "./clock.ts";

/**
 * The two clocks of a running turn: the idle deadline (no output from the provider for
 * `idleMs`) and the turn deadline (`turnMs` in all). Both stand still while the turn waits for
 * the user's answer, which can take as long as the user likes.
 */
export class TurnDeadlines {
  readonly #idleMs: number;
  readonly #onExpire: (which: "idle" | "turn") => void;
  #turnLeft: number;
  #turnStartedAt = 0;
  #idleTimer: ClockTimer | undefined;
  #turnTimer: ClockTimer | undefined;
  readonly #clock: Clock;
  #running = false;

  constructor(options: {
    idleMs: number;
    turnMs: number;
    onExpire: (which: "idle" | "turn") => void;
    /** Default {@link realClock}. */
    clock?: Clock;
  }) {
    this.#clock = options.clock ?? realClock;
    this.#idleMs = options.idleMs;
    this.#turnLeft = options.turnMs;
    this.#onExpire = options.onExpire;
  }

  /** Starts (or resumes) both clocks; the idle clock starts from zero. */
  start(): void {
    if (this.#running) return;
    this.#running = true;
    this.#turnStartedAt = this.#clock.now();
    this.#turnTimer = this.#clock.setTimeout(() => this.#expire("turn"), this.#turnLeft);
    this.touch();
  }

  /** The provider did something: the idle clock starts again. */
  touch(): void {
    if (!this.#running) return;
    this.#clock.clearTimeout(this.#idleTimer);
    this.#idleTimer = this.#clock.setTimeout(() => this.#expire("idle"), this.#idleMs);
  }

  /** Stops both clocks, keeping what is left of the turn's time. */
  pause(): void {
    if (!this.#running) return;
    this.#running = false;
    this.#turnLeft = Math.max(0, this.#turnLeft - (this.#clock.now() - this.#turnStartedAt));
    this.#clock.clearTimeout(this.#idleTimer);
    this.#clock.clearTimeout(this.#turnTimer);
  }

  stop(): void {
    this.pause();
  }

  #expire(which: "idle" | "turn"): void {
    if (!this.#running) return;
    this.stop();
    this.#onExpire(which);
  }
}
