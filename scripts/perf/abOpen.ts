/**
 * A/B comparison of the cold open of the seeded 2,000-turn thread between two builds of the web
 * app, interleaved run by run so both see the same machine load (diagnostic, not `npm test`):
 *
 *   [PERF_PORT=4390] pnpm exec tsx scripts/perf/abOpen.ts <distA> <distB> [runs per build, default 10]
 *
 * Build each variant with `pnpm --filter @app/web build` and copy `apps/web/dist` aside first.
 */
import { measureOpenThread } from "./openThread.ts";
import { launchChromium, type PerfServer, startPerfServer } from "./rig.ts";
import { median } from "./stats.ts";

async function main(): Promise<void> {
  const [distA, distB, runsArg] = process.argv.slice(2);
  if (!distA || !distB) throw new Error("usage: abOpen.ts <distA> <distB> [runs]");
  const runs = Number(runsArg ?? 10);
  const servers: PerfServer[] = [];
  for (const [index, dist] of [distA, distB].entries()) {
    process.env.WEB_DIST = dist;
    servers.push(await startPerfServer(Number(process.env.PERF_PORT ?? 4390) + index));
  }
  const browser = await launchChromium();
  const results: number[][] = [[], []];
  const data: number[][] = [[], []];
  try {
    for (let i = 0; i < runs; i++) {
      for (const index of i % 2 === 0 ? [0, 1] : [1, 0]) {
        const { cold } = await measureOpenThread(browser, servers[index]!.state, 1, {
          warm: false,
        });
        results[index]!.push(cold[0]!.firstRow);
        data[index]!.push(Math.max(cold[0]!.detail, cold[0]!.messages));
      }
    }
  } finally {
    await browser.close();
    for (const server of servers) await server.stop();
  }
  for (const [index, name] of ["A", "B"].entries()) {
    const values = results[index]!;
    console.log(
      `${name} ${[distA, distB][index]}: median ${median(values).toFixed(0)} ms (runs: ${values.map((v) => v.toFixed(0)).join(", ")}); thread data (detail and newest page) loaded at ${median(data[index]!).toFixed(0)} ms, median`,
    );
  }
}

await main();
