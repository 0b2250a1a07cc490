// WAL pages a turn writes in the concurrent bench, by b-tree (issue 33): the concurrent bench
// (one run unless RUNS=n), with a second connection holding a read transaction from the start so
// that no checkpoint can restart the WAL; every frame written stays in it. At the end each frame's
// page is named through `dbstat` (the table or index it belongs to).
// node --import tsx bench/walPagesPerTurn.mjs
import { readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";

process.env.RUNS ??= "1";
process.env.KEEP_DATA = "1";
const before = new Set(readdirSync(tmpdir()));
let holder = null;
let dir = null;
const poll = setInterval(() => {
  if (holder) return;
  for (const name of readdirSync(tmpdir())) {
    if (!name.startsWith("chat-bench-clients-") || before.has(name)) continue;
    try {
      const db = new Database(join(tmpdir(), name, "chat.sqlite"), { fileMustExist: true });
      db.exec("BEGIN");
      db.prepare("SELECT count(*) FROM sqlite_schema").get();
      holder = db;
      dir = join(tmpdir(), name);
    } catch {
      // Not created yet.
    }
  }
}, 1);
await import("./compare/concurrent.mjs");
clearInterval(poll);
if (!holder) throw new Error("the bench's database was not found in time");
const wal = readFileSync(join(dir, "chat.sqlite-wal"));
const pageSize = wal.readUInt32BE(8);
const pages = new Map();
let frames = 0;
for (let at = 32; at + 24 + pageSize <= wal.length; at += 24 + pageSize) {
  const page = wal.readUInt32BE(at);
  pages.set(page, (pages.get(page) ?? 0) + 1);
  frames++;
}
holder.exec("COMMIT");
const owner = new Map(
  holder
    .prepare("SELECT pageno, name FROM dbstat")
    .all()
    .map((r) => [r.pageno, r.name]),
);
const byTree = new Map();
for (const [page, count] of pages) {
  const name = owner.get(page) ?? "(free or new)";
  byTree.set(name, (byTree.get(name) ?? 0) + count);
}
holder.close();
const turns = 1000 * Number(process.env.RUNS);
console.log(`${frames} WAL frames for ${turns} turns: ${(frames / turns).toFixed(2)} pages a turn`);
for (const [name, count] of [...byTree].sort((a, b) => b[1] - a[1]).slice(0, 12))
  console.log(`  ${(count / turns).toFixed(2).padStart(6)} ${name}`);
