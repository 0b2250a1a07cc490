/**
 * Vitest global setup of `server` and `server-pg`: bundles the search indexer's worker
 * (`storage/searchTextWorker.ts`) once per run, as `scripts/build.mjs` bundles it for `npm start`,
 * and names the file in CHAT_TEST_SEARCH_WORKER_BUNDLE for `storage/searchTextRenderer.ts`.
 * From the sources, each store's worker would otherwise load tsx and every module of the
 * Markdown pipeline through it: about ten times the CPU of starting the bundle, and nearly every
 * test store starts one (every stored message is rendered there).
 */
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { build } from "esbuild";

const VARIABLE = "CHAT_TEST_SEARCH_WORKER_BUNDLE";

export default async function setup(): Promise<() => Promise<void>> {
  // Both projects run this in one process: the first one's bundle serves both.
  const built = process.env[VARIABLE];
  if (built && existsSync(built)) return async () => {};
  const dir = await mkdtemp(join(tmpdir(), "chat-search-worker-"));
  await build({
    entryPoints: [resolve(import.meta.dirname, "../storage/searchTextWorker.ts")],
    outfile: join(dir, "searchTextWorker.mjs"),
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    external: ["better-sqlite3"],
    // As scripts/build.mjs: a CommonJS dependency may call require(), which an ES module lacks.
    banner: {
      js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
    },
    logLevel: "warning",
  });
  process.env[VARIABLE] = join(dir, "searchTextWorker.mjs");
  return async () => {
    delete process.env[VARIABLE];
    await rm(dir, { recursive: true, force: true });
  };
}
