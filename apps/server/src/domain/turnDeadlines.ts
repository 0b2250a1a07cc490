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
  #idleTimer: NodeJS.Timeout | undefined;
  #turnTimer: NodeJS.Timeout | undefined;
  #running = false;

  constructor(options: {
    idleMs: number;
    turnMs: number;
    onExpire: (which: "idle" | "turn") => void;
  }) {
    this.#idleMs = options.idleMs;
    this.#turnLeft = options.turnMs;
    this.#onExpire = options.onExpire;
  }

  /** Starts (or resumes) both clocks; the idle clock starts from zero. */
  start(): void {
    if (this.#running) return;
    this.#running = true;
    this.#turnStartedAt = Date.now();
    this.#turnTimer = setTimeout(() => this.#expire("turn"), this.#turnLeft);
    this.touch();
  }

  /** The provider did something: the idle clock starts again. */
  touch(): void {
    if (!this.#running) return;
    clearTimeout(this.#idleTimer);
    this.#idleTimer = setTimeout(() => this.#expire("idle"), this.#idleMs);
  }

  /** Stops both clocks, keeping what is left of the turn's time. */
  pause(): void {
    if (!this.#running) return;
    this.#running = false;
    this.#turnLeft = Math.max(0, this.#turnLeft - (Date.now() - this.#turnStartedAt));
    clearTimeout(this.#idleTimer);
    clearTimeout(this.#turnTimer);
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
