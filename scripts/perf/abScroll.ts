/**
 * A/B comparison of the bottom-to-top scroll of the seeded 2,000-turn thread between two builds
 * of the web app, interleaved run by run so both see the same machine load (diagnostic, not
 * `npm test`):
 *
 *   pnpm exec tsx scripts/perf/abScroll.ts <distA> <distB> [runs per build, default 3]
 *
 * Build each variant with `pnpm --filter @app/web build` and copy `apps/web/dist` aside first.
 * Long frames are rare and come and go between identical runs, so compare the sums over all
 * runs: frames over 34 ms (two missed vsyncs) and over 50 ms, and the renderer's CPU time.
 */
import { launchChromium, type PerfServer, startPerfServer } from "./rig.ts";
import { measureScroll, type ScrollResult } from "./scrollThread.ts";

async function main(): Promise<void> {
  const [distA, distB, runsArg] = process.argv.slice(2);
  if (!distA || !distB) throw new Error("usage: abScroll.ts <distA> <distB> [runs]");
  const runs = Number(runsArg ?? 3);
  // The renderer's CPU time needs the trace; both builds pay its overhead alike.
  process.env.PERF_TRACE ??= "1";
  const servers: PerfServer[] = [];
  for (const [index, dist] of [distA, distB].entries()) {
    process.env.WEB_DIST = dist;
    servers.push(await startPerfServer(4392 + index));
  }
  const browser = await launchChromium();
  const results: ScrollResult[][] = [[], []];
  try {
    for (let i = 0; i < runs; i++) {
      for (const index of i % 2 === 0 ? [0, 1] : [1, 0]) {
        const result = await measureScroll(browser, servers[index]!.state);
        results[index]!.push(result);
        console.log(
          `${"AB"[index]} run ${i + 1}: over 34 ms ${result.over34}, over 50 ms ${result.over50}, longest ${result.longestFrame.toFixed(1)} ms, over 16.7 ms ${result.over16} of ${result.frames}, renderer CPU ${result.rendererCpuSeconds.toFixed(1)} s`,
        );
      }
    }
  } finally {
    await browser.close();
    for (const server of servers) await server.stop();
  }
  for (const [index, name] of ["A", "B"].entries()) {
    const values = results[index]!;
    const sum = (pick: (r: ScrollResult) => number) => values.reduce((n, r) => n + pick(r), 0);
    console.log(
      `${name} ${[distA, distB][index]}: over 34 ms ${sum((r) => r.over34)}, over 50 ms ${sum((r) => r.over50)}, over 16.7 ms ${sum((r) => r.over16)} of ${sum((r) => r.frames)} frames, renderer CPU ${sum((r) => r.rendererCpuSeconds).toFixed(1)} s in ${runs} runs`,
    );
  }
}

await main();
