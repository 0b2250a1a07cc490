// sendTurn alone (validate, expand once, store prompt + turn + events, commit), timed with
// performance.now() and CPU time around 100 calls of a 120,000-character prompt with 50
// citations; the turn then runs (noop adapter) outside the timing.
// Run from apps/server: node --import tsx bench/compare/sendTurnOnly.mjs <checkout>
const tree = process.argv[2];
const { mkdtempSync } = await import("node:fs");
const { tmpdir } = await import("node:os");
const { join } = await import("node:path");
const dir = mkdtempSync(join(tmpdir(), "microsend-"));
const { maximalPromptWith50Citations, noopAdapter, openServices } = await import(
  `${tree}/apps/server/bench/fixtures.ts`
);
const services = await openServices(dir, noopAdapter);
const prompt = maximalPromptWith50Citations();
const thread = await services.threads.createThread("bench");
const wall = [];
const cpu = [];
for (let i = 0; i < 120; i++) {
  const t = performance.now();
  const c = process.cpuUsage();
  await services.provider.sendTurn(thread.id, prompt);
  const used = process.cpuUsage(c);
  if (i >= 20) {
    wall.push(performance.now() - t);
    cpu.push((used.user + used.system) / 1000);
  }
  await services.provider.whenIdle();
}
const median = (xs) => xs.sort((a, b) => a - b)[xs.length >> 1].toFixed(2);
console.log(
  `${tree.split("/").pop()} sendTurn: median ${median(wall)} ms wall, ${median(cpu)} ms CPU`,
);
process.exit(0);
