/**
 * The turn queue in SQLite (part of `repository.ts`). One process owns a SQLite file, so leases
 * live in memory; a lease written into the turn's row would rewrite its provider input (up to
 * 120,000 characters) on every claim and renewal. A claim also leaves a row in turn_claims, so
 * the next start knows which turns had started (interrupted) and which are still queued.
 */
import { isTurnRunning } from "@app/protocol";
import type { QueueHead, SyncQueries } from "./chatStore.ts";
import type { SqliteDatabase } from "./db.ts";

export type SqliteTurnQueue = Pick<
  SyncQueries,
  | "lockTurnQueue"
  | "queueHead"
  | "claimTurn"
  | "releaseTurn"
  | "renewLease"
  | "holdsTurn"
  | "lockTurn"
  | "threadsAwaitingTurns"
>;

export function sqliteTurnQueue(
  db: SqliteDatabase,
  turns: Pick<SyncQueries, "activeTurn" | "getTurn">,
): SqliteTurnQueue {
  const s = (sql: string) => db.prepare(sql);
  const stmt = {
    turnInput: s("SELECT provider_input FROM turns WHERE id = ?"),
    insertClaim: s("INSERT INTO turn_claims (turn_id) VALUES (?) ON CONFLICT DO NOTHING"),
    deleteClaim: s("DELETE FROM turn_claims WHERE turn_id = ?"),
    unfinishedTurnIds: s(
      `SELECT id, thread_id FROM turns WHERE status IN ('running', 'waiting_for_input')`,
    ),
  };
  /** Leases of running turns. */
  const leases = new Map<string, { owner: string; expiresAt: number }>();

  return {
    /** Serializes claims on a thread's queue until the transaction ends (a no-op in SQLite). */
    lockTurnQueue(_threadId: string): void {},

    /** The thread's oldest unfinished turn and its lease state, or null when none is left. */
    queueHead(threadId: string): QueueHead | null {
      const turn = turns.activeTurn(threadId);
      if (!turn) return null;
      const lease = leases.get(turn.id);
      const state = !lease ? "queued" : lease.expiresAt < Date.now() ? "expired" : "leased";
      return { turn, state };
    },

    /** Leases a turn to `owner` for `leaseMs`; returns its provider input. */
    claimTurn(turnId: string, owner: string, leaseMs: number): string {
      stmt.insertClaim.run(turnId);
      leases.set(turnId, { owner, expiresAt: Date.now() + leaseMs });
      return (stmt.turnInput.get(turnId) as { provider_input: string }).provider_input;
    },

    /** Gives back `owner`'s claim on a turn that never ran (shutdown): it is queued again. */
    releaseTurn(turnId: string, owner: string): void {
      if (leases.get(turnId)?.owner !== owner) return;
      leases.delete(turnId);
      stmt.deleteClaim.run(turnId);
    },

    /** Extends `owner`'s lease; false when the turn has ended or is no longer its own. */
    renewLease(turnId: string, owner: string, leaseMs: number): boolean {
      const lease = leases.get(turnId);
      const turn = turns.getTurn(turnId);
      if (!isTurnRunning(turn)) {
        leases.delete(turnId);
        return false;
      }
      if (lease?.owner !== owner) return false;
      lease.expiresAt = Date.now() + leaseMs;
      return true;
    },

    /** True when `owner` holds a live lease on the unfinished turn. */
    holdsTurn(turnId: string, owner: string): boolean {
      const lease = leases.get(turnId);
      if (lease?.owner !== owner || lease.expiresAt < Date.now()) return false;
      const turn = turns.getTurn(turnId);
      return isTurnRunning(turn);
    },

    /** Nothing to lock: SQLite's write transactions run one at a time. */
    lockTurn(_turnId: string): void {},

    /** Threads with an unfinished turn that nobody holds a live lease on (queued or abandoned). */
    threadsAwaitingTurns(): string[] {
      const now = Date.now();
      const threads = new Set<string>();
      for (const row of stmt.unfinishedTurnIds.all() as { id: string; thread_id: string }[]) {
        const lease = leases.get(row.id);
        if (!lease || lease.expiresAt < now) threads.add(row.thread_id);
      }
      return [...threads];
    },
  };
}
