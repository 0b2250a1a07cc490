/**
 * Counts every stored thread, empty ones included, straight from the test's database. The HTTP
 * list shows a thread only from its first message, so "created nothing" checks read the table.
 */
import { join } from "node:path";
import Database from "better-sqlite3";
import { testDatabaseUrl } from "./harness.ts";

export async function storedThreadCount(dataDir: string): Promise<number> {
  const url = await testDatabaseUrl(dataDir);
  if (url === null) {
    const db = new Database(join(dataDir, "chat.sqlite"), { readonly: true });
    try {
      return (db.prepare("SELECT count(*) AS n FROM threads").get() as { n: number }).n;
    } finally {
      db.close();
    }
  }
  const { default: pg } = await import("pg");
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: string }>("SELECT count(*) AS n FROM threads");
    return Number(rows[0]?.n);
  } finally {
    await client.end();
  }
}
