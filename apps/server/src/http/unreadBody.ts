/**
 * A POST answered before its body was read (an unknown thread, a refused Host or token...): the
 * Node adapter then discards the rest of the body for at most 500 ms and destroys the socket
 * (`@hono/node-server`, `drainIncoming`). On a busy server the timer can win even when the body
 * has already arrived, and a client that reuses the kept-alive connection sees its next request
 * fail ("other side closed"; found by the fuzz test under load). Saying `Connection: close` on
 * such a response tells the client not to reuse it.
 */
import type { MiddlewareHandler } from "hono";

export function closeAfterUnreadBody(): MiddlewareHandler {
  return async (c, next) => {
    await next();
    if (c.req.method !== "GET" && c.req.method !== "HEAD" && !c.req.raw.bodyUsed) {
      c.res.headers.set("Connection", "close");
    }
  };
}
