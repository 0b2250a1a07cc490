/**
 * Where a keystroke's time goes in the 120,000-character draft with 50 citation chips: a CPU
 * profile of the renderer while typing (the same keys as `run.ts --only bigdraft`), summarized
 * by function (self and inclusive time). Diagnostic only (not part of `npm test`):
 *
 *   pnpm --filter @app/web build && pnpm exec tsx scripts/perf/profileTyping.ts [--small]
 *
 * `--trace` sums the renderer's trace events (style, layout, paint) per key instead.
 * `--small` types into the 100-chip draft instead, to tell what scales with the draft's size.
 * `EXTRA_CSS='...'` adds a style sheet before typing (to try a CSS change without a build).
 * `CPU_THROTTLE=4` slows the renderer's CPU that many times (to see the draft's cost as under load).
 */
import type { Page } from "@playwright/test";
import { launchChromium, startPerfServer } from "./rig.ts";
import type { CpuProfile, TraceEvent } from "./trace.ts";
import { BIG_DRAFT_WITH_QUOTES, HUNDRED_CHIPS, measureTyping } from "./typingChips.ts";

function summarize(profile: CpuProfile): void {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes)
    for (const child of node.children ?? []) parent.set(child, node.id);
  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  const name = (id: number) => {
    const frame = byId.get(id)!.callFrame;
    const script = frame.url.replace(/^.*\//, "") || "native";
    return `${frame.functionName || "(anonymous)"} ${script}:${frame.lineNumber + 1}`;
  };
  profile.samples.forEach((id, i) => {
    const time = (profile.timeDeltas[i] ?? 0) / 1000;
    self.set(name(id), (self.get(name(id)) ?? 0) + time);
    const seen = new Set<string>();
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      seen.add(name(cur));
    }
    for (const key of seen) inclusive.set(key, (inclusive.get(key) ?? 0) + time);
  });
  const top = (map: Map<string, number>, n: number) =>
    [...map]
      .filter(([key]) => !/^\((root|program|idle)\)/.test(key))
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([key, ms]) => `${ms.toFixed(1).padStart(8)} ms  ${key}`)
      .join("\n");
  console.log(`self time:\n${top(self, 30)}\n\ninclusive time:\n${top(inclusive, 45)}`);
}

/** Renderer main-thread time by trace event name (nested events counted in each). */
function summarizeTrace(trace: Buffer, keys: () => number): () => void {
  const { traceEvents } = JSON.parse(trace.toString("utf8")) as { traceEvents: TraceEvent[] };
  const main = new Set(
    traceEvents
      .filter((e) => e.ph === "M" && e.name === "thread_name" && e.args?.name === "CrRendererMain")
      .map((e) => `${e.pid}:${e.tid}`),
  );
  const sums = new Map<string, [number, number]>();
  for (const e of traceEvents) {
    if (e.ph !== "X" || !main.has(`${e.pid}:${e.tid}`)) continue;
    // Events by DOM event type, script calls by function: the names alone hide where time goes.
    const data = e.args?.data as { type?: string; functionName?: string; url?: string } | undefined;
    const detail =
      e.name === "EventDispatch"
        ? ` ${data?.type ?? ""}`
        : e.name === "FunctionCall"
          ? ` ${data?.functionName || "(anonymous)"} ${(data?.url ?? "").replace(/^.*\//, "")}`
          : "";
    const key = `${e.name}${detail}`;
    const [total, count] = sums.get(key) ?? [0, 0];
    sums.set(key, [total + (e.dur ?? 0) / 1000, count + 1]);
  }
  return () => {
    const n = keys();
    console.log(
      `renderer main thread, per key (${n} keys):\n${[...sums]
        .sort((a, b) => b[1][0] - a[1][0])
        .slice(0, Number(process.env.TOP ?? 25))
        .map(
          ([name, [total, count]]) =>
            `${(total / n).toFixed(2).padStart(8)} ms  ${name} (${count}×)`,
        )
        .join("\n")}`,
    );
  };
}

async function main(): Promise<void> {
  const server = await startPerfServer(Number(process.env.PERF_PORT ?? 4397));
  const browser = await launchChromium();
  try {
    const small = process.argv.includes("--small");
    let keys = 0;
    let printTrace = () => {};
    const result = await measureTyping(
      browser,
      server.state,
      small ? HUNDRED_CHIPS : BIG_DRAFT_WITH_QUOTES,
      "typing at the end of a very long draft",
      {
        cpuThrottle: Number(process.env.CPU_THROTTLE ?? 1),
        ...(process.env.EXTRA_CSS
          ? {
              prepare: async (page: Page) => {
                await page.addStyleTag({ content: process.env.EXTRA_CSS });
              },
            }
          : {}),
        ...(process.argv.includes("--trace")
          ? {
              trace: (trace: Buffer) => {
                printTrace = summarizeTrace(trace, () => keys);
              },
            }
          : { cpuProfile: summarize }),
      },
    );
    keys = result.keystrokes;
    printTrace();
    console.log(
      `\n${result.keystrokes} keys: keydown to paint median ${result.median.toFixed(1)} ms, keydown to DOM median ${result.workMedian.toFixed(1)} ms`,
    );
  } finally {
    await browser.close();
    await server.stop();
  }
}

await main();
