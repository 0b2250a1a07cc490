import { defineProject } from "vitest/config";

export default defineProject({
  test: {
    name: "server",
    environment: "node",
    include: ["src/**/*.test.ts"],
    benchmark: { include: ["bench/**/*.bench.ts"] },
    testTimeout: 20_000,
  },
});
