/**
 * Browser performance measurements for the chat app (not part of `npm test`):
 *
 *   pnpm --filter @app/web build && pnpm exec tsx scripts/perf/run.ts [--only open,baseline,typing,bigdraft,toolbar,find,depths,jumps]
 *
 * `open` prints the cold open (first row, FCP, critical-path bytes) and the warm reopen;
 * `baseline` opens the same thread side by side with a naive react-markdown list (sideBySide.ts)
 * and prints ours/baseline ratios for open, heap and long frames while scrolling to the top
 * (SIDE_OPEN_RUNS, default 5, and SIDE_SCROLL_RUNS, default 2, runs each, alternately).
 *
 * Starts the e2e rig server on PERF_PORT (default 4398) with a seeded 2,000-turn thread, drives
 * Debian's Chromium headless, and prints the results as Markdown (for the root PERFORMANCE.md) and
 * JSON. Targets: first message < 1 s (median of 5), no frame > 50 ms while scrolling, keystroke
 * to paint < 16 ms median with 100 chips in the composer, and < 16 ms median, < 33 ms worst
 * typing into a 120,000-character draft with 50 citation chips; mouse-up to the selection
 * toolbar after a drag < 100 ms median; citation jumps (click to cited
 * words highlighted in view) < 300 ms in view and < 600 ms at any depth, Jump to latest < 300 ms,
 * heap after 10 jumps within 1.5× of the heap after opening; find steps (Enter to the next of
 * 50 matches spread over 2,000 turns highlighted in view) < 150 ms median; `depths` (issue 32):
 * chip click to the cited words highlighted fully in view, 20 clicks each at 1, 20, 300 and
 * 1,900 turns back (JUMP_DEPTH_RUNS), < 150 ms median at every depth.
 */
import { cpus } from "node:os";
import { measureCitationJumps } from "./citationJumps.ts";
import { FIND_STEP_QUERY, measureFindSteps } from "./findSteps.ts";
import { JUMP_DEPTH_RUNS, measureJumpDepths } from "./jumpDepths.ts";
import { measureOpenThread, type OpenRun } from "./openThread.ts";
import { launchChromium, startPerfServer } from "./rig.ts";
import { GESTURE_SPEED_PX_S, measureScrollGesture } from "./scrollGesture.ts";
import { measureScroll, SCROLL_STEP_PX } from "./scrollThread.ts";
import { measureSelectionToolbar } from "./selectionToolbar.ts";
import { measureSideBySide } from "./sideBySide.ts";
import { median, ms } from "./stats.ts";
import { BIG_DRAFT_WITH_QUOTES, measureTyping, type TypingResult } from "./typingChips.ts";

const STEPS = [
  "open",
  "baseline",
  "scroll",
  "gesture",
  "typing",
  "bigdraft",
  "toolbar",
  "find",
  "depths",
  "jumps",
] as const;
type Step = (typeof STEPS)[number];

function parseOnly(argv: string[]): Set<Step> {
  const index = argv.indexOf("--only");
  if (index === -1) return new Set(STEPS);
  const names = (argv[index + 1] ?? "").split(",").filter(Boolean);
  const bad = names.filter((name) => !(STEPS as readonly string[]).includes(name));
  if (names.length === 0 || bad.length > 0) {
    throw new Error(
      `--only takes a comma-separated list of ${STEPS.join(", ")} (got "${argv[index + 1] ?? ""}").`,
    );
  }
  return new Set(names as Step[]);
}

const pass = (ok: boolean) => (ok ? "meets target" : "**misses target**");

async function main(): Promise<void> {
  const only = parseOnly(process.argv.slice(2));
  const port = Number(process.env.PERF_PORT ?? 4398);
  const server = await startPerfServer(port);
  const browser = await launchChromium();
  const lines: string[] = [];
  // Each result is also printed as soon as it is measured, so a later failure loses nothing.
  const report = (line: string) => {
    lines.push(line);
    console.log(line);
  };
  const json: Record<string, unknown> = {
    date: new Date().toISOString(),
    cpus: cpus().length,
    chromium: browser.version(),
  };
  try {
    if (only.has("open")) {
      const open = await measureOpenThread(browser, server.state, 5);
      json.open = open;
      const row = (label: string, runs: OpenRun[], value: number, target: number) => {
        const mid = runs.map((run) => run.firstRow).indexOf(value);
        const pick = runs[mid === -1 ? 0 : mid]!;
        const kb = (bytes: number) => `${(bytes / 1024).toFixed(0)} KB`;
        return `| Open the 2,000-turn thread (${label}): navigation start to first message row visible on screen, median of 5 | ${ms(value)} (runs: ${runs.map((run) => run.firstRow.toFixed(0)).join(", ")} ms; attached to the DOM: median ${ms(median(runs.map((run) => run.firstRowAttached)))}; the app's own first row visible: median ${ms(median(runs.map((run) => run.firstAppRow)))}; FCP median ${ms(median(runs.map((run) => run.fcp)))}; median run: thread ${pick.detail.toFixed(0)}, newest page ${pick.messages.toFixed(0)}, entry script loaded ${pick.script.toFixed(0)}, DOMContentLoaded ${pick.domContentLoaded.toFixed(0)} ms, critical path ${pick.critical.requests} requests, ${kb(pick.critical.transferred)} transferred, ${kb(pick.critical.decoded)} decoded; first code block highlighted at ${median(runs.map((run) => run.highlighted)).toFixed(0)} ms, median) | < ${target.toLocaleString("en")} ms: ${pass(value < target)} |`;
      };
      report(row("cold: fresh context, nothing cached", open.cold, open.coldMedian, 400));
      report(row("warm: app assets cached", open.warm, open.warmMedian, 200));
    }
    if (only.has("baseline")) {
      const side = await measureSideBySide(browser, server.state, {
        openRuns: Number(process.env.SIDE_OPEN_RUNS ?? 5),
        scrollRuns: Number(process.env.SIDE_SCROLL_RUNS ?? 2),
        port: port + 1,
      });
      json.baseline = side;
      const list = (values: number[], digits = 0) =>
        values.map((v) => v.toFixed(digits)).join(", ");
      const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
      for (const [name, runs] of [
        ["ours", side.ours],
        [`naive baseline (react-markdown, all ${side.baselineMessages} messages)`, side.baseline],
      ] as const) {
        report(
          `| Side by side, ${name}: cold open to first row / FCP / heap after GC, median of ${runs.open.length} | ${ms(median(runs.open.map((r) => r.firstRow)))} / ${ms(median(runs.open.map((r) => r.fcp)))} / ${mb(median(runs.open.map((r) => r.heap)))} MB (first row runs: ${list(runs.open.map((r) => r.firstRow))} ms; heap runs: ${list(
            runs.open.map((r) => r.heap / 1024 / 1024),
            1,
          )} MB) | |`,
        );
        if (runs.scroll.length > 0)
          report(
            `| Side by side, ${name}: scroll to the top at ${SCROLL_STEP_PX} px per frame, ${runs.scroll.length} runs | frames over 50 ms: ${list(runs.scroll.map((r) => r.over50))}; long animation frames: ${list(runs.scroll.map((r) => r.longAnimationFrames))}; longest frame ${list(runs.scroll.map((r) => r.longestFrame))} ms; ${list(runs.scroll.map((r) => r.frames))} frames in ${list(
              runs.scroll.map((r) => r.seconds),
              1,
            )} s${runs.scroll.every((r) => r.reachedTop) ? "" : " (**did not reach the top**)"} | |`,
          );
      }
      const x = (value: number) => `${value.toFixed(2)}×`;
      report(
        `| Ours / naive baseline (medians, runs alternated) | open to first row ${x(side.ratios.firstRow)}, FCP ${x(side.ratios.fcp)}, heap ${x(side.ratios.heap)}, frames over 50 ms while scrolling to the top ${Number.isNaN(side.ratios.longFrames) ? "not measured (SIDE_SCROLL_RUNS=0)" : x(side.ratios.longFrames)} | below 1× |`,
      );
    }
    if (only.has("scroll")) {
      const scroll = await measureScroll(browser, server.state);
      json.scroll = scroll;
      report(
        `| Scroll bottom to top (${SCROLL_STEP_PX} px per frame, ${scroll.seconds.toFixed(1)} s, ${scroll.pagesLoaded} older pages loaded${scroll.reachedBeginning ? "" : ", **did not reach the beginning**"}) | ${scroll.frames} frames; ${scroll.over16} over 16.7 ms; ${scroll.over34} over 34 ms; ${scroll.over50} over 50 ms; longest ${ms(scroll.longestFrame)}; p95 ${ms(scroll.p95Frame)}; ${scroll.traced ? `renderer main-thread tasks over 50 ms: ${scroll.tasksOver50Wall} by wall time, ${scroll.tasksOver50Cpu} by CPU time (longest ${ms(scroll.longestTaskCpu)} CPU; ${scroll.rendererCpuSeconds.toFixed(1)} s CPU in all)` : "not traced (PERF_TRACE=1 adds the renderer's tasks)"}; ${scroll.longAnimationFrames} long animation frames${scroll.longAnimationFrames ? ` (longest ${ms(scroll.longestAnimationFrame)})` : ""} | no frame > 50 ms: ${pass(scroll.over50 === 0)} |`,
      );
    }
    if (only.has("gesture")) {
      const fling = await measureScrollGesture(browser, server.state);
      json.gesture = fling;
      report(
        `| Scroll bottom to top with wheel input (CDP scroll gestures at ${GESTURE_SPEED_PX_S.toLocaleString("en")} px/s, ${fling.seconds.toFixed(1)} s, ${fling.pagesLoaded} older pages loaded${fling.reachedBeginning ? "" : ", **did not reach the beginning**"}) | ${fling.frames} frames; ${fling.over16} over 16.7 ms; ${fling.over34} over 34 ms; ${fling.over50} over 50 ms; longest ${ms(fling.longestFrame)}; p95 ${ms(fling.p95Frame)}; ${fling.longAnimationFrames} long animation frames${fling.longAnimationFrames ? ` (longest ${ms(fling.longestAnimationFrame)})` : ""} | no frame > 50 ms: ${pass(fling.over50 === 0)} |`,
      );
    }
    const typingResult = (typing: TypingResult) =>
      `median ${ms(typing.median)}, p95 ${ms(typing.p95)}, worst ${ms(typing.worst)}; keydown to editor DOM updated: median ${ms(typing.workMedian)}, p95 ${ms(typing.workP95)}; renderer main-thread tasks over 16 ms CPU: ${typing.tasksOver16Cpu} (longest ${ms(typing.longestTaskCpu)} CPU)${typing.countMeasurements > 0 ? `; live count: ${typing.countMeasurements} measurements in idle time, median ${ms(typing.countMedian)}, longest ${ms(typing.countWorst)}` : ""}`;
    if (only.has("typing")) {
      const typing = await measureTyping(browser, server.state);
      json.typing = typing;
      report(
        `| Typing with ${typing.chips} chips in the composer: keydown to next painted frame (${typing.keystrokes} keys at spread frame phases) | ${typingResult(typing)} | median < 16 ms: ${pass(typing.median < 16)} |`,
      );
    }
    if (only.has("bigdraft")) {
      const typing = await measureTyping(
        browser,
        server.state,
        BIG_DRAFT_WITH_QUOTES,
        "typing at the end of a very long draft",
      );
      json.bigdraft = typing;
      report(
        `| Typing into a ${typing.draftLength.toLocaleString("en")}-character single-paragraph draft with ${typing.chips} citation chips (live count showing "N over"): keydown to next painted frame (${typing.keystrokes} keys at spread frame phases) | ${typingResult(typing)} | median < 16 ms, worst < 33 ms: ${pass(typing.median < 16 && typing.worst < 33)} |`,
      );
    }
    if (only.has("toolbar")) {
      const toolbar = await measureSelectionToolbar(browser, server.state);
      json.toolbar = toolbar;
      report(
        `| Selection toolbar after a drag: mouse-up to the frame showing "Cite in composer" (${toolbar.runs.length} drags) | median ${ms(toolbar.median)}, p95 ${ms(toolbar.p95)}, worst ${ms(toolbar.worst)} (runs: ${toolbar.runs.map((run) => run.toFixed(0)).join(", ")} ms) | median < 100 ms: ${pass(toolbar.median < 100)} |`,
      );
    }
    if (only.has("find")) {
      const find = await measureFindSteps(browser, server.state);
      json.find = find;
      report(
        `| Find in thread, "${FIND_STEP_QUERY}" (${find.matches} matches over 2,000 turns): Enter to the next match highlighted in view, ${find.runs.length} steps | median ${ms(find.median)}, p95 ${ms(find.p95)}, worst ${ms(find.worst)} | median < 150 ms: ${pass(find.median < 150)} |`,
      );
    }
    if (only.has("depths")) {
      const depths = await measureJumpDepths(browser, server.state);
      json.depths = depths;
      for (const depth of depths) {
        report(
          `| Citation jump ${depth.label}: chip click to cited words highlighted fully in view, median of ${JUMP_DEPTH_RUNS} | median ${ms(depth.median)}, worst ${ms(Math.max(...depth.runs))} | < 150 ms: ${pass(depth.median < 150)} |`,
        );
      }
    }
    // Last: it adds a turn to the seeded thread (a chip whose source is in view).
    if (only.has("jumps")) {
      const jumps = await measureCitationJumps(browser, server.state);
      json.jumps = jumps;
      for (const jump of jumps.cases) {
        const target = /in view|latest/.test(jump.label) ? 300 : 600;
        const end = /latest/.test(jump.label)
          ? "the newest message in view"
          : "cited words highlighted in view";
        report(
          `| Citation jump, ${jump.label}: click to ${end}, median of 5 | ${ms(jump.median)} (runs: ${jump.runs.map((run) => run.toFixed(0)).join(", ")} ms) | < ${target} ms: ${pass(jump.median < target)} |`,
        );
      }
      const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
      report(
        `| JS heap after 10 jumps back and forth vs after opening (after GC) | ${mb(jumps.heapAfterJumps)} vs ${mb(jumps.heapAfterOpen)} (${jumps.heapRatio.toFixed(2)}×) | within 1.5×: ${pass(jumps.heapRatio <= 1.5)} |`,
      );
    }
  } finally {
    await browser.close();
    await server.stop();
  }
  console.log(`\nChromium ${json.chromium}, ${json.cpus} CPUs, ${json.date}\n`);
  console.log("| Measurement | Result | Target |");
  console.log("| --- | --- | --- |");
  for (const line of lines) console.log(line);
  console.log(`\n${JSON.stringify(json)}`);
}

main().catch((error: unknown) => {
  console.error(`perf: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
});
