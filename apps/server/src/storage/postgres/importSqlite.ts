/**
 * Copies a SQLite chat database (DATA_DIR/chat.sqlite) into an empty PostgreSQL one, for moving
 * an installation to several processes, and for seeding large benchmark threads quickly: rows
 * go over in batches of 2,000 through `unnest`, one transaction in all. The environment id comes
 * along, so existing citation links keep pointing at this installation. Stop the server first.
 * The SQLite file must be at the current schema (open it with `openDatabase`, which migrates).
 */
import type Database from "better-sqlite3";
import pg from "pg";
import { foldedSearchText } from "../searchText.ts";
import { migratePostgres } from "./migrations.ts";

const BATCH = 2_000;

/**
 * Each table's columns with their PostgreSQL types, in SQLite's column order; `select` reads a
 * table whose SQLite shape differs, and `map` completes each of its rows.
 */
const TABLES: {
  name: string;
  columns: [string, "text" | "int8" | "int4"][];
  select?: string;
  map?: (row: unknown[]) => unknown[];
}[] = [
  {
    name: "threads",
    columns: [
      ["id", "text"],
      ["title", "text"],
      ["title_source", "text"],
      ["branch_name", "text"],
      ["created_at", "text"],
      ["updated_at", "text"],
      ["message_count", "int4"],
      ["last_seq", "int8"],
      ["last_event_id", "int8"],
      ["deleted_at", "text"],
    ],
  },
  {
    name: "purged_threads",
    columns: [
      ["id", "text"],
      ["purged_at", "text"],
    ],
  },
  {
    name: "turns",
    columns: [
      ["id", "text"],
      ["thread_id", "text"],
      ["prompt_seq", "int8"],
      ["status", "text"],
      ["error_code", "text"],
      ["error_message", "text"],
      ["provider_input", "text"],
      ["created_at", "text"],
      ["completed_at", "text"],
    ],
  },
  {
    name: "messages",
    columns: [
      ["id", "text"],
      ["thread_id", "text"],
      ["turn_id", "text"],
      ["seq", "int8"],
      ["role", "text"],
      ["kind", "text"],
      ["text", "text"],
      ["status", "text"],
      ["created_at", "text"],
    ],
  },
  {
    name: "user_input_requests",
    columns: [
      ["id", "text"],
      ["thread_id", "text"],
      ["turn_id", "text"],
      ["questions", "text"],
      ["status", "text"],
      ["answers", "text"],
      ["created_at", "text"],
      ["resolved_at", "text"],
    ],
  },
  {
    name: "events",
    columns: [
      ["thread_id", "text"],
      ["id", "int8"],
      ["type", "text"],
      ["message_id", "text"],
      ["data", "text"],
    ],
  },
  {
    // The citation index; its ids are PostgreSQL's own, given in SQLite's (rowid) order.
    name: "message_citations",
    columns: [
      ["citing_message_id", "text"],
      ["citing_thread_id", "text"],
      ["citing_turn_id", "text"],
      ["source_environment_id", "text"],
      ["source_thread_id", "text"],
      ["source_message_id", "text"],
      ["quote_start", "int8"],
      ["quote_end", "int8"],
      ["prefix", "text"],
      ["suffix", "text"],
      ["quote", "text"],
      ["comment", "text"],
      ["created_at", "text"],
    ],
  },
  {
    name: "message_backlinks",
    columns: [
      ["source_message_id", "text"],
      ["source_thread_id", "text"],
      ["citing_count", "int4"],
      ["ranges", "text"],
    ],
  },
  {
    // The find-in-thread index: the rendered texts are copied, their case fold computed.
    name: "message_search",
    columns: [
      ["message_id", "text"],
      ["thread_id", "text"],
      ["seq", "int8"],
      ["role", "text"],
      ["text", "text"],
      ["folded", "text"],
    ],
    select: `SELECT s.message_id, s.thread_id, m.seq, s.role, s.text, NULL
      FROM message_search s JOIN messages m ON m.id = s.message_id WHERE s.text IS NOT NULL`,
    map: (row) => [...row.slice(0, 5), foldedSearchText(row[4] as string)],
  },
  {
    // Long messages not indexed yet: the background indexer of the PostgreSQL server does them.
    name: "search_pending",
    columns: [["message_id", "text"]],
  },
];

/** Copies every row of `sqlite` into the database at `url` (migrated first); returns row counts. */
export async function importSqliteIntoPostgres(
  sqlite: Database.Database,
  url: string,
): Promise<Record<string, number>> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const counts: Record<string, number> = {};
  try {
    await migratePostgres(client);
    await client.query("BEGIN");
    const existing = await client.query("SELECT 1 FROM threads LIMIT 1");
    if (existing.rowCount !== 0) throw new Error("The PostgreSQL database already has threads.");
    const environment = sqlite
      .prepare("SELECT value FROM meta WHERE key = 'environment_id'")
      .get() as { value: string } | undefined;
    if (environment) {
      await client.query(
        `INSERT INTO meta (key, value) VALUES ('environment_id', $1)
         ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
        [environment.value],
      );
    }
    for (const table of TABLES) {
      const names = table.columns.map(([name]) => name);
      const insert = `INSERT INTO ${table.name} (${names.join(", ")})
        SELECT * FROM unnest(${table.columns.map(([, type], i) => `$${i + 1}::${type}[]`).join(", ")})`;
      const rows = sqlite
        .prepare(table.select ?? `SELECT ${names.join(", ")} FROM ${table.name}`)
        .raw()
        .iterate();
      let batch: unknown[][] = [];
      counts[table.name] = 0;
      const flush = async () => {
        if (batch.length === 0) return;
        const columns = names.map((_, i) => batch.map((row) => row[i]));
        await client.query(insert, columns);
        counts[table.name]! += batch.length;
        batch = [];
      };
      for (const row of rows as Iterable<unknown[]>) {
        batch.push(table.map ? table.map(row) : row);
        if (batch.length >= BATCH) await flush();
      }
      await flush();
    }
    // Turns the SQLite server had started and left unfinished get an expired lease: the first
    // process ends them `interrupted` (as a SQLite restart would) instead of running them
    // again. Turns that never started stay queued and run in order.
    const started = sqlite.prepare("SELECT turn_id FROM turn_claims").pluck().all() as string[];
    await client.query(
      `UPDATE turns SET lease_owner = 'sqlite-import', lease_expires_at = to_timestamp(0)
       WHERE id = ANY($1::text[]) AND status IN ('running', 'waiting_for_input')`,
      [started],
    );
    // Planner statistics for the copied tables now, not at autovacuum's next round.
    await client.query("ANALYZE");
    await client.query("COMMIT");
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    throw error;
  } finally {
    await client.end();
  }
  return counts;
}
