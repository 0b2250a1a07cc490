/**
 * A/B comparison of the cold open of the seeded 2,000-turn thread between two builds of the web
 * app, interleaved run by run so both see the same machine load (diagnostic, not `npm test`):
 *
 *   [PERF_PORT=4390] pnpm exec tsx scripts/perf/abOpen.ts <distA> <distB> [runs per build, default 10]
 *
 * `WARM=1` compares the warm reopen (app assets cached, thread data fetched anew) instead.
 * Build each variant with `pnpm --filter @app/web build` and copy `apps/web/dist` aside first.
 */
import { measureOpenThread } from "./openThread.ts";
import { launchChromium, type PerfServer, startPerfServer } from "./rig.ts";
import { median } from "./stats.ts";

async function main(): Promise<void> {
  const [distA, distB, runsArg] = process.argv.slice(2);
  if (!distA || !distB) throw new Error("usage: abOpen.ts <distA> <distB> [runs]");
  const runs = Number(runsArg ?? 10);
  // WARM=1: the warm reopen (app assets cached) instead of the cold open.
  const warm = process.env.WARM === "1";
  const servers: PerfServer[] = [];
  for (const [index, dist] of [distA, distB].entries()) {
    process.env.WEB_DIST = dist;
    servers.push(await startPerfServer(Number(process.env.PERF_PORT ?? 4390) + index));
  }
  const browser = await launchChromium();
  const results: number[][] = [[], []];
  const data: number[][] = [[], []];
  const dcl: number[][] = [[], []];
  const appRow: number[][] = [[], []];
  try {
    for (let i = 0; i < runs; i++) {
      for (const index of i % 2 === 0 ? [0, 1] : [1, 0]) {
        const open = await measureOpenThread(browser, servers[index]!.state, 1, { warm });
        const run = warm ? open.warm[0]! : open.cold[0]!;
        results[index]!.push(run.firstRow);
        data[index]!.push(Math.max(run.detail, run.messages));
        dcl[index]!.push(run.domContentLoaded);
        appRow[index]!.push(run.firstAppRow);
      }
    }
  } finally {
    await browser.close();
    for (const server of servers) await server.stop();
  }
  for (const [index, name] of ["A", "B"].entries()) {
    const values = results[index]!;
    console.log(
      `${name} ${[distA, distB][index]}: median ${median(values).toFixed(0)} ms (runs: ${values.map((v) => v.toFixed(0)).join(", ")}); thread data (detail and newest page) loaded at ${median(data[index]!).toFixed(0)} ms, DOMContentLoaded at ${median(dcl[index]!).toFixed(0)} ms, the app's own first row at ${median(appRow[index]!).toFixed(0)} ms (runs: ${appRow[index]!.map((v) => v.toFixed(0)).join(", ")}), medians`,
    );
  }
}

await main();
