/**
 * Opening a 2,000-turn thread with versions (issue 30): the newest page and an `around=` window
 * at turn 1,000, on the seeded thread before and after an edit at turn 10 and a regeneration at
 * turn 1,990 (SQLite, or PostgreSQL with BENCH_STORE=postgres). In process, through the store.
 * A benchmark, not a timed test: figures go to PERFORMANCE.md.
 *
 *   pnpm --filter @app/server exec tsx bench/versionedHistoryOpen.ts [rounds]
 */
import { join } from "node:path";
import { seedDemoThread } from "../src/seed.ts";
import type { ChatStore } from "../src/storage/chatStore.ts";
import { openDatabase } from "../src/storage/db.ts";
import { openStore } from "../src/storage/openStore.ts";
import { importSqliteIntoPostgres } from "../src/storage/postgres/importSqlite.ts";
import { makeTempDir, removeDir } from "../src/testing/harness.ts";
import { startPostgresCluster } from "../src/testing/postgresCluster.ts";
import { percentile } from "./support/percentile.ts";

const rounds = Number(process.argv[2] ?? 200);
const cluster = process.env.BENCH_STORE === "postgres" ? await startPostgresCluster() : null;
const databaseUrl = cluster ? await cluster.createDatabase("versions") : null;
const dataDir = await makeTempDir("chat-bench-versions-");
try {
  const seeded = await openStore({ databaseUrl: null, pgPoolSize: 1, dataDir });
  const threadId = await seedDemoThread(seeded, { turns: 2_000 });
  await seeded.close();
  if (databaseUrl !== null) {
    const db = openDatabase(join(dataDir, "chat.sqlite"));
    await importSqliteIntoPostgres(db, databaseUrl);
    db.close();
  }
  const store = await openStore({ databaseUrl, pgPoolSize: 4, dataDir });
  const find = async (text: string) => {
    const [hit] = await store.searchCandidates({
      threadId,
      query: text,
      caseSensitive: true,
      afterKey: 0,
      limit: 1,
    });
    return (await store.getMessage(hit!.messageId))!;
  };
  const middle = await find("Turn 1000:");
  const measure = async (label: string) => {
    const newest: number[] = [];
    const around: number[] = [];
    for (let i = 0; i < rounds; i++) {
      let t = performance.now();
      await store.messagesBefore(threadId, null, 50);
      newest.push(performance.now() - t);
      t = performance.now();
      await store.messagesAround(middle, 50);
      around.push(performance.now() - t);
    }
    const p = (v: number[]) =>
      `p50 ${percentile(v, 50).toFixed(2)} ms, p90 ${percentile(v, 90).toFixed(2)} ms`;
    console.log(`${store.kind} ${label}: newest page ${p(newest)}; around turn 1,000 ${p(around)}`);
  };
  await measure("without versions");
  await addVersions(store, threadId, await find("Turn 10:"), await find("Answer 1990 looks"));
  await measure(
    "with versions at turn 10 (edit) and turn 1,990 (regeneration), original path shown",
  );
  await store.close();
} finally {
  cluster?.stop();
  await removeDir(dataDir);
}

/** An edit of prompt 10 and a regeneration of answer 1,990; then the original path again. */
async function addVersions(
  store: ChatStore,
  threadId: string,
  prompt10: { id: string },
  answer1990: { id: string; turnId: string },
): Promise<void> {
  const now = new Date().toISOString();
  await store.transaction(async (tx) => {
    await tx.insertTurnWithPrompt({
      threadId,
      turnId: "edit-10",
      messageId: "edit-10-prompt",
      text: "Turn 10, edited",
      providerInput: "Turn 10, edited",
      now,
      versionOf: prompt10.id,
    });
    await tx.insertAssistantMessage({
      id: "edit-10-answer",
      threadId,
      turnId: "edit-10",
      kind: "answer",
      text: "edited answer",
      status: "complete",
      now,
    });
    // Back to the original turn 10 (and everything after it), then regenerate answer 1,990.
    await tx.selectVersion(prompt10.id);
    await tx.insertRegenerateTurn({
      threadId,
      turnId: "regen-1990",
      sourceTurnId: answer1990.turnId,
      regeneratesId: answer1990.id,
      providerInput: "again",
      now,
    });
    await tx.insertAssistantMessage({
      id: "regen-1990-answer",
      threadId,
      turnId: "regen-1990",
      kind: "answer",
      text: "regenerated answer",
      status: "complete",
      now,
    });
    await tx.selectVersion(answer1990.id);
  });
}
