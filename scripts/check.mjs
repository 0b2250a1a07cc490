// `pnpm run check` (behind `npm test` and CI): every gate and both test suites, side by side,
// since none of them keeps both cores of a 2-core machine busy alone. Each step starts as soon as
// the steps it needs have passed:
//   - typecheck, lint, cycles, the build and the unit projects (scripts/vitest-summary.mjs, one
//     worker; they read the sources, and the server tests bundle what they run themselves) at once;
//   - the browser suite (scripts/playwright-summary.mjs, two workers) once the build it serves is
//     done: it is the longest step, mostly waiting on streamed replies and throttled pages, so it
//     starts first rather than after the slowest gate.
// Each step's output is kept in test-results/check-<step>.log and printed whole when the step
// ends, so parallel steps never interleave lines. A step whose need failed is skipped. Ends with
// the "total: N passed, N failed" line (scripts/total-summary.mjs). CHECK_SERIAL=1 runs the steps
// one at a time, in order, printing as they go, and stops at the first failure.
import { spawn } from "node:child_process";
import { createWriteStream, mkdirSync, readFileSync } from "node:fs";

const serial = process.env.CHECK_SERIAL === "1";
const STEPS = [
  { name: "typecheck", command: "pnpm", args: ["run", "typecheck"] },
  { name: "lint", command: "pnpm", args: ["run", "lint"] },
  { name: "cycles", command: "pnpm", args: ["run", "cycles"] },
  { name: "build", command: "pnpm", args: ["run", "build"] },
  {
    name: "unit",
    command: "node",
    args: ["scripts/vitest-summary.mjs", ...(serial ? [] : ["--maxWorkers=1"])],
  },
  { name: "e2e", command: "node", args: ["scripts/playwright-summary.mjs"], needs: ["build"] },
];

mkdirSync("test-results", { recursive: true });

/** Runs one step; resolves to its exit code and wall time. */
function runStep({ name, command, args }) {
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
if (serial) {
  for (const step of STEPS) {
    if ((await runStep(step)) !== 0) {
      failed = true;
      break;
    }
  }
} else {
  /** Each step's exit code (1 when skipped), by name. */
  const codes = new Map();
  for (const step of STEPS) {
    codes.set(
      step.name,
      (async () => {
        for (const need of step.needs ?? []) {
          if ((await codes.get(need)) !== 0) {
            console.log(`===== ${step.name}: skipped (${need} failed) =====`);
            return 1;
          }
        }
        return runStep(step);
      })(),
    );
  }
  failed = (await Promise.all(codes.values())).some((code) => code !== 0);
}
if (!failed) {
  const total = spawn("node", ["scripts/total-summary.mjs"], { stdio: "inherit" });
  const code = await new Promise((resolve) => total.once("close", resolve));
  process.exit(code ?? 1);
}
process.exit(1);
