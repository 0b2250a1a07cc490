// Before/after check of the SQLite path: median µs of ThreadService.getMessagePage (newest page,
// page before the middle, around window) on a 22,002-message thread, for the checkout at <tree>.
// Run from apps/server: node --import tsx bench/compare/historyPages.mjs <tree>
const tree = process.argv[2];
const { mkdtempSync } = await import("node:fs");
const { tmpdir } = await import("node:os");
const { join } = await import("node:path");
const dir = mkdtempSync(join(tmpdir(), "micro-"));
const seed = await import(`${tree}/apps/server/src/seed.ts`);
const { ThreadService } = await import(`${tree}/apps/server/src/domain/threadService.ts`);
let threads, threadId;
try {
  const { openStore } = await import(`${tree}/apps/server/src/storage/openStore.ts`);
  const store = await openStore({ databaseUrl: null, pgPoolSize: 1, dataDir: dir });
  threadId = await seed.seedDemoThread(store, { turns: 10000 });
  threads = new ThreadService(store);
} catch (e) {
  if (!String(e).includes("Cannot find module")) throw e;
  const { openDatabase } = await import(`${tree}/apps/server/src/storage/db.ts`);
  const { ChatRepository } = await import(`${tree}/apps/server/src/storage/repository.ts`);
  const repo = new ChatRepository(openDatabase(join(dir, "chat.sqlite")));
  threadId = seed.seedDemoThread(repo, { turns: 10000 });
  threads = new ThreadService(repo);
}
const middle = (await threads.getMessagePage(threadId, { after: "11000", limit: 1 })).messages[0];
for (const [name, query] of [
  ["newest", {}],
  ["before", { before: "11000" }],
  ["around", { around: middle.id }],
]) {
  const times = [];
  for (let i = 0; i < 3000; i++) {
    const t = performance.now();
    await threads.getMessagePage(threadId, query);
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  console.log(
    `${tree.split("/").pop()} ${name}: median ${(times[1500] * 1000).toFixed(0)} µs, p10 ${(times[300] * 1000).toFixed(0)} µs`,
  );
}
