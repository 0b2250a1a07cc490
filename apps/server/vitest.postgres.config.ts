// The server's contract suite again, on PostgreSQL: every repository and API test runs against
// a throwaway cluster started once per run (src/testing/postgresGlobalSetup.ts). Included by
// the root vitest.workspace.ts only where a cluster can be started.
import { defineProject } from "vitest/config";

export const POSTGRES_TEST_FILES = [
  "src/storage/repository.test.ts",
  "src/storage/versions.test.ts",
  "src/storage/citationIndex.test.ts",
  "src/storage/searchIndex.test.ts",
  "src/storage/searchIndexer.test.ts",
  "src/storage/searchIndexPieces.test.ts",
  "src/seed.searchText.test.ts",
  "src/seed.bulk.test.ts",
  "src/storage/threadLifecycle.test.ts",
  "src/http/api.*.test.ts",
  "src/http/export.test.ts",
  "src/turns.limits.test.ts",
  "src/demo.integration.test.ts",
  "src/domain/providerService.test.ts",
  "src/domain/turnWriter.test.ts",
  "src/domain/turnLease.test.ts",
  "src/domain/interruptedLog.test.ts",
  "src/turns.shutdown.test.ts",
  "src/crash.test.ts",
  "src/**/*.postgres.test.ts",
];

export default defineProject({
  test: {
    name: "server-pg",
    root: import.meta.dirname,
    environment: "node",
    // As in `server`: files share a worker's module graph (README, "Tests").
    isolate: false,
    include: POSTGRES_TEST_FILES,
    globalSetup: ["./src/testing/postgresGlobalSetup.ts", "./src/testing/testBundles.ts"],
    env: { CHAT_TEST_STORE: "postgres" },
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
