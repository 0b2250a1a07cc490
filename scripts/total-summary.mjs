// Last line of `pnpm run check`: the unit and browser totals together, in the plain
// "N passed, N failed" form CI reads.
import { readFileSync } from "node:fs";

const unit = JSON.parse(readFileSync("test-results/vitest.json", "utf8"));
const e2e = JSON.parse(readFileSync("test-results/playwright.json", "utf8"));
const passed = unit.numPassedTests + e2e.stats.expected + e2e.stats.flaky;
const failed = unit.numFailedTests + e2e.stats.unexpected;
console.log(`total: ${passed} passed, ${failed} failed`);
