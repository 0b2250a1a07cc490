/**
 * Vitest global setup of `server` and `server-pg`: bundles the server and its search indexer's
 * worker once per run, with `scripts/bundle.mjs` as `scripts/build.mjs` does for `npm start`, and names the files
 * for the tests:
 * - CHAT_TEST_SEARCH_WORKER_BUNDLE, the worker `storage/searchTextRenderer.ts` starts. From the
 *   sources, each store's worker would otherwise load tsx and every module of the Markdown
 *   pipeline through it: about ten times the CPU of starting the bundle, and nearly every test
 *   store starts one (every stored message is rendered there).
 * - CHAT_TEST_SERVER_BUNDLE, the server `serverProcess.ts` and `main.startup.test.ts` run as a
 *   process (what `npm start` runs), instead of `node --import tsx src/main.ts` loading every
 *   source through tsx; CHAT_TEST_SEED_BUNDLE and CHAT_TEST_PIECE_CRASH_BUNDLE, the seed command
 *   (`seed.cli.test.ts`) and the crash of `searchPieceCrash.ts`, likewise (`nodeEntry.ts` picks
 *   the bundle, or tsx where no run built one).
 * The files go to a dir of their own under the server's `node_modules/.cache` (beside
 * `better-sqlite3`, which the bundle leaves out and imports), removed at the end of the run.
 */
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { join, resolve } from "node:path";
import { bundleServer } from "../../scripts/bundle.mjs";
import { NODE_ENTRIES } from "./nodeEntry.ts";

const SERVER_DIR = resolve(import.meta.dirname, "../..");
const WORKER = "CHAT_TEST_SEARCH_WORKER_BUNDLE";
const SERVER = NODE_ENTRIES.server.bundle;
/** The test-only entry points, bundled beside the server (`<name>.mjs`). */
const EXTRA = { seed: NODE_ENTRIES.seed, searchPieceCrash: NODE_ENTRIES.searchPieceCrash };

export default async function setup(): Promise<() => Promise<void>> {
  // Both projects run this in one process: the first one's bundles serve both.
  const built = process.env[SERVER];
  if (built && existsSync(built)) return async () => {};
  const cache = join(SERVER_DIR, "node_modules/.cache");
  await mkdir(cache, { recursive: true });
  const dir = await mkdtemp(join(cache, "chat-test-bundles-"));
  await bundleServer(SERVER_DIR, dir);
  // Apart from the server's: a test-only entry must not change what `npm start` runs.
  await bundleServer(SERVER_DIR, dir, {
    entryPoints: Object.fromEntries(
      Object.entries(EXTRA).map(([name, { source }]) => [name, join(SERVER_DIR, source)]),
    ),
  });

  process.env[WORKER] = join(dir, "searchTextWorker.mjs");
  process.env[SERVER] = join(dir, "server.mjs");
  for (const [name, { bundle }] of Object.entries(EXTRA)) {
    process.env[bundle] = join(dir, `${name}.mjs`);
  }
  return async () => {
    delete process.env[WORKER];
    delete process.env[SERVER];
    for (const { bundle } of Object.values(EXTRA)) delete process.env[bundle];
    await rm(dir, { recursive: true, force: true });
  };
}
