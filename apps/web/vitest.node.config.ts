import { defineProject } from "vitest/config";
import { NODE_TESTS } from "./vitest.nodeTests.ts";

/** Web tests that need no DOM, in plain Node (see vitest.nodeTests.ts). */
export default defineProject({
  test: {
    name: "web-node",
    environment: "node",
    include: NODE_TESTS,
    // The web benchmarks (typing.bench.tsx) need jsdom: they belong to project `web`.
    benchmark: { include: [] },
  },
});
