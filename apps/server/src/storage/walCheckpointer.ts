/**
 * Checkpoints the SQLite WAL from a worker thread with its own connection, so the copy into
 * the database file and its fsync never block the event loop. Without it SQLite checkpoints
 * automatically inside whichever COMMIT pushes the WAL past 1,000 pages: that commit then waits
 * for an fsync of the database file, which on a busy disk is tens of milliseconds and was the
 * largest single cost of a turn under load (issue 12).
 *
 * The main connection keeps a raised `wal_autocheckpoint` as a safety net (see `db.ts`), so
 * the WAL stays bounded even if the worker cannot run. A checkpoint that fails (disk full, I/O
 * error) is simply tried again on the next tick; the main connection reports storage faults.
 */
import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";

/** How often the worker runs a PASSIVE checkpoint (cheap when the WAL has nothing new). */
export const CHECKPOINT_INTERVAL_MS = 250;

// Plain CommonJS so it runs the same from the sources (tsx) and from the esbuild bundle.
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const Database = require(workerData.driver);
let db = null;
function tick() {
  try {
    if (db === null) {
      db = new Database(workerData.file, { fileMustExist: true });
      db.pragma("busy_timeout = 0");
    }
    db.pragma("wal_checkpoint(PASSIVE)");
  } catch {
    // Tried again on the next tick (the main connection reports storage faults).
  }
}
const timer = setInterval(tick, workerData.intervalMs);
parentPort.on("message", () => {
  clearInterval(timer);
  try { db?.close(); } catch {}
  parentPort.close();
});
`;

export interface WalCheckpointer {
  /** Stops the worker and closes its connection (before the main connection closes). */
  close(): Promise<void>;
}

/** Starts checkpointing the WAL of the database file `file`. */
export function startWalCheckpointer(file: string): WalCheckpointer {
  const driver = createRequire(import.meta.url).resolve("better-sqlite3");
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { file, driver, intervalMs: CHECKPOINT_INTERVAL_MS },
  });
  worker.unref();
  // A worker that cannot start only loses the optimisation: autocheckpoint still bounds the WAL.
  worker.on("error", () => {});
  const exited = new Promise<void>((resolve) => worker.once("exit", () => resolve()));
  return {
    close: async () => {
      worker.postMessage("close");
      const timeout = setTimeout(() => void worker.terminate(), 2000);
      await exited;
      clearTimeout(timeout);
    },
  };
}
