// Runs the Playwright suite (root playwright.config.ts) and ends with the plain
// "N passed, N failed" line that CI reads. Extra arguments go to Playwright.
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync } from "node:fs";

mkdirSync("test-results", { recursive: true });
const out = "test-results/playwright.json";
const run = spawnSync(
  "pnpm",
  ["exec", "playwright", "test", "--reporter=line,json", ...process.argv.slice(2)],
  {
    stdio: "inherit",
    env: { ...process.env, PLAYWRIGHT_JSON_OUTPUT_NAME: out },
  },
);
let summary = "playwright: no report written";
try {
  const r = JSON.parse(readFileSync(out, "utf8"));
  summary =
    `playwright: ${r.stats.expected + r.stats.flaky} passed, ${r.stats.unexpected} failed` +
    (r.stats.skipped ? `, ${r.stats.skipped} skipped` : "");
} catch {}
console.log(summary);
process.exit(run.status ?? 1);
