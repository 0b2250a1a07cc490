// `pnpm cycles` (part of `pnpm run check`): the import rules of scripts/importRules.ts over the
// whole repository: no cycle between files of apps/ and packages/ nor between the folders of
// apps/web/src, and no import in a direction LAYER_RULES forbid. Exits 1 on any, listing each.
import {
  cycleMessages,
  edgesOf,
  importGraph,
  LAYER_RULES,
  layerViolations,
  SOURCE_ROOTS,
} from "./importRules.ts";

const graph = importGraph();
const problems = [
  ...cycleMessages(graph),
  ...layerViolations(edgesOf(graph)).map((line) => `forbidden import: ${line}`),
];
for (const problem of problems) console.error(problem);
if (problems.length > 0) {
  console.error(`import rules: ${problems.length} broken`);
  process.exit(1);
}
console.log(
  `import cycles: none among ${graph.size} files in ${SOURCE_ROOTS.join(", ")}; ` +
    `layers: ${LAYER_RULES.length} rules kept`,
);
