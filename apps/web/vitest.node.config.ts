import { configDefaults, defineProject } from "vitest/config";

/** Web tests that need no DOM, in plain Node: every test not named `*.dom.test.ts(x)`. */
export default defineProject({
  test: {
    name: "web-node",
    environment: "node",
    // Files share a worker's module graph (CONTRIBUTING.md, "Isolation").
    isolate: false,
    include: ["src/**/*.test.{ts,tsx}", "buildPlugins/**/*.test.ts"],
    exclude: [...configDefaults.exclude, "src/**/*.dom.test.{ts,tsx}"],
    // The web benchmarks (typing.bench.tsx) need jsdom: they belong to project `web`.
    benchmark: { include: [] },
  },
});
