// The server's esbuild bundle (and its search indexer's worker), shared by `build.mjs` (for
// `npm start`) and the tests' global setup (`src/testing/testBundles.ts`), so both run the same
// bundle. Everything is bundled except better-sqlite3, whose native addon stays in node_modules.
// A CommonJS dependency may call require(), which an ES module lacks: the banner provides one.
import { resolve } from "node:path";
import { build } from "esbuild";

/** Bundles `<serverDir>/src` into `outdir` as `server.mjs` and `searchTextWorker.mjs`. */
export function bundleServer(serverDir, outdir, extra = {}) {
  return build({
    // The search indexer's worker thread is a file of its own beside the server.
    entryPoints: {
      server: resolve(serverDir, "src/main.ts"),
      searchTextWorker: resolve(serverDir, "src/storage/searchTextWorker.ts"),
    },
    outdir,
    outExtension: { ".js": ".mjs" },
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    external: ["better-sqlite3"],
    banner: {
      js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
    },
    logLevel: "warning",
    ...extra,
  });
}
