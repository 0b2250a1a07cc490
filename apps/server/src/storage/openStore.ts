/**
 * Opens the store the configuration names: PostgreSQL when `DATABASE_URL` is set, else the
 * embedded SQLite file `DATA_DIR/chat.sqlite`.
 */
import { join } from "node:path";
import type { ChatStore } from "./chatStore.ts";
import { openDatabase, type SqliteDatabase } from "./db.ts";
import { openPostgresStore } from "./postgres/postgresStore.ts";
import { createSqliteStore } from "./sqliteStore.ts";

export interface StoreChoice {
  databaseUrl: string | null;
  pgPoolSize: number;
  dataDir: string;
  /** Opens the SQLite file (tests wrap it to inject faults). */
  openSqlite?: (file: string) => SqliteDatabase;
}

export async function openStore(choice: StoreChoice): Promise<ChatStore> {
  if (choice.databaseUrl !== null) {
    return openPostgresStore({ url: choice.databaseUrl, poolSize: choice.pgPoolSize });
  }
  const open = choice.openSqlite ?? openDatabase;
  return createSqliteStore(open(join(choice.dataDir, "chat.sqlite")));
}
