/**
 * The per-thread turn queue, kept in the database so any number of processes can share it.
 *
 * A turn is stored `running` with no lease: it is queued. To run a thread's next turn, a process
 * takes the thread's queue lock in a transaction (`lockTurnQueue`: an advisory lock in
 * PostgreSQL, the write lock in SQLite), looks at the oldest unfinished turn and, if nobody holds
 * a live lease on it, leases it to itself. Only the oldest unfinished turn is ever claimed, so
 * turns of one thread run one at a time and in order, whichever process stored them.
 *
 * The process renews its lease every third of `leaseMs` while the turn runs. A lease that
 * expires means its process died: the next claim on that thread (after a new turn, or the
 * periodic sweep) ends that turn `failed` (interrupted) and moves on. Only a claimed turn is
 * ever interrupted: turns behind it stay queued and run in order, after a crash or a
 * shutdown alike (shutdown stops claiming first and gives back a claim it made meanwhile).
 */
import { randomUUID } from "node:crypto";
import type { Turn } from "@app/protocol";
import type { ChatStore } from "../storage/chatStore.ts";
import { isStorageFault } from "../storage/storageErrors.ts";
import { type Clock, type ClockTimer, realClock } from "./clock.ts";
import type { EventTx, ThreadEventLog } from "./events.ts";

export interface TurnQueueOptions {
  store: ChatStore;
  events: ThreadEventLog;
  leaseMs: number;
  /** Runs the lease renewals and the sweep (default {@link realClock}). */
  clock?: Clock;
  /** Runs a claimed turn; resolves when it has ended. */
  run(threadId: string, turnId: string, input: string): Promise<void>;
  /** Inside the claim's transaction: ends a turn whose lease expired. */
  interrupt(w: EventTx, turn: Turn): Promise<void>;
}

export class TurnQueue {
  /** This process's lease owner id. */
  readonly owner = randomUUID();
  readonly #o: TurnQueueOptions;
  readonly #jobs = new Set<Promise<void>>();
  readonly #clock: Clock;
  #sweeper: ClockTimer | undefined;
  /** False until turns left by a previous process are recovered, and after shutdown. */
  #claiming = false;
  /**
   * Threads with a claim or a turn in progress here, and whether they were pumped meanwhile: a
   * pump then claims once that ends (which pumps anyway), instead of a claim transaction that
   * can only find the head leased (issue 33: that was one transaction in five of a turn).
   */
  readonly #busy = new Map<string, { pumped: boolean }>();

  constructor(options: TurnQueueOptions) {
    this.#o = options;
    this.#clock = options.clock ?? realClock;
  }

  /** Runs the thread's next turn here if it is free to run (never throws). */
  pump(threadId: string): void {
    if (!this.#claiming) return;
    const busy = this.#busy.get(threadId);
    if (busy) {
      busy.pumped = true;
      return;
    }
    this.#busy.set(threadId, { pumped: false });
    const job: Promise<void> = this.#claimAndRun(threadId)
      .catch((error: unknown) => {
        // A fault leaves the turn queued; the sweep tries again.
        if (!isStorageFault(error)) console.error(`Turn queue of thread ${threadId}:`, error);
      })
      .finally(() => {
        // Pumped while busy: claim again (added before this job leaves, for whenIdle).
        const pumped = this.#busy.get(threadId)?.pumped === true;
        this.#busy.delete(threadId);
        if (pumped) this.pump(threadId);
        this.#jobs.delete(job);
      });
    this.#jobs.add(job);
  }

  /** Resolves when no claim or turn of this process is in progress. */
  async whenIdle(): Promise<void> {
    while (this.#jobs.size > 0) await Promise.all([...this.#jobs]);
  }

  /**
   * Renews the lease on a running turn until the returned function is called. `onLost` runs
   * when the turn has ended elsewhere or the lease went to another process.
   */
  holdLease(turnId: string, onLost: () => void): () => void {
    const timer = this.#clock.setInterval(() => {
      this.#o.store
        .transaction((tx) => tx.renewLease(turnId, this.owner, this.#o.leaseMs))
        .then(
          (held) => {
            if (!held) onLost();
          },
          (error: unknown) => {
            // Storage trouble is not a lost lease: keep the turn and try again.
            if (!isStorageFault(error)) console.error(`Lease of turn ${turnId}:`, error);
          },
        );
    }, this.#o.leaseMs / 3);
    timer.unref();
    return () => this.#clock.clearInterval(timer);
  }

  /**
   * Starts claiming (after recovery: a turn a previous process left must never be run again)
   * and, every `intervalMs`, claims the threads that have a queued turn nobody runs or an
   * expired lease (a process died, or a claim failed on a storage fault). Sweeps once at once.
   */
  startClaiming(intervalMs: number): void {
    this.#claiming = true;
    const sweep = () => {
      this.#o.store.threadsAwaitingTurns().then(
        (threadIds) => {
          for (const threadId of threadIds) this.pump(threadId);
        },
        (error: unknown) => {
          if (!isStorageFault(error)) console.error("Turn sweep:", error);
        },
      );
    };
    sweep();
    this.#sweeper = this.#clock.setInterval(sweep, intervalMs);
    this.#sweeper.unref();
  }

  /** Claims nothing more (shutdown); turns in progress go on. */
  stopClaiming(): void {
    this.#claiming = false;
    this.#clock.clearInterval(this.#sweeper);
  }

  async #claimAndRun(threadId: string): Promise<void> {
    const claim = await this.#o.events.atomically(async (w) => {
      await w.tx.lockTurnQueue(threadId);
      for (;;) {
        const head = await w.tx.queueHead(threadId);
        if (head === null || head.state === "leased") return null;
        if (head.state === "expired") {
          await this.#o.interrupt(w, head.turn);
          continue;
        }
        const input = await w.tx.claimTurn(head.turn.id, this.owner, this.#o.leaseMs);
        return { turnId: head.turn.id, input };
      }
    });
    if (!claim) return;
    if (!this.#claiming) {
      // Shutdown began during the claim: the turn never started, so it stays queued for the
      // next start or another process (never failed, never interrupted).
      await this.#o.store.transaction((tx) => tx.releaseTurn(claim.turnId, this.owner));
      return;
    }
    await this.#o.run(threadId, claim.turnId, claim.input);
  }
}
