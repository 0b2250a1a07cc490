// `pnpm run check` (behind `npm test` and CI): every gate and both test suites, in two stages of
// steps run side by side, since none of them keeps both cores of a 2-core machine busy alone:
//   1. typecheck, lint, cycles and the build;
//   2. the unit projects (scripts/vitest-summary.mjs, one worker) and the browser suite
//      (scripts/playwright-summary.mjs, two workers, serving the build of stage 1).
// Each step's output is kept in test-results/check-<step>.log and printed whole when the step
// ends, so parallel steps never interleave lines. A failed stage 1 skips stage 2. Ends with the
// "total: N passed, N failed" line (scripts/total-summary.mjs). CHECK_SERIAL=1 runs the steps one
// at a time, in order, printing as they go.
import { spawn } from "node:child_process";
import { createWriteStream, mkdirSync, readFileSync } from "node:fs";

const serial = process.env.CHECK_SERIAL === "1";
const STAGES = [
  [
    ["typecheck", "pnpm", ["run", "typecheck"]],
    ["lint", "pnpm", ["run", "lint"]],
    ["cycles", "pnpm", ["run", "cycles"]],
    ["build", "pnpm", ["run", "build"]],
  ],
  [
    // Beside the browser suite (the longer of the two, about a core busy with its two workers)
    // one Vitest worker, not one per core: the unit suite alone already uses more than one core.
    ["unit", "node", ["scripts/vitest-summary.mjs", ...(serial ? [] : ["--maxWorkers=1"])]],
    ["e2e", "node", ["scripts/playwright-summary.mjs"]],
  ],
];

mkdirSync("test-results", { recursive: true });

/** Runs one step; resolves to its exit code and wall time. */
function runStep([name, command, args]) {
  const started = performance.now();
  const log = `test-results/check-${name}.log`;
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: serial ? "inherit" : ["ignore", "pipe", "pipe"] });
    const file = serial ? null : createWriteStream(log);
    if (file) {
      child.stdout.pipe(file, { end: false });
      child.stderr.pipe(file, { end: false });
    }
    child.once("close", (code, signal) => {
      const report = () => {
        const seconds = ((performance.now() - started) / 1000).toFixed(1);
        if (file) process.stdout.write(`\n===== ${name} =====\n${readFileSync(log, "utf8")}`);
        const status = code === 0 ? "ok" : `FAILED (${signal ?? `exit ${code}`})`;
        console.log(`===== ${name}: ${status} in ${seconds} s =====`);
        resolve(code ?? 1);
      };
      if (file) file.end(report);
      else report();
    });
  });
}

let failed = false;
for (const stage of STAGES) {
  const codes = [];
  if (serial) {
    for (const step of stage) {
      codes.push(await runStep(step));
      if (codes.at(-1) !== 0) break;
    }
  } else {
    codes.push(...(await Promise.all(stage.map(runStep))));
  }
  if (codes.some((code) => code !== 0)) {
    failed = true;
    break;
  }
}
if (!failed) {
  const total = spawn("node", ["scripts/total-summary.mjs"], { stdio: "inherit" });
  const code = await new Promise((resolve) => total.once("close", resolve));
  process.exit(code ?? 1);
}
process.exit(1);
