/**
 * The test databases of `server-pg` (`harness.ts`, `postgresGlobalSetup.ts`): each starts as a
 * copy of the run's migrated template, with the latest schema and no environment id of its
 * own yet (so every store still makes its own), or, asked for, empty.
 */
import pg from "pg";
import { describe, expect, it } from "vitest";
import { PG_SCHEMA_VERSION } from "../storage/postgres/migrations.ts";
import { makeTempDir, openTestStore, removeDir, testDatabaseUrl } from "./harness.ts";

async function query<T extends pg.QueryResultRow>(url: string, sql: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql)).rows;
  } finally {
    await client.end();
  }
}

describe("test databases", () => {
  it("start migrated to the latest schema, each store with an environment id of its own", async () => {
    const [a, b] = [await makeTempDir("chat-tpl-a-"), await makeTempDir("chat-tpl-b-")];
    try {
      const url = (await testDatabaseUrl(a))!;
      expect(
        await query(url, "SELECT max(version)::int AS version FROM schema_migrations"),
      ).toEqual([{ version: PG_SCHEMA_VERSION }]);
      expect(await query(url, "SELECT key FROM meta")).toEqual([]);
      const [first, second] = [await openTestStore(a), await openTestStore(b)];
      expect(first.environmentId).not.toBe(second.environmentId);
      await Promise.all([first.close(), second.close()]);
    } finally {
      await Promise.all([removeDir(a), removeDir(b)]);
    }
  });

  it("start empty when asked, for tests of the migrations", async () => {
    const dir = await makeTempDir("chat-tpl-empty-");
    try {
      const url = (await testDatabaseUrl(dir, { migrated: false }))!;
      expect(await query(url, "SELECT to_regclass('schema_migrations') AS t")).toEqual([
        { t: null },
      ]);
      const store = await openTestStore(dir);
      await store.close();
      expect(
        await query(url, "SELECT max(version)::int AS version FROM schema_migrations"),
      ).toEqual([{ version: PG_SCHEMA_VERSION }]);
    } finally {
      await removeDir(dir);
    }
  });
});
