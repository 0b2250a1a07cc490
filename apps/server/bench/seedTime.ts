/**
 * Seeding at scale (issue 33): `seedDemoThread` (what `pnpm --filter @app/server seed --
 * --thread-turns N` runs) on SQLite and on a throwaway PostgreSQL cluster, timed from the call
 * to its commit, search and citation indexes included; target < 60 s for 50,000 turns. Prints
 * the wall time next to the target and this process's CPU time (on PostgreSQL the database
 * server's CPU is not in it), with the load average before and after.
 *
 *   pnpm --filter @app/server exec tsx bench/seedTime.ts [turns] [stores]   (stores: sqlite,postgres)
 */
import { loadavg } from "node:os";
import { seedDemoThread, seededMessageCount } from "../src/seed.ts";
import { openStore } from "../src/storage/openStore.ts";
import { makeTempDir, removeDir } from "../src/testing/harness.ts";
import { startPostgresCluster } from "../src/testing/postgresCluster.ts";

const TURNS = Number(process.argv[2] ?? 50_000);
const STORES = (process.argv[3] ?? "sqlite,postgres").split(",");
const load = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(", ");

for (const kind of STORES) {
  const dir = await makeTempDir("chat-bench-seed-");
  const cluster = kind === "postgres" ? await startPostgresCluster() : null;
  try {
    const databaseUrl = (await cluster?.createDatabase("seed")) ?? null;
    const store = await openStore({ databaseUrl, pgPoolSize: 4, dataDir: dir });
    try {
      const loadBefore = load();
      const cpu0 = process.cpuUsage();
      const began = performance.now();
      await seedDemoThread(store, { turns: TURNS });
      const seconds = (performance.now() - began) / 1000;
      const cpu = process.cpuUsage(cpu0);
      const queued = await store.queuedSearchTexts(1);
      console.log(
        `${kind}: ${TURNS} turns (${seededMessageCount(TURNS)} messages) in ${seconds.toFixed(1)} s ` +
          (TURNS === 50_000
            ? `(target < 60 s: ${seconds < 60 ? "met" : "MISSED"}), `
            : "(the target, < 60 s, is for 50,000 turns), ") +
          `this process's CPU ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s, ` +
          `${queued.length === 0 ? "nothing" : "some messages"} left queued for the search index; ` +
          `load ${loadBefore} -> ${load()}`,
      );
    } finally {
      await store.close();
    }
  } finally {
    cluster?.stop();
    await removeDir(dir);
  }
}
