#!/usr/bin/env node
// Prints the medians of a Vitest benchmark JSON report as a Markdown table, with the ratio of
// each baseline median to ours where a group has a "baseline" entry.
// Usage (from the repository root):
//   pnpm exec vitest bench --run --config vitest.workspace.ts --project citations --outputJson /tmp/bench.json
//   node packages/citations/bench/summarize.mjs /tmp/bench.json
import { readFileSync } from "node:fs";

const path = process.argv[2];
if (!path) {
  console.error("usage: node summarize.mjs <vitest-bench-output.json>");
  process.exit(2);
}
const report = JSON.parse(readFileSync(path, "utf8"));
const ms = (value) => (value >= 10 ? value.toFixed(1) : value.toFixed(3));

console.log("| group | case | median (ms) | p99 (ms) | samples | baseline / ours |");
console.log("|---|---|---:|---:|---:|---:|");
for (const file of report.files) {
  for (const group of file.groups) {
    const name = group.fullName.split(" > ").slice(1).join(" > ");
    const baseline = group.benchmarks.find((b) => b.name.startsWith("baseline"));
    for (const bench of group.benchmarks) {
      const ratio =
        baseline && bench !== baseline ? `${(baseline.median / bench.median).toFixed(1)}x` : "";
      console.log(
        `| ${name} | ${bench.name} | ${ms(bench.median)} | ${ms(bench.p99)} | ${bench.sampleCount} | ${ratio} |`,
      );
    }
  }
}
