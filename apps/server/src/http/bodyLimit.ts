/**
 * The request body limit (issue 33), Hono's `bodyLimit` without its cost on the common request.
 * Hono's middleware reads `c.req.raw.body` first, and on `@hono/node-server` that builds a
 * whole WHATWG `Request` (undici, with a web stream over the socket) for every request, GETs
 * included: about a tenth of a turn's event-loop time. A GET or HEAD has no body to limit, and
 * a body with a declared length (no `Transfer-Encoding`) is judged from its header exactly as
 * Hono judges it, without touching the body, so the route's `c.req.arrayBuffer()` reads it
 * straight from Node's stream. Any other body (chunked) goes through Hono's `bodyLimit`.
 */
import type { Context, MiddlewareHandler } from "hono";
import { bodyLimit as honoBodyLimit } from "hono/body-limit";

export interface BodyLimitOptions {
  maxSize: number;
  /** The answer to a body over `maxSize`. */
  onError: (c: Context) => Response | Promise<Response>;
}

export function bodyLimit(options: BodyLimitOptions): MiddlewareHandler {
  const streamed = honoBodyLimit(options);
  return async (c, next) => {
    if (c.req.method === "GET" || c.req.method === "HEAD") return next();
    const declared = c.req.header("content-length");
    if (declared === undefined || c.req.header("transfer-encoding") !== undefined) {
      return streamed(c, next);
    }
    // As Hono: the declared length against the limit (the HTTP parser frames the body by it).
    if (Number.parseInt(declared || "0", 10) > options.maxSize) return options.onError(c);
    await next();
  };
}
