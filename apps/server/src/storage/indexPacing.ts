/**
 * When the background search indexer renders (`searchIndexer.ts`, issue 33). Rendering a reply's
 * search text costs more CPU than storing the turn that wrote it (about 1.3 ms for a demo
 * answer, against about 0.6 ms of event loop for the whole turn), so while turns arrive faster
 * than the cores can serve both, rendering as each one commits takes the cores the turns need.
 *
 * The indexer therefore renders at once while the event loop has room, and while it is busy
 * (more than half of the last {@link PROBE_MS}) at most one batch per {@link MAX_WAIT_MS}, so
 * it still progresses under a load that never ends; what waits is indexed once the load drops.
 * A search never waits for that: it asks the indexer for the whole queue first (`flushed`),
 * so it still finds every message committed before it.
 *
 * Only for a store this process alone writes (SQLite), on a machine of at most
 * {@link SHARED_CORES} cores: on a shared PostgreSQL database another process's search cannot
 * ask this one to hurry, and with more cores the worker renders on one the turns do not need,
 * so there every message is indexed at once.
 */

import { availableParallelism } from "node:os";
import { performance } from "node:perf_hooks";

/** The share of the event loop above which rendering waits. */
export const BUSY_UTILIZATION = 0.5;
/** How often a waiting indexer looks again (and the window the share is measured over). */
export const PROBE_MS = 50;
/** The longest a round waits after the last batch while the event loop stays busy. */
export const MAX_WAIT_MS = 1_000;

export interface IndexPacing {
  /** True when a round should wait now rather than render (and look again in {@link PROBE_MS}). */
  shouldWait(): boolean;
  /** A batch was written. */
  progressed(): void;
}

/** Never waits: the indexer renders as each message commits. */
export const renderAtOnce: IndexPacing = { shouldWait: () => false, progressed() {} };

type Utilization = ReturnType<typeof performance.eventLoopUtilization>;

export interface EventLoopPacingOptions {
  now?: () => number;
  /** `performance.eventLoopUtilization` (tests give their own). */
  utilization?: (current?: Utilization, previous?: Utilization) => Utilization;
}

/** Waits while this thread's event loop is busy, as described above. */
export function eventLoopPacing({
  now = () => performance.now(),
  utilization = (current, previous) => performance.eventLoopUtilization(current, previous),
}: EventLoopPacingOptions = {}): IndexPacing {
  let lastProgress = Number.NEGATIVE_INFINITY;
  let mark = utilization();
  let markAt = now();
  let busy = false;
  return {
    shouldWait() {
      const at = now();
      if (at - lastProgress >= MAX_WAIT_MS) return false;
      // A verdict holds for one window: a share over a millisecond or two says nothing.
      if (at - markAt >= PROBE_MS) {
        const current = utilization();
        busy = utilization(current, mark).utilization > BUSY_UTILIZATION;
        mark = current;
        markAt = at;
      }
      return busy;
    },
    progressed() {
      lastProgress = now();
    },
  };
}

/**
 * The pacing of a store's indexer: at once on a database other processes share, and where the
 * worker has a core of its own beside the event loop (more than {@link SHARED_CORES}); paced
 * where it competes with the event loop for one.
 */
export function pacingFor(shared: boolean, cores = availableParallelism()): IndexPacing {
  return shared || cores > SHARED_CORES ? renderAtOnce : eventLoopPacing();
}

/**
 * Up to this many cores the worker shares them with the event loop, the HTTP clients' and the
 * garbage collector's threads (measured on 2: issue 33); beyond, it renders beside them.
 */
export const SHARED_CORES = 2;
