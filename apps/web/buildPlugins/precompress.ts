/**
 * Build step (a Vite plugin, build only): next to every text file of the build worth
 * compressing, `<file>.br` (brotli, quality 11) and `<file>.gz` (gzip, level 9), so the server
 * sends compressed assets without spending CPU per request (apps/server/src/http/static.ts picks
 * one by `Accept-Encoding`). A variant is written only when it is smaller than its file.
 */
import { readdir, readFile, writeFile } from "node:fs/promises";
import { extname, join } from "node:path";
import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";
import type { Plugin } from "vite";

/** Files below this size gain less than the response headers cost. */
export const MIN_PRECOMPRESS_BYTES = 1024;

const TEXT_EXTENSIONS = new Set([
  ".html",
  ".js",
  ".mjs",
  ".css",
  ".json",
  ".map",
  ".svg",
  ".txt",
  ".md",
  ".webmanifest",
  ".wasm",
  ".ico",
]);

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** Writes the variants for every file under `dir`; returns how many files got them. */
export async function precompressDir(dir: string): Promise<number> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const files = entries
    .filter((e) => e.isFile() && TEXT_EXTENSIONS.has(extname(e.name).toLowerCase()))
    .map((e) => join(e.parentPath, e.name));
  const done = await Promise.all(files.map(precompressFile));
  return done.filter(Boolean).length;
}

async function precompressFile(path: string): Promise<boolean> {
  const bytes = await readFile(path);
  if (bytes.length < MIN_PRECOMPRESS_BYTES) return false;
  const [br, gz] = await Promise.all([
    brotli(bytes, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
      },
    }),
    gzipAsync(bytes, { level: constants.Z_BEST_COMPRESSION }),
  ]);
  let wrote = false;
  // Written after the file, so the server sees them as fresh (it ignores older variants).
  for (const [variant, suffix] of [
    [br, ".br"],
    [gz, ".gz"],
  ] as const) {
    if (variant.length < bytes.length) {
      await writeFile(path + suffix, variant);
      wrote = true;
    }
  }
  return wrote;
}

/** The Vite plugin: runs {@link precompressDir} on the output once it is written. */
export function precompress(): Plugin {
  let outDir = "";
  return {
    name: "app:precompress",
    apply: "build",
    configResolved(config) {
      outDir = config.build.outDir.startsWith("/")
        ? config.build.outDir
        : join(config.root, config.build.outDir);
    },
    async closeBundle() {
      await precompressDir(outDir);
    },
  };
}
