/** One log line per request: method, path, status and duration (`LOG_LEVEL=info`). */
import type { MiddlewareHandler } from "hono";
import type { Logger } from "../logger.ts";

export function requestLog(logger: Logger): MiddlewareHandler {
  return async (c, next) => {
    const started = performance.now();
    await next();
    const ms = performance.now() - started;
    // For event streams the duration is the time to the response headers.
    logger.info(`${c.req.method} ${c.req.path} ${c.res.status} ${ms.toFixed(1)}ms`);
  };
}
