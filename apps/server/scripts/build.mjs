// Bundles the server into dist/server.mjs (and its search indexer's worker) for `npm start` (node runs it directly; tsx is only
// for `dev`). Everything is bundled except better-sqlite3, whose native addon stays in
// node_modules. A CommonJS dependency may call require(), which an ES module lacks: the banner
// provides one.

import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const started = performance.now();
await build({
  // The search indexer's worker thread is a file of its own beside the server.
  entryPoints: {
    server: resolve(root, "src/main.ts"),
    searchTextWorker: resolve(root, "src/storage/searchTextWorker.ts"),
  },
  outdir: resolve(root, "dist"),
  outExtension: { ".js": ".mjs" },
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  external: ["better-sqlite3"],
  sourcemap: "linked",
  legalComments: "none",
  banner: {
    js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
  },
  logLevel: "warning",
});
console.log(
  `Built dist/server.mjs and dist/searchTextWorker.mjs in ${Math.round(performance.now() - started)} ms`,
);
