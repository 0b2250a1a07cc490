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

export default async function setup(): Promise<() => void> {
  const cluster = await startPostgresCluster();
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
