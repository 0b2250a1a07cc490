/**
 * Writes that must happen but hit a storage fault (a turn's final state, the recovery of turns
 * a crash left running) wait here and are tried again every `intervalMs`, in order, until
 * storage accepts them. Nothing else waits: requests meanwhile get 503 and reads keep working.
 */
import type { Logger } from "../logger.ts";
import { isStorageFault } from "../storage/storageErrors.ts";
import { type Clock, type ClockTimer, realClock } from "./clock.ts";

export class StorageRetry {
  readonly #intervalMs: number;
  readonly #jobs: (() => Promise<void>)[] = [];
  #timer: ClockTimer | undefined;
  #idle: (() => void)[] = [];
  #retrying: Promise<void> | null = null;

  readonly #logger: Logger | undefined;

  readonly #clock: Clock;

  constructor(intervalMs: number, logger?: Logger, clock: Clock = realClock) {
    this.#intervalMs = intervalMs;
    this.#logger = logger;
    this.#clock = clock;
  }

  /** Runs `job` now; on a storage fault, keeps it for later. Other errors are thrown. */
  async run(job: () => Promise<void>): Promise<void> {
    if (this.#jobs.length > 0) {
      // Keep order: a later write must not land before an earlier one still waiting.
      this.#jobs.push(job);
      return;
    }
    try {
      await job();
    } catch (error) {
      if (!isStorageFault(error)) throw error;
      this.#jobs.push(job);
      this.#logger?.warn("Storage unavailable: a write waits and is retried.");
      this.#schedule();
    }
  }

  /** Number of writes waiting for storage. */
  get waiting(): number {
    return this.#jobs.length;
  }

  /** Resolves once no write is waiting. */
  whenDrained(): Promise<void> {
    if (this.#jobs.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.#idle.push(resolve));
  }

  /** Tries the waiting writes now (tests; also the timer). */
  retryNow(): Promise<void> {
    this.#retrying ??= this.#retry().finally(() => {
      this.#retrying = null;
    });
    return this.#retrying;
  }

  async #retry(): Promise<void> {
    this.#clock.clearTimeout(this.#timer);
    this.#timer = undefined;
    while (this.#jobs.length > 0) {
      try {
        await this.#jobs[0]!();
      } catch (error) {
        if (!isStorageFault(error)) {
          this.#logger?.error("A deferred write failed and was dropped:", error);
        } else {
          this.#schedule();
          return;
        }
      }
      this.#jobs.shift();
    }
    for (const resolve of this.#idle.splice(0)) resolve();
  }

  /** Stops retrying (shutdown); waiting writes are dropped, recovery redoes them next start. */
  close(): void {
    this.#clock.clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#jobs.length = 0;
    for (const resolve of this.#idle.splice(0)) resolve();
  }

  #schedule(): void {
    if (this.#timer !== undefined) return;
    this.#timer = this.#clock.setTimeout(() => void this.retryNow(), this.#intervalMs);
    this.#timer.unref();
  }
}
