// The one Vitest configuration the root scripts use (`vitest --config vitest.workspace.ts`).
// Vitest 4 removed workspace files, so this file is a plain config holding `test.projects`;
// `vitest.config.ts` re-exports it so a bare `vitest` run sees the same projects.
//
// `server-pg` runs the server's contract suite again on a throwaway PostgreSQL cluster; it is
// left out, saying why, only where no cluster can be started.
import { defineConfig } from "vitest/config";
import { postgresUnavailableReason } from "./apps/server/src/testing/postgresCluster.ts";

const noPostgres = postgresUnavailableReason();
if (noPostgres !== null) {
  console.log(`PostgreSQL tests (server-pg) SKIPPED: ${noPostgres}.`);
}

export default defineConfig({
  test: {
    // One worker per core. Vitest's own default in a run is one less than the cores, which on a
    // 2-core CI machine is a single worker, while much of the server suites wait on SQLite,
    // PostgreSQL, child processes and HTTP rather than on the CPU.
    maxWorkers: "100%",
    // apps/web has two projects: `web` (jsdom, its vitest.config.ts) and `web-node`.
    projects: [
      "packages/*",
      "apps/*",
      "apps/web/vitest.node.config.ts",
      ...(noPostgres === null ? ["apps/server/vitest.postgres.config.ts"] : []),
    ],
  },
});
