/**
 * A process killed with SIGKILL in the middle of indexing a long text in pieces (issue 33), for
 * `storage/searchIndexPieces.test.ts`: on the store `DATA_DIR` / `DATABASE_URL` name, it
 * finishes the streaming reply `a1` of thread `t` with `PIECE_CRASH_REPLY` (so it is queued), writes
 * the first two pieces of another text (`PIECE_CRASH_GHOST`) ahead, each committed in a
 * transaction of its own as the indexer does, then kills itself before the last one: the state a
 * crash between two of the indexer's transactions leaves.
 *
 * The test runs the run's bundle of it (`testBundles.ts`, `nodeEntry.ts`), or else:
 *
 *   node --import tsx src/testing/searchPieceCrash.ts
 */
import { readFileSync } from "node:fs";
import { openStore } from "../storage/openStore.ts";

const dataDir = process.env.DATA_DIR!;
const store = await openStore({
  databaseUrl: process.env.DATABASE_URL || null,
  pgPoolSize: 2,
  dataDir,
});
const reply = readFileSync(process.env.PIECE_CRASH_REPLY!, "utf8");
const ghost = readFileSync(process.env.PIECE_CRASH_GHOST!, "utf8");
await store.transaction((tx) => tx.finishMessage("a1", reply, "complete"));
for (const piece of [0, 1]) {
  await store.transaction((tx) => tx.writeSearchTextPiece("a1", ghost, piece));
}
process.stdout.write("PIECES WRITTEN\n", () => process.kill(process.pid, "SIGKILL"));
