/**
 * How long the citation-index backfill takes on the seeded 100,000-message thread (SQLite
 * migration 5; PostgreSQL migration 2 with BENCH_STORE=postgres): the index is dropped and the
 * schema set back before it, then the migration runs again; prints each run and the median.
 *
 *   cd apps/server && pnpm exec tsx bench/citationBackfill.ts [runs]
 */
import { join } from "node:path";
import pg from "pg";
import { seedDemoThread } from "../src/seed.ts";
import { migrate, openDatabase } from "../src/storage/db.ts";
import { openStore } from "../src/storage/openStore.ts";
import { importSqliteIntoPostgres } from "../src/storage/postgres/importSqlite.ts";
import { migratePostgres } from "../src/storage/postgres/migrations.ts";
import { makeTempDir, removeDir } from "../src/testing/harness.ts";
import { benchDatabaseUrl, stopBenchDatabase } from "./fixtures.ts";

const TURNS = 45_455; // 100,002 messages, 1,823 citations
const runs = Number(process.argv[2] ?? 5);
const dataDir = await makeTempDir("chat-bench-backfill-");
try {
  const sqlite = await openStore({ databaseUrl: null, pgPoolSize: 1, dataDir });
  await seedDemoThread(sqlite, { turns: TURNS });
  await sqlite.close();
  const file = join(dataDir, "chat.sqlite");
  const times: number[] = [];
  let rows = 0;
  if (benchDatabaseUrl === null) {
    const db = openDatabase(file);
    for (let i = 0; i < runs; i++) {
      db.exec(
        "DROP TABLE message_citations; DROP TABLE message_backlinks; PRAGMA user_version = 4",
      );
      const started = performance.now();
      migrate(db);
      times.push(performance.now() - started);
      rows = (db.prepare("SELECT count(*) AS n FROM message_citations").get() as { n: number }).n;
    }
    db.close();
  } else {
    const db = openDatabase(file);
    await importSqliteIntoPostgres(db, benchDatabaseUrl);
    db.close();
    const client = new pg.Client({ connectionString: benchDatabaseUrl });
    await client.connect();
    for (let i = 0; i < runs; i++) {
      await client.query("DROP TABLE message_citations, message_backlinks");
      await client.query("DELETE FROM schema_migrations WHERE version = 2");
      const started = performance.now();
      await migratePostgres(client);
      times.push(performance.now() - started);
      rows = Number((await client.query("SELECT count(*) AS n FROM message_citations")).rows[0].n);
    }
    await client.end();
  }
  times.sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)]!;
  console.log(
    `${benchDatabaseUrl === null ? "SQLite" : "PostgreSQL"}: backfill of ${rows} citations ` +
      `from ${TURNS} prompts, runs ${times.map((t) => t.toFixed(0)).join(", ")} ms, ` +
      `median ${median.toFixed(0)} ms`,
  );
} finally {
  stopBenchDatabase();
  await removeDir(dataDir);
}
