/**
 * Where the time goes when the seeded 2,000-turn thread is opened cold: a CPU profile of the
 * renderer from navigation to the first message row, summarized by script (self time) and by
 * function, plus the long tasks. Diagnostic only (not part of `npm test`):
 *
 *   pnpm --filter @app/web build && pnpm exec tsx scripts/perf/profileOpen.ts
 */
import { recordFirstRow, waitForFirstRow } from "./openThread.ts";
import { launchChromium, newPerfContext, startPerfServer } from "./rig.ts";
import type { CpuProfile, TraceEvent } from "./trace.ts";

/** Sums main-thread event durations by name up to the first row (nested events counted in each). */
function summarizeTrace(trace: Buffer, firstRow: number): void {
  const { traceEvents } = JSON.parse(trace.toString("utf8")) as { traceEvents: TraceEvent[] };
  const main = new Set(
    traceEvents
      .filter((e) => e.ph === "M" && e.name === "thread_name" && e.args?.name === "CrRendererMain")
      .map((e) => `${e.pid}:${e.tid}`),
  );
  const events = traceEvents.filter((e) => e.ph === "X" && main.has(`${e.pid}:${e.tid}`));
  const nav = traceEvents.find(
    (e) => e.name === "navigationStart" || e.name === "NavigationTiming",
  );
  const t0 = Math.min(...events.map((e) => e.ts));
  const sums = new Map<string, number>();
  for (const e of events) sums.set(e.name, (sums.get(e.name) ?? 0) + (e.dur ?? 0) / 1000);
  console.log(`first row ${firstRow.toFixed(0)} ms; nav event ${nav ? "yes" : "no"}`);
  console.log(
    [...sums]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 40)
      .map(([k, v]) => `${v.toFixed(1).padStart(8)} ms  ${k}`)
      .join("\n"),
  );
  const tasks = events.filter(
    (e) =>
      (e.name === "RunTask" || e.name === "ThreadControllerImpl::RunTask") && (e.dur ?? 0) > 20000,
  );
  for (const task of tasks) {
    const inner = events.filter(
      (e) =>
        e.ts >= task.ts &&
        e.ts < task.ts + (task.dur ?? 0) &&
        e !== task &&
        (e.dur ?? 0) > 8000 &&
        !/RunTask|callFunction|FunctionCall|Accept|AsyncTask/.test(e.name),
    );
    console.log(
      `task at +${((task.ts - t0) / 1000).toFixed(0)} ms, ${((task.dur ?? 0) / 1000).toFixed(0)} ms: ` +
        inner.map((e) => `${e.name} ${((e.dur ?? 0) / 1000).toFixed(0)}`).join(", "),
    );
  }
}

async function main(): Promise<void> {
  const server = await startPerfServer(Number(process.env.PERF_PORT ?? 4397));
  const browser = await launchChromium();
  try {
    const context = await newPerfContext(browser);
    await context.addInitScript(recordFirstRow);
    await context.addInitScript(() => {
      const w = window as unknown as { __longTasks: number[][] };
      w.__longTasks = [];
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries())
          w.__longTasks.push([entry.startTime, entry.duration]);
      }).observe({ type: "longtask", buffered: true });
    });
    const page = await context.newPage();
    if (process.argv.includes("--trace")) {
      await browser.startTracing(page, {
        categories: [
          "devtools.timeline",
          "v8",
          "blink",
          "disabled-by-default-devtools.timeline",
          "disabled-by-default-v8.compile",
        ],
      });
      const shown = waitForFirstRow(page);
      await page.goto(`${server.state.baseURL}${server.state.seededThreadPath}`);
      await shown;
      const firstRow = await page.evaluate(
        () => (window as unknown as { __perfFirstRow: number }).__perfFirstRow,
      );
      const trace = await browser.stopTracing();
      summarizeTrace(trace, firstRow);
      return;
    }
    const cdp = await context.newCDPSession(page);
    await cdp.send("Profiler.enable");
    await cdp.send("Profiler.setSamplingInterval", { interval: 200 });
    await cdp.send("Profiler.start");
    const shown = waitForFirstRow(page);
    const stopAtDcl = process.env.STOP_AT === "dcl";
    await page.goto(`${server.state.baseURL}${server.state.seededThreadPath}`, {
      waitUntil: stopAtDcl ? "domcontentloaded" : "load",
    });
    if (!stopAtDcl) await shown;
    const { profile } = (await cdp.send("Profiler.stop")) as unknown as { profile: CpuProfile };
    if (stopAtDcl) await shown;
    const info = await page.evaluate(() => {
      const w = window as unknown as { __perfFirstRow: number; __longTasks: number[][] };
      const nav = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming;
      return {
        firstRow: w.__perfFirstRow,
        dcl: nav.domContentLoadedEventEnd,
        longTasks: w.__longTasks,
      };
    });
    console.log(
      `first row ${info.firstRow.toFixed(0)} ms, DOMContentLoaded ${info.dcl.toFixed(0)} ms`,
    );
    await page.waitForTimeout(1500);
    console.log(
      await page.evaluate(() => ({
        rowsAtFirst: (window as unknown as { __perfRowsAtFirst: number }).__perfRowsAtFirst,
        rowsNow: document.querySelectorAll("[data-message-id]").length,
        textChars: [...document.querySelectorAll("[data-message-id]")].reduce(
          (n, el) => n + (el.textContent?.length ?? 0),
          0,
        ),
        heights: [...document.querySelectorAll("[data-message-id]")]
          .map((el) => Math.round(el.getBoundingClientRect().height))
          .join(","),
      })),
    );
    console.log(
      "long tasks (start, duration):",
      info.longTasks.map(([s, d]) => `${s!.toFixed(0)}+${d!.toFixed(0)}`).join(", "),
    );
    const byId = new Map(profile.nodes.map((node) => [node.id, node]));
    const self = new Map<number, number>();
    profile.samples.forEach((id, i) => {
      self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
    });
    const byScript = new Map<string, number>();
    const byFunction = new Map<string, number>();
    for (const [id, time] of self) {
      const frame = byId.get(id)!.callFrame;
      const script = frame.url.replace(/^.*\//, "") || `(${frame.functionName || "native"})`;
      byScript.set(script, (byScript.get(script) ?? 0) + time);
      const fn = `${frame.functionName || "(anonymous)"} ${script}:${frame.lineNumber + 1}:${frame.columnNumber + 1}`;
      byFunction.set(fn, (byFunction.get(fn) ?? 0) + time);
    }
    const top = (map: Map<string, number>, n: number) =>
      [...map]
        .sort((a, b) => b[1] - a[1])
        .slice(0, n)
        .map(([k, v]) => `${v.toFixed(1).padStart(7)} ms  ${k}`)
        .join("\n");
    console.log(
      `\nself time by script (profile ${((profile.endTime - profile.startTime) / 1000).toFixed(0)} ms):\n${top(byScript, 12)}`,
    );
    console.log(`\nself time by function:\n${top(byFunction, 40)}`);
    // Inclusive time of selected functions (outermost occurrence only, so recursion is not double counted).
    const parent = new Map<number, number>();
    for (const node of profile.nodes)
      for (const child of node.children ?? []) parent.set(child, node.id);
    const watch = (
      process.env.WATCH ??
      "renderMarkdownBlock,cachedMarkdownBlock,splitMarkdownBlocks,measureContainersInLayoutEffect,TimelineRowView,ChatMarkdown,LegendListInner2,Composer,parse,runSync,toJsxRuntime,fromMarkdown,AppShell,ThreadRoute,ThreadView,takeThreadPrefetch"
    ).split(",");
    const inclusive = new Map<string, number>();
    profile.samples.forEach((id, i) => {
      const seen = new Set<string>();
      for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
        const name = byId.get(cur)!.callFrame.functionName;
        if (watch.includes(name)) seen.add(name);
      }
      for (const name of seen)
        inclusive.set(name, (inclusive.get(name) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
    });
    if (process.env.LINES) {
      const [file, fn] = process.env.LINES.split(":");
      const lines = new Map<number, number>();
      for (const node of profile.nodes) {
        if (!node.callFrame.url.includes(file!) || node.callFrame.functionName !== (fn ?? ""))
          continue;
        for (const tick of node.positionTicks ?? [])
          lines.set(tick.line, (lines.get(tick.line) ?? 0) + tick.ticks);
      }
      console.log(
        "ticks by line:",
        [...lines]
          .sort((a, b) => b[1] - a[1])
          .slice(0, 25)
          .map(([l, t]) => `${l}:${t}`)
          .join(" "),
      );
    }
    console.log(`\ninclusive:\n${top(inclusive, 30)}`);
    const under = process.env.UNDER ?? "renderMarkdownBlock";
    const selfUnder = new Map<string, number>();
    profile.samples.forEach((id, i) => {
      let inside = false;
      for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
        if (byId.get(cur)!.callFrame.functionName === under) inside = true;
      }
      if (!inside) return;
      const f = byId.get(id)!.callFrame;
      const key = `${f.functionName || "(anonymous)"}:${f.lineNumber + 1}`;
      selfUnder.set(key, (selfUnder.get(key) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
    });
    console.log(`\nself time under ${under}:\n${top(selfUnder, 25)}`);
    await context.close();
  } finally {
    await browser.close();
    await server.stop();
  }
}

await main();
