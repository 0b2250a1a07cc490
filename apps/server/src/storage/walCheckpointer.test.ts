/**
 * The WAL checkpointer (`walCheckpointer.ts`) on a real database file: its worker copies the WAL
 * into the database, so the main connection's next write starts the WAL over instead of making it
 * longer. (Its interval was once left at an experiment's 250,000,000 ms and nothing noticed:
 * every checkpoint then ran inside a COMMIT, with its fsync, at 16,384 pages.)
 */
import { statSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { makeTempDir, removeDir } from "../testing/harness.ts";
import { openDatabase } from "./db.ts";
import { startWalCheckpointer } from "./walCheckpointer.ts";

let dir = "";
afterEach(async () => {
  if (dir) await removeDir(dir);
  dir = "";
});

describe("WAL checkpointer", () => {
  it("copies the WAL into the database from its worker, so later writes reuse the WAL file", async () => {
    dir = await makeTempDir("chat-wal-");
    const file = join(dir, "chat.sqlite");
    const db = openDatabase(file);
    db.exec("CREATE TABLE filler (text TEXT NOT NULL)");
    const insert = db.prepare("INSERT INTO filler (text) VALUES (?)");
    // Fifty commits of a page or two each: far below the main connection's automatic checkpoint.
    const batch = () => {
      for (let i = 0; i < 50; i++) insert.run("x".repeat(3_000));
    };
    const walBytes = () => statSync(`${file}-wal`).size;
    const checkpointer = startWalCheckpointer(file);
    try {
      batch();
      let longest = walBytes();
      // Without the worker every batch makes the WAL longer; with it, a batch written after a
      // checkpoint starts again at the WAL's beginning and leaves its length as it was.
      await expect
        .poll(
          () => {
            batch();
            const grew = walBytes() > longest;
            longest = Math.max(longest, walBytes());
            return grew;
          },
          { timeout: 15_000, interval: 300 },
        )
        .toBe(false);
    } finally {
      await checkpointer.close();
      db.close();
    }
  });
});
