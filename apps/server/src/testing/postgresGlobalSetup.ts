/**
 * Vitest global setup of the `server-pg` project: one PostgreSQL cluster for the whole run, and
 * in it one database migrated to the latest schema. Test workers read the cluster's URL from
 * CHAT_TEST_PG_ADMIN_URL and create one database per test server as a copy of that template
 * (CHAT_TEST_PG_TEMPLATE; see `harness.ts`), instead of running every migration again each time.
 */
import pg from "pg";
import { migratePostgres } from "../storage/postgres/migrations.ts";
import { startPostgresCluster } from "./postgresCluster.ts";

/** The run's migrated template database. */
export const MIGRATED_TEMPLATE = "t_migrated_template";

/**
 * Server settings of the run's cluster, on top of `fsync=off`: a test cluster needs no
 * durability (no test crashes PostgreSQL itself; the fault tests end backends or restart it
 * cleanly), so commits do not wait for the WAL and pages are not logged whole after a
 * checkpoint. No autovacuum: with a database per test server, its launcher visits hundreds of
 * databases a minute, and a test never waits for it (the stores ANALYZE what they need).
 */
export const TEST_CLUSTER_SETTINGS = [
  "synchronous_commit=off",
  "full_page_writes=off",
  "autovacuum=off",
] as const;

export default async function setup(): Promise<() => void> {
  const cluster = await startPostgresCluster({ settings: TEST_CLUSTER_SETTINGS });
  try {
    const client = new pg.Client({
      connectionString: await cluster.createDatabase(MIGRATED_TEMPLATE),
    });
    await client.connect();
    try {
      await migratePostgres(client);
    } finally {
      // CREATE DATABASE ... TEMPLATE refuses a template anyone is connected to.
      await client.end();
    }
  } catch (error) {
    cluster.stop();
    throw error;
  }
  process.env.CHAT_TEST_PG_ADMIN_URL = cluster.adminUrl;
  process.env.CHAT_TEST_PG_TEMPLATE = MIGRATED_TEMPLATE;
  // In the background: removing a database per test server would hold the run's end.
  return () => cluster.stopInBackground();
}
