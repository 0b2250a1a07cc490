#!/usr/bin/env node
// Prints the medians of one or more Vitest benchmark JSON reports as a Markdown table, with the
// ratio of the baseline's median to ours where a group has a "baseline" entry. Given several
// reports (repeated runs), each case shows its lowest median: on a shared machine the lowest
// median is the one least disturbed by other processes.
// Usage (from the repository root):
//   pnpm exec vitest bench --run --config vitest.workspace.ts --project citations --outputJson /tmp/bench-1.json
//   node packages/citations/bench/summarize.mjs /tmp/bench-1.json [/tmp/bench-2.json ...]
import { readFileSync } from "node:fs";

const paths = process.argv.slice(2);
if (paths.length === 0) {
  console.error("usage: node summarize.mjs <vitest-bench-output.json>...");
  process.exit(2);
}

/** group name -> case name -> lowest median, in first-seen order. */
const groups = new Map();
for (const path of paths) {
  const report = JSON.parse(readFileSync(path, "utf8"));
  for (const file of report.files) {
    for (const group of file.groups) {
      const name = group.fullName.split(" > ").slice(1).join(" > ");
      if (!groups.has(name)) groups.set(name, new Map());
      const cases = groups.get(name);
      for (const bench of group.benchmarks) {
        cases.set(
          bench.name,
          Math.min(cases.get(bench.name) ?? Number.POSITIVE_INFINITY, bench.median),
        );
      }
    }
  }
}

const ms = (value) => (value >= 10 ? value.toFixed(1) : value.toFixed(2));
const runs = paths.length === 1 ? "median (ms)" : `lowest median of ${paths.length} runs (ms)`;
console.log(`| group | case | ${runs} | baseline / ours |`);
console.log("|---|---|---:|---:|");
for (const [name, cases] of groups) {
  const baseline = [...cases].find(([caseName]) => caseName.startsWith("baseline"))?.[1];
  for (const [caseName, median] of cases) {
    const ratio =
      baseline !== undefined && !caseName.startsWith("baseline") && !caseName.startsWith("floor")
        ? `${(baseline / median).toFixed(1)}x`
        : "";
    console.log(`| ${name} | ${caseName} | ${ms(median)} | ${ratio} |`);
  }
}
