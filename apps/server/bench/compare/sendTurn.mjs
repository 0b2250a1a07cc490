// Before/after check of the SQLite path: median ms of sendTurn (120,000-character prompt with
// 50 citations) until the turn is complete, noop adapter, for the checkout at <tree>.
// Run from apps/server: node --import tsx bench/compare/sendTurn.mjs <tree>
const tree = process.argv[2];
const { mkdtempSync } = await import("node:fs");
const { tmpdir } = await import("node:os");
const { join } = await import("node:path");
const dir = mkdtempSync(join(tmpdir(), "microsend-"));
const { maximalPromptWith50Citations, noopAdapter, openServices } = await import(
  `${tree}/apps/server/bench/fixtures.ts`
);
let services = openServices(dir, noopAdapter);
if (services instanceof Promise) services = await services;
const prompt = maximalPromptWith50Citations();
let thread = services.threads.createThread("bench");
if (thread instanceof Promise) thread = await thread;
const times = [];
for (let i = 0; i < 120; i++) {
  const t = performance.now();
  await services.provider.sendTurn(thread.id, prompt);
  await services.provider.whenIdle();
  if (i >= 20) times.push(performance.now() - t);
}
times.sort((a, b) => a - b);
console.log(
  `${tree.split("/").pop()} sendTurn+complete: median ${times[50].toFixed(2)} ms, p10 ${times[10].toFixed(2)} ms`,
);
process.exit(0);
