// The one Vitest configuration the root scripts use (`vitest --config vitest.workspace.ts`).
// Vitest 4 removed workspace files, so this file is a plain config holding `test.projects`;
// `vitest.config.ts` re-exports it so a bare `vitest` run sees the same projects.
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    // apps/web has two projects: `web` (jsdom, its vitest.config.ts) and `web-node`.
    projects: ["packages/*", "apps/*", "apps/web/vitest.node.config.ts"],
  },
});
