// Hand-written on purpose: Hono's serveStatic was measured slower on large files and is quiet
// only with extra code; the reasons in apps/server/src/http/README.md ("Static files"), the figures in
// the root PERFORMANCE.md.
/**
 * Serves the built web app: real files from WEB_DIST with their content types, and index.html
 * for client-side routes (SPA fallback). Paths are resolved inside WEB_DIST only, so `..`
 * (raw or percent-encoded) can never reach another file. Without a build, a small page says how
 * to make one.
 *
 * Precompressed variants: the web build writes `<file>.br` and `<file>.gz` next to its text
 * files (apps/web/buildPlugins/precompress.ts). A request whose `Accept-Encoding` takes one gets it, with
 * `Content-Encoding` and the file's own `Content-Type`; every answer for a file that has variants
 * says `Vary: Accept-Encoding`, so caches keep the encodings apart. A variant older than its
 * file (the file was replaced after the build) is ignored.
 */
import type { Stats } from "node:fs";
import { readFile, stat } from "node:fs/promises";
import { extname, resolve, sep } from "node:path";
import { promisify } from "node:util";
import { brotliCompress, gzip, constants as zlibConstants } from "node:zlib";
import type { Context } from "hono";
import { acceptedEncodings, PRECOMPRESSED, type PrecompressedEncoding } from "./contentEncoding.ts";
import { type FirstRowsParts, injectFirstRows } from "./firstRows.ts";

const CONTENT_TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".map": "application/json; charset=utf-8",
  ".txt": "text/plain; charset=utf-8",
  ".md": "text/markdown; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".webp": "image/webp",
  ".ico": "image/x-icon",
  ".woff": "font/woff",
  ".woff2": "font/woff2",
  ".ttf": "font/ttf",
  ".wasm": "application/wasm",
  ".webmanifest": "application/manifest+json",
};

const PLACEHOLDER = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Chat server</title></head>
<body style="font-family: system-ui, sans-serif; max-width: 40rem; margin: 4rem auto; line-height: 1.5">
<h1>The web app is not built yet</h1>
<p>The API is running. Build the web app with <code>pnpm run build</code> (or start everything with
<code>npm start</code>) and reload this page.</p>
</body></html>
`;

/** Options of {@link createStaticHandler}. */
export type StaticOptions = {
  /**
   * The server-rendered first rows of a thread page (firstRows.ts), or null for none: asked for
   * every page a browser navigates to; its parts go into `index.html`.
   */
  firstRows?: (c: Context, pathname: string) => Promise<FirstRowsParts | null>;
};

/** A handler for GET/HEAD requests outside /api. */
export function createStaticHandler(
  webDist: string,
  options: StaticOptions = {},
): (c: Context) => Promise<Response> {
  const root = resolve(webDist);
  return async (c) => {
    const pathname = new URL(c.req.url).pathname;
    let decoded: string;
    try {
      decoded = decodeURIComponent(pathname);
    } catch {
      return c.text("Bad request path", 400);
    }
    if (decoded.includes("\0")) return c.text("Bad request path", 400);
    const target = resolve(root, `.${decoded}`);
    const inside = target === root || target.startsWith(root + sep);
    const accepted = acceptedEncodings(c.req.header("accept-encoding"));
    if (inside && target !== root) {
      const file = await readRepresentation(target, accepted);
      if (file) {
        const immutable = decoded.startsWith("/assets/");
        return new Response(c.req.method === "HEAD" ? null : file.body, {
          headers: {
            "content-type":
              CONTENT_TYPES[extname(target).toLowerCase()] ?? "application/octet-stream",
            "cache-control": immutable ? "public, max-age=31536000, immutable" : "no-cache",
            "x-content-type-options": "nosniff",
            ...encodingHeaders(file),
          },
        });
      }
    }
    // SPA fallback: client routes (no file extension) and anything a browser navigates to.
    const wantsPage =
      extname(decoded) === "" || (c.req.header("accept") ?? "").includes("text/html");
    if (!wantsPage) return c.text("Not found", 404);
    const page = options.firstRows ? await pageWithFirstRows(c, root, pathname, options) : null;
    if (page !== null) {
      // Made per request, so compressed per request: in zlib's thread pool, at a fast level.
      const encoding = accepted[0] ?? null;
      const body = encoding === null ? Buffer.from(page) : await compressPage(page, encoding);
      return new Response(c.req.method === "HEAD" ? null : body, {
        headers: {
          "content-type": "text/html; charset=utf-8",
          // The page holds thread data: never kept by a cache.
          "cache-control": "no-store",
          vary: "Accept-Encoding",
          ...(encoding === null ? {} : { "content-encoding": encoding }),
        },
      });
    }
    const index = await readRepresentation(resolve(root, "index.html"), accepted);
    return new Response(c.req.method === "HEAD" ? null : (index?.body ?? PLACEHOLDER), {
      headers: {
        "content-type": "text/html; charset=utf-8",
        "cache-control": "no-cache",
        ...(index ? encodingHeaders(index) : {}),
      },
    });
  };
}

/** `index.html` with the thread's first rows, or null (no build, not a thread, no rows). */
async function pageWithFirstRows(
  c: Context,
  root: string,
  pathname: string,
  options: StaticOptions,
): Promise<string | null> {
  const parts = await options.firstRows?.(c, pathname);
  if (!parts) return null;
  let index: string;
  try {
    index = await readFile(resolve(root, "index.html"), "utf8");
  } catch {
    return null;
  }
  return injectFirstRows(index, parts);
}

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** A page made per request, compressed off the event loop (fast levels: it is sent once). */
function compressPage(page: string, encoding: PrecompressedEncoding): Promise<Buffer> {
  return encoding === "br"
    ? brotli(page, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 5 } })
    : gzipAsync(page, { level: 6 });
}

/** A file's bytes as sent: a precompressed variant or the file itself. */
type Representation = {
  body: Buffer;
  encoding: PrecompressedEncoding | null;
  /** The file has variants, so the answer depends on Accept-Encoding. */
  varies: boolean;
};

/** Types worth compressing (the build only compresses these; others skip the variant lookup). */
const COMPRESSIBLE = /^(text\/|application\/(json|manifest\+json|wasm)|image\/(svg\+xml|x-icon))/;

async function readRepresentation(
  path: string,
  accepted: readonly PrecompressedEncoding[],
): Promise<Representation | null> {
  const info = await statFile(path);
  if (!info) return null;
  const type = CONTENT_TYPES[extname(path).toLowerCase()] ?? "";
  const variants = new Map<PrecompressedEncoding, string>();
  if (COMPRESSIBLE.test(type)) {
    await Promise.all(
      PRECOMPRESSED.map(async ({ encoding, suffix }) => {
        const variant = await statFile(path + suffix);
        if (variant && variant.mtimeMs >= info.mtimeMs) variants.set(encoding, path + suffix);
      }),
    );
  }
  const encoding = accepted.find((e) => variants.has(e)) ?? null;
  try {
    const body = await readFile(encoding === null ? path : variants.get(encoding)!);
    return { body, encoding, varies: variants.size > 0 };
  } catch {
    return null;
  }
}

function encodingHeaders(file: Representation): Record<string, string> {
  const headers: Record<string, string> = {};
  if (file.encoding !== null) headers["content-encoding"] = file.encoding;
  if (file.varies) headers.vary = "Accept-Encoding";
  return headers;
}

async function statFile(path: string): Promise<Stats | null> {
  try {
    const info = await stat(path);
    return info.isFile() ? info : null;
  } catch {
    return null;
  }
}
