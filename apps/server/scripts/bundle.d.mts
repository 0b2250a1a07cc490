import type { BuildOptions, BuildResult } from "esbuild";

/** Bundles `<serverDir>/src` into `outdir` as `server.mjs` and `searchTextWorker.mjs`. */
export function bundleServer(
  serverDir: string,
  outdir: string,
  extra?: BuildOptions,
): Promise<BuildResult>;
