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
  /** When the provider last did something (the idle clock's start). */
  #lastActivity = 0;
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
    this.#lastActivity = this.#turnStartedAt;
    this.#armIdle(this.#idleMs);
  }

  /**
   * The provider did something: the idle clock starts again. Called for every chunk, so it only
   * notes the time; the one idle timer, when it fires, waits again for what is left.
   */
  touch(): void {
    if (this.#running) this.#lastActivity = this.#clock.now();
  }

  #armIdle(ms: number): void {
    this.#idleTimer = this.#clock.setTimeout(() => {
      const left = this.#lastActivity + this.#idleMs - this.#clock.now();
      if (left > 0) this.#armIdle(left);
      else this.#expire("idle");
    }, ms);
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
