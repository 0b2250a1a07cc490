// Bundles the server into dist/server.mjs (and its search indexer's worker) for `npm start` (node
// runs it directly; tsx is only for `dev`); the bundle itself is `bundle.mjs`.

import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { bundleServer } from "./bundle.mjs";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const started = performance.now();
await bundleServer(root, resolve(root, "dist"), { sourcemap: "linked", legalComments: "none" });
console.log(
  `Built dist/server.mjs and dist/searchTextWorker.mjs in ${Math.round(performance.now() - started)} ms`,
);
