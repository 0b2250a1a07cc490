/**
 * The candidate of issue 13: the static handler on Hono's serveStatic
 * (@hono/node-server/serve-static), same behaviour as src/http/static.ts: SPA fallback, cache
 * headers, placeholder page without a build. It passed all of src/http's tests (40) in place of
 * src/http/static.ts but was slower on large files, so the server keeps the hand-written one
 * (src/http/README.md, "Static files"). serveStatic refuses `..` segments, backslashes, doubled slashes and any
 * `%` left after decoding (e.g. `%2f`); such paths fall through to the fallback.
 */
import { existsSync } from "node:fs";
import { extname } from "node:path";
import { serveStatic } from "@hono/node-server/serve-static";
import type { Context, MiddlewareHandler } from "hono";

const PLACEHOLDER = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Chat server</title></head>
<body style="font-family: system-ui, sans-serif; max-width: 40rem; margin: 4rem auto; line-height: 1.5">
<h1>The web app is not built yet</h1>
<p>The API is running. Build the web app with <code>pnpm run build</code> (or start everything with
<code>npm start</code>) and reload this page.</p>
</body></html>
`;

const IMMUTABLE = "public, max-age=31536000, immutable";

type Served = { files: MiddlewareHandler; index: MiddlewareHandler };

/** A handler for GET/HEAD requests outside /api. */
export function createStaticHandler(webDist: string): (c: Context) => Promise<Response> {
  // serveStatic prints an error when its root is missing, so it is made once the build exists
  // (checked per request until then: a build made while the server runs is served on reload).
  let served: Served | null = null;
  const serve = (): Served | null => {
    if (served || !existsSync(webDist)) return served;
    served = {
      files: serveStatic({
        root: webDist,
        onFound: (_path, c) => {
          c.header("cache-control", c.req.path.startsWith("/assets/") ? IMMUTABLE : "no-cache");
          c.header("x-content-type-options", "nosniff");
        },
      }),
      index: serveStatic({
        root: webDist,
        path: "index.html",
        onFound: (_path, c) => {
          c.header("cache-control", "no-cache");
        },
      }),
    };
    return served;
  };
  const notHandled = async (): Promise<void> => {};

  return async (c) => {
    const current = serve();
    const file = current && ((await current.files(c, notHandled)) as Response | undefined);
    if (file) return file;
    // SPA fallback: client routes (no file extension) and anything a browser navigates to.
    const wantsPage =
      extname(c.req.path) === "" || (c.req.header("accept") ?? "").includes("text/html");
    if (!wantsPage) return c.text("Not found", 404);
    const index = current && ((await current.index(c, notHandled)) as Response | undefined);
    if (index) return index;
    return c.html(c.req.method === "HEAD" ? "" : PLACEHOLDER, 200, { "cache-control": "no-cache" });
  };
}
