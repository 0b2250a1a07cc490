/**
 * The lease guard on a running turn's writes (issue 29): a process that lost its lease (it
 * expired and another process ended the turn `interrupted`, or the turn was ended elsewhere)
 * creates and updates nothing for that turn. Each write checks the lease in its own
 * transaction ({@link ChatQueries.holdsTurn}), which on PostgreSQL locks the turn's row, so a
 * takeover either waits for the write (and then ends what it wrote) or the write sees it.
 */
import type { EventTx } from "./events.ts";

/** The turn is no longer this process's: the transaction rolls back, the turn is abandoned. */
export class TurnLeaseLost extends Error {
  override readonly name = "TurnLeaseLost";

  constructor(turnId: string) {
    super(`The lease on turn ${turnId} was lost; its writes are dropped.`);
  }
}

/** Throws {@link TurnLeaseLost} unless `owner` still holds the turn (call first in a write). */
export async function guardTurn(w: EventTx, turnId: string, owner: string): Promise<void> {
  if (!(await w.tx.holdsTurn(turnId, owner))) throw new TurnLeaseLost(turnId);
}
