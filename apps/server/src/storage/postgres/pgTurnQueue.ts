/**
 * The turn queue in PostgreSQL (part of `pgQueries.ts`): leases live in the turn's row, so any
 * process sharing the database sees them, and claims on one thread take turns under an
 * advisory lock held to the end of the transaction.
 */
import type { ChatQueries, QueueHead } from "../chatStore.ts";
import { TURN_COLUMNS, type TurnRow, toTurn } from "../rows.ts";
import { LOCK_NAMESPACE } from "./migrations.ts";
import { type PgContext, UNFINISHED } from "./pgRun.ts";

const TURN_QUEUE_LOCKS = 2;

export type PgTurnQueue = Pick<
  ChatQueries,
  | "lockTurnQueue"
  | "queueHead"
  | "claimTurn"
  | "releaseTurn"
  | "renewLease"
  | "holdsTurn"
  | "lockTurn"
  | "threadsAwaitingTurns"
>;

export function pgTurnQueue(ctx: PgContext): PgTurnQueue {
  return {
    async lockTurnQueue(threadId: string): Promise<void> {
      // Held until the transaction ends: claims on one thread's queue take turns.
      await ctx.run(
        "lockTurnQueue",
        "SELECT pg_advisory_xact_lock($1::int4 + $2::int4, hashtext($3))",
        [LOCK_NAMESPACE, TURN_QUEUE_LOCKS, threadId],
      );
    },

    async queueHead(threadId: string): Promise<QueueHead | null> {
      const [row] = await ctx.rows<TurnRow & { lease_owner: string | null; expired: boolean }>(
        "queueHead",
        `SELECT ${TURN_COLUMNS}, lease_owner, lease_expires_at < clock_timestamp() AS expired
         FROM turns WHERE thread_id = $1 AND ${UNFINISHED} ORDER BY prompt_seq LIMIT 1
         FOR UPDATE`,
        [threadId],
      );
      if (!row) return null;
      const state = row.lease_owner === null ? "queued" : row.expired ? "expired" : "leased";
      return { turn: toTurn(row), state };
    },

    async claimTurn(turnId: string, owner: string, leaseMs: number): Promise<string> {
      const [row] = await ctx.rows<{ provider_input: string }>(
        "claimTurn",
        `UPDATE turns SET lease_owner = $1,
           lease_expires_at = clock_timestamp() + $2::int * interval '1 millisecond'
         WHERE id = $3 RETURNING provider_input`,
        [owner, Math.round(leaseMs), turnId],
      );
      return row!.provider_input;
    },

    async releaseTurn(turnId: string, owner: string): Promise<void> {
      await ctx.run(
        "releaseTurn",
        `UPDATE turns SET lease_owner = NULL, lease_expires_at = NULL
         WHERE id = $1 AND lease_owner = $2 AND ${UNFINISHED}`,
        [turnId, owner],
      );
    },

    async renewLease(turnId: string, owner: string, leaseMs: number): Promise<boolean> {
      const result = await ctx.run(
        "renewLease",
        `UPDATE turns SET lease_expires_at = clock_timestamp() + $1::int * interval '1 millisecond'
         WHERE id = $2 AND lease_owner = $3 AND ${UNFINISHED}`,
        [Math.round(leaseMs), turnId, owner],
      );
      return result.rowCount === 1;
    },

    async holdsTurn(turnId: string, owner: string): Promise<boolean> {
      const [row] = await ctx.rows<{ held: boolean }>(
        "holdsTurn",
        `SELECT lease_owner = $2 AND lease_expires_at >= clock_timestamp() AS held
         FROM turns WHERE id = $1 AND ${UNFINISHED} FOR UPDATE`,
        [turnId, owner],
      );
      return row?.held === true;
    },

    async lockTurn(turnId: string): Promise<void> {
      await ctx.run("lockTurn", "SELECT 1 FROM turns WHERE id = $1 FOR UPDATE", [turnId]);
    },

    async threadsAwaitingTurns(): Promise<string[]> {
      const rows = await ctx.rows<{ thread_id: string }>(
        "threadsAwaitingTurns",
        `SELECT DISTINCT thread_id FROM turns
         WHERE ${UNFINISHED} AND (lease_expires_at IS NULL OR lease_expires_at < clock_timestamp())`,
        [],
      );
      return rows.map((row) => row.thread_id);
    },
  };
}
