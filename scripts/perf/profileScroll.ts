/**
 * Where the renderer's main thread spends its time while the seeded 2,000-turn thread is
 * scrolled from the bottom to the top (the same fling as `run.ts --only scroll`): a Chromium
 * timeline trace summed by event name, the longest tasks broken down into their parts, and a
 * CPU profile summarized by function. Diagnostic only (not part of `npm test`):
 *
 *   pnpm --filter @app/web build && pnpm exec tsx scripts/perf/profileScroll.ts [seconds]
 *
 * `seconds` (default 20) bounds the scroll. With TRACE=1 a Chromium trace is recorded too (CPU
 * time per thread, main-thread events by name, the longest tasks' parts); tracing itself slows
 * the renderer, so leave it off when looking at the long stretches.
 *
 * Function names survive only in an unminified build:
 *   (cd apps/web && pnpm exec vite build --minify false --outDir /tmp/dist-nomin)
 *   WEB_DIST=/tmp/dist-nomin pnpm exec tsx scripts/perf/profileScroll.ts
 *
 * PROFILE_OUT=file.cpuprofile also saves the CPU profile (DevTools' Performance panel opens it).
 */
import { writeFileSync } from "node:fs";
import { launchChromium, newPerfContext, startPerfServer } from "./rig.ts";
import type { CpuProfile, TraceEvent } from "./trace.ts";

const top = (map: Map<string, number>, n: number) =>
  [...map]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([k, v]) => `${v.toFixed(1).padStart(9)} ms  ${k}`)
    .join("\n");

/** Per-thread CPU time, main-thread events by name, and the longest main-thread tasks. */
function summarizeTrace(trace: Buffer): void {
  const { traceEvents } = JSON.parse(trace.toString("utf8")) as { traceEvents: TraceEvent[] };
  const threadNames = new Map<string, string>();
  const processNames = new Map<number, string>();
  for (const e of traceEvents) {
    if (e.ph !== "M") continue;
    if (e.name === "thread_name") threadNames.set(`${e.pid}:${e.tid}`, e.args?.name ?? "?");
    if (e.name === "process_name") processNames.set(e.pid, e.args?.name ?? "?");
  }
  // What the renderer's main thread competes with for the machine's cores.
  const byThread = new Map<string, number>();
  for (const e of traceEvents) {
    if (e.ph !== "X" || e.name !== "ThreadControllerImpl::RunTask") continue;
    const name = `${processNames.get(e.pid) ?? e.pid} / ${threadNames.get(`${e.pid}:${e.tid}`) ?? e.tid}`;
    byThread.set(name, (byThread.get(name) ?? 0) + (e.tdur ?? 0) / 1000);
  }
  console.log(`\nCPU time of top-level tasks by thread:\n${top(byThread, 12)}`);

  const events = traceEvents.filter(
    (e) => e.ph === "X" && threadNames.get(`${e.pid}:${e.tid}`) === "CrRendererMain",
  );
  const sums = new Map<string, number>();
  for (const e of events) {
    const name =
      e.name === "FunctionCall"
        ? `FunctionCall ${e.args?.data?.functionName || "?"} ${(e.args?.data?.url ?? "").replace(/^.*\//, "")}`
        : e.name;
    sums.set(name, (sums.get(name) ?? 0) + (e.dur ?? 0) / 1000);
  }
  console.log(`\nmain-thread events by name (nested ones counted in each):\n${top(sums, 30)}`);

  const tasks = events
    .filter((e) => e.name === "ThreadControllerImpl::RunTask" && (e.dur ?? 0) > 25_000)
    .sort((a, b) => (b.dur ?? 0) - (a.dur ?? 0))
    .slice(0, 12);
  console.log("\nlongest main-thread tasks (wall / cpu ms): parts over 2 ms");
  for (const task of tasks) {
    const end = task.ts + (task.dur ?? 0);
    const parts = events.filter(
      (e) =>
        e !== task &&
        e.ts >= task.ts &&
        e.ts < end &&
        (e.dur ?? 0) > 2000 &&
        !/RunTask|v8\.callFunction/.test(e.name),
    );
    console.log(
      `${((task.dur ?? 0) / 1000).toFixed(0)} / ${((task.tdur ?? 0) / 1000).toFixed(0)}: ` +
        parts
          .map((e) => {
            const fn = e.name === "FunctionCall" ? `(${e.args?.data?.functionName || "?"})` : "";
            return `${e.name}${fn} ${((e.dur ?? 0) / 1000).toFixed(1)}`;
          })
          .join(", "),
    );
  }
}

/**
 * Self and inclusive time by function over the whole scroll, then the same within each long
 * busy stretch: consecutive samples with the main thread not idle (gaps under 2 ms joined).
 */
function summarizeProfile(profile: CpuProfile): void {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes)
    for (const child of node.children ?? []) parent.set(child, node.id);
  const label = (id: number) => {
    const frame = byId.get(id)!.callFrame;
    return `${frame.functionName || "(anonymous)"} ${frame.url.replace(/^.*\//, "") || "native"}:${frame.lineNumber + 1}`;
  };
  // Each function once per sample, however deep it recurses.
  const addInclusive = (into: Map<string, number>, id: number, ms: number) => {
    const seen = new Set<string>();
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const name = byId.get(cur)!.callFrame.functionName;
      if (name && name !== "(root)") seen.add(name);
    }
    for (const name of seen) into.set(name, (into.get(name) ?? 0) + ms);
  };

  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const ms = (profile.timeDeltas[i] ?? 0) / 1000;
    self.set(label(id), (self.get(label(id)) ?? 0) + ms);
    addInclusive(inclusive, id, ms);
  });
  console.log(`\nCPU profile, self time by function:\n${top(self, 30)}`);
  console.log(`\nCPU profile, inclusive time by function name:\n${top(inclusive, 60)}`);

  const idle = new Set(
    profile.nodes.filter((n) => n.callFrame.functionName === "(idle)").map((n) => n.id),
  );
  const stretches: { start: number; end: number; samples: number[] }[] = [];
  let clock = profile.startTime;
  let current: (typeof stretches)[number] | null = null;
  profile.samples.forEach((id, i) => {
    clock += profile.timeDeltas[i] ?? 0;
    if (idle.has(id)) {
      if (current && clock - current.end > 2000) current = null;
      return;
    }
    if (!current) {
      current = { start: clock, end: clock, samples: [] };
      stretches.push(current);
    }
    current.end = clock;
    current.samples.push(i);
  });
  const long = stretches
    .filter((s) => s.end - s.start > 30_000)
    .sort((a, b) => b.end - b.start - (a.end - a.start));
  console.log(`\n${long.length} busy stretches over 30 ms`);
  for (const stretch of long.slice(0, Number(process.env.STRETCHES ?? 8))) {
    const within = new Map<string, number>();
    for (const i of stretch.samples)
      addInclusive(within, profile.samples[i]!, (profile.timeDeltas[i] ?? 0) / 1000);
    console.log(
      `\nstretch of ${((stretch.end - stretch.start) / 1000).toFixed(0)} ms:\n${top(within, 30)}`,
    );
  }
}

async function main(): Promise<void> {
  const seconds = Number(process.argv[2] ?? 20);
  const server = await startPerfServer(Number(process.env.PERF_PORT ?? 4396));
  const browser = await launchChromium();
  try {
    const context = await newPerfContext(browser);
    const page = await context.newPage();
    await page.goto(`${server.state.baseURL}${server.state.seededThreadPath}`);
    await page.getByText(`Answer ${server.state.seededTurns} looks at`).waitFor();
    await page.waitForTimeout(1500);
    const cdp = await context.newCDPSession(page);
    await cdp.send("Profiler.enable");
    await cdp.send("Profiler.setSamplingInterval", { interval: 500 });
    const withTrace = process.env.TRACE === "1";
    if (withTrace) {
      await browser.startTracing(page, {
        categories: ["toplevel", "devtools.timeline", "disabled-by-default-devtools.timeline"],
      });
    }
    await cdp.send("Profiler.start");
    const frames = await page.evaluate(async (limit) => {
      const row = document.querySelector("[data-message-id]");
      let el: HTMLElement | null = row?.parentElement ?? null;
      while (
        el &&
        !(el.scrollHeight > el.clientHeight && /auto|scroll/.test(getComputedStyle(el).overflowY))
      )
        el = el.parentElement;
      if (!el) throw new Error("no timeline scroller");
      const scroller = el;
      const deltas: number[] = [];
      const started = performance.now();
      await new Promise<void>((resolve) => {
        let last = -1;
        const frame = (now: number) => {
          if (last >= 0) deltas.push(now - last);
          last = now;
          if (
            now - started > limit * 1000 ||
            (scroller.scrollTop <= 0 && document.querySelector("[data-timeline-start]"))
          )
            return resolve();
          scroller.scrollTop = Math.max(0, scroller.scrollTop - 600);
          requestAnimationFrame(frame);
        };
        requestAnimationFrame(frame);
      });
      return {
        count: deltas.length,
        over16: deltas.filter((d) => d > 16.7).length,
        over33: deltas.filter((d) => d > 34).length,
        over50: deltas.filter((d) => d > 50).length,
        rows: document.querySelectorAll("[data-message-id]").length,
        nodes: scroller.querySelectorAll("*").length,
      };
    }, seconds);
    const { profile } = (await cdp.send("Profiler.stop")) as unknown as { profile: CpuProfile };
    const trace = withTrace ? await browser.stopTracing() : null;
    console.log(frames);
    if (trace && process.env.TRACE_OUT) writeFileSync(process.env.TRACE_OUT, trace);
    if (trace) summarizeTrace(trace);
    if (process.env.PROFILE_OUT) writeFileSync(process.env.PROFILE_OUT, JSON.stringify(profile));
    summarizeProfile(profile);
  } finally {
    await browser.close();
    await server.stop();
  }
}

await main();
