// Runs every Vitest project through vitest.workspace.ts and ends with the plain
// "N passed, N failed" line that CI reads. Extra arguments go to Vitest (e.g. --project citations).
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync } from "node:fs";

mkdirSync("test-results", { recursive: true });
const out = "test-results/vitest.json";
/**
 * The arguments for Vitest. `pnpm test:unit -- --project citations` hands this script a literal
 * `--` first; passed on, Vitest would read everything after it as file filters and run every
 * project, so it is dropped.
 */
function vitestArgs(args) {
  return args[0] === "--" ? args.slice(1) : args;
}

const args = [
  "exec",
  "vitest",
  "run",
  "--config",
  "vitest.workspace.ts",
  "--reporter=default",
  "--reporter=json",
  `--outputFile.json=${out}`,
  ...vitestArgs(process.argv.slice(2)),
];
const run = spawnSync("pnpm", args, { stdio: "inherit" });
let summary = "vitest: no report written";
try {
  const r = JSON.parse(readFileSync(out, "utf8"));
  summary =
    `vitest: ${r.numPassedTests} passed, ${r.numFailedTests} failed` +
    (r.numPendingTests ? `, ${r.numPendingTests} skipped` : "");
  if (r.numTotalTests === 0) {
    console.log(summary);
    console.error("No unit test ran.");
    process.exit(1);
  }
} catch {}
console.log(summary);
process.exit(run.status ?? 1);
