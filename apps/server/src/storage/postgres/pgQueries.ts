/**
 * The PostgreSQL queries of the store contract (`../chatStore.ts`), run on a pool (outside
 * transactions) or on one client (inside one). Statements are named, so each connection
 * prepares them once. Only SQL lives here, one module per concern (`pgThreads.ts`,
 * `pgTurns.ts`, `pgTurnQueue.ts`, `pgMessages.ts`, `pgEvents.ts`, `pgCitationQueries.ts`,
 * `pgSearch.ts`);
 * paging windows, the history budget and the delta replay are `../storeLogic.ts`, shared with
 * SQLite.
 */
import type { ChatQueries } from "../chatStore.ts";
import { HistoryTextCache } from "./historyTexts.ts";
import { pgBulkTurnQueries } from "./pgBulkTurns.ts";
import { pgCitationQueries } from "./pgCitationQueries.ts";
import { pgCrossThreadSearch } from "./pgCrossThreadSearch.ts";
import { pgEventQueries } from "./pgEvents.ts";
import { pgHistoryQueries } from "./pgHistory.ts";
import { pgMessageQueries } from "./pgMessages.ts";
import { pgContext, type Run } from "./pgRun.ts";
import { pgSearchQueries, pgSearchQueue } from "./pgSearch.ts";
import { pgThreadLifecycleQueries } from "./pgThreadLifecycle.ts";
import { pgThreadQueries } from "./pgThreads.ts";
import { pgTurnQueue } from "./pgTurnQueue.ts";
import { pgTurnQueries } from "./pgTurns.ts";
import { pgVersionQueries } from "./pgVersions.ts";

export type { Run } from "./pgRun.ts";

/**
 * Every query of the contract over `run` (a pool, or one transaction's client); `historyTexts`
 * is the store's, shared by all its connections.
 */
export function createPgQueries(
  run: Run,
  environmentId: () => string,
  historyTexts: HistoryTextCache = new HistoryTextCache(),
): ChatQueries {
  const ctx = pgContext(run, environmentId);
  const { nextSeq, ...threads } = pgThreadQueries(ctx);
  const { placementOf, addVersion, ...versions } = pgVersionQueries(ctx);
  const { insertMessageRow, ...messages } = pgMessageQueries(ctx, nextSeq, {
    placementOf,
    addVersion,
  });
  return {
    ...threads,
    ...messages,
    ...versions,
    ...pgTurnQueries(ctx, nextSeq, insertMessageRow),
    ...pgHistoryQueries(ctx, historyTexts),
    ...pgTurnQueue(ctx),
    ...pgEventQueries(ctx),
    ...pgCitationQueries(ctx),
    ...pgSearchQueries(ctx),
    ...pgCrossThreadSearch(ctx),
    ...pgThreadLifecycleQueries(ctx),
    ...pgSearchQueue(ctx),
    ...pgBulkTurnQueries(ctx),
  };
}
