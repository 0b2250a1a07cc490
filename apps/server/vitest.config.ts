import { defineProject } from "vitest/config";

export default defineProject({
  test: {
    name: "server",
    environment: "node",
    include: ["src/**/*.test.ts"],
    // Needs PostgreSQL: runs in the server-pg project (vitest.postgres.config.ts).
    exclude: ["src/**/*.postgres.test.ts"],
    benchmark: { include: ["bench/**/*.bench.ts"] },
    testTimeout: 20_000,
  },
});
