/**
 * Vitest global setup of the `server-pg` project: one PostgreSQL cluster for the whole run.
 * Test workers read its URL from CHAT_TEST_PG_ADMIN_URL and create one database per test
 * server (see `harness.ts`).
 */
import { startPostgresCluster } from "./postgresCluster.ts";

export default async function setup(): Promise<() => void> {
  const cluster = await startPostgresCluster();
  process.env.CHAT_TEST_PG_ADMIN_URL = cluster.adminUrl;
  return () => cluster.stop();
}
