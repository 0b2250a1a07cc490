/**
 * Issue 33: what the cold open of the seeded 2,000-turn thread spends on JavaScript before the
 * app's own first row is on screen: bytes (decoded and on the wire) of the scripts fetched, and
 * the renderer's script parse/compile and evaluation time from a Chromium trace (main thread and
 * V8's background compile threads, summed by event). Diagnostic only (not part of `npm test`):
 *
 *   pnpm run build && PERF_PORT=4397 pnpm exec tsx scripts/perf/parseCompile.ts [runs]
 *
 * Prints one line per run and the medians.
 */
import { recordFirstRow } from "./openThread.ts";
import { launchChromium, newPerfContext, startPerfServer } from "./rig.ts";
import { median } from "./stats.ts";
import type { TraceEvent } from "./trace.ts";

/** Trace events that are parsing/compiling script, and those that run it. */
const COMPILE =
  /^(v8\.compile|v8\.compileModule|V8\.CompileCode|V8\.CompileLazy|v8\.parseOnBackground|V8\.ParseProgram|V8\.ParseFunction|v8\.produceModuleCache|V8\.StreamingFinalization|v8\.deserializeOnBackground)$/;
const EVALUATE = /^(v8\.run|v8\.evaluateModule)$/;

type Run = {
  appRow: number;
  scripts: number;
  decoded: number;
  transferred: number;
  compileMain: number;
  compileOther: number;
  evaluate: number;
};

async function main(): Promise<void> {
  const runs = Number(process.argv[2] ?? 5);
  const server = await startPerfServer(Number(process.env.PERF_PORT ?? 4397));
  const browser = await launchChromium();
  const results: Run[] = [];
  try {
    for (let i = 0; i < runs; i++) {
      const context = await newPerfContext(browser);
      await context.addInitScript(recordFirstRow);
      const page = await context.newPage();
      await browser.startTracing(page, {
        categories: ["devtools.timeline", "v8", "disabled-by-default-v8.compile"],
      });
      const appRow = page.waitForEvent("console", {
        predicate: (message) => message.text() === "perf:first-app-row",
        timeout: 30_000,
      });
      await page.goto(`${server.state.baseURL}${server.state.seededThreadPath}`);
      await appRow;
      const trace = await browser.stopTracing();
      const info = await page.evaluate(() => {
        const at = (window as unknown as { __perfFirstAppRow: number }).__perfFirstAppRow;
        const scripts = (
          performance.getEntriesByType("resource") as PerformanceResourceTiming[]
        ).filter((entry) => entry.startTime < at && /\.js$/.test(entry.name));
        return {
          appRow: at,
          scripts: scripts.length,
          decoded: scripts.reduce((sum, entry) => sum + entry.decodedBodySize, 0),
          transferred: scripts.reduce((sum, entry) => sum + entry.transferSize, 0),
        };
      });
      const { traceEvents } = JSON.parse(trace.toString("utf8")) as { traceEvents: TraceEvent[] };
      const main = new Set(
        traceEvents
          .filter(
            (e) => e.ph === "M" && e.name === "thread_name" && e.args?.name === "CrRendererMain",
          )
          .map((e) => `${e.pid}:${e.tid}`),
      );
      // Up to the frame that showed the app's first row (its mark, see recordFirstRow).
      const mark = traceEvents.find(
        (e) =>
          e.name === "TimeStamp" &&
          (e.args?.data as { message?: string } | undefined)?.message === "perf-first-app-row",
      );
      const end = mark?.ts ?? Number.POSITIVE_INFINITY;
      // CPU time where the trace has it (a busy machine stretches wall time), else wall time.
      const sum = (filter: (e: TraceEvent) => boolean) =>
        traceEvents
          .filter((e) => e.ph === "X" && e.ts <= end && filter(e))
          .reduce((total, e) => total + (e.tdur ?? e.dur ?? 0) / 1000, 0);
      const onMain = (e: TraceEvent) => main.has(`${e.pid}:${e.tid}`);
      const run: Run = {
        appRow: info.appRow,
        scripts: info.scripts,
        decoded: info.decoded,
        transferred: info.transferred,
        compileMain: sum((e) => onMain(e) && COMPILE.test(e.name)),
        compileOther: sum((e) => !onMain(e) && COMPILE.test(e.name)),
        evaluate: sum((e) => onMain(e) && EVALUATE.test(e.name)),
      };
      results.push(run);
      console.log(
        `run ${i + 1}: app row ${run.appRow.toFixed(0)} ms; ${run.scripts} scripts, ${(run.decoded / 1024).toFixed(0)} KB decoded, ${(run.transferred / 1024).toFixed(0)} KB transferred; parse/compile ${run.compileMain.toFixed(1)} ms on the main thread + ${run.compileOther.toFixed(1)} ms off it; evaluate ${run.evaluate.toFixed(1)} ms`,
      );
      await context.close();
    }
    const m = (pick: (run: Run) => number) => median(results.map(pick));
    console.log(
      `median of ${runs}: app row ${m((r) => r.appRow).toFixed(0)} ms; ${m((r) => r.scripts)} scripts, ${(m((r) => r.decoded) / 1024).toFixed(0)} KB decoded, ${(m((r) => r.transferred) / 1024).toFixed(0)} KB transferred; parse/compile ${m((r) => r.compileMain).toFixed(1)} ms main + ${m((r) => r.compileOther).toFixed(1)} ms off main; evaluate ${m((r) => r.evaluate).toFixed(1)} ms`,
    );
  } finally {
    await browser.close();
    await server.stop();
  }
}

await main();
