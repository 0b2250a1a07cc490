import { defineProject } from "vitest/config";

export default defineProject({
  test: {
    name: "server",
    environment: "node",
    // Files share a worker's module graph instead of importing the server again each (see the
    // README, "Tests"): every test makes its own server, store and temp dir.
    isolate: false,
    include: ["src/**/*.test.ts"],
    // Needs PostgreSQL: runs in the server-pg project (vitest.postgres.config.ts).
    exclude: ["src/**/*.postgres.test.ts"],
    // The server and its search worker, bundled once per run (src/testing/testBundles.ts).
    globalSetup: ["./src/testing/testBundles.ts"],
    benchmark: { include: ["bench/**/*.bench.ts"] },
    testTimeout: 20_000,
    // As in server-pg: a beforeAll that seeds a store (api.citedBy's demo thread) outlasted
    // Vitest's 10 s default on a machine loaded to 20 runnable processes per 2 cores.
    hookTimeout: 60_000,
  },
});
