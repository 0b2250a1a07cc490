/**
 * Token auth for non-loopback deployments. With AUTH_TOKEN set, every /api request needs
 * `Authorization: Bearer <token>` or the `auth_token` cookie (EventSource cannot send headers).
 * Opening any page once with `?token=<token>` sets that cookie and redirects to the clean URL.
 * The cookie counts only for same-origin requests: a page on another port of the same host is
 * "same-site", so the browser sends it the SameSite cookie too.
 */
import { createHash, timingSafeEqual } from "node:crypto";
import type { Context, MiddlewareHandler } from "hono";
import { getCookie, setCookie } from "hono/cookie";
import { isSameOriginOrNone } from "./browserSafety.ts";
import { errorResponse } from "./errors.ts";

export const AUTH_COOKIE = "auth_token";

/** Constant-time comparison (hashing first makes the lengths equal). */
export function tokensMatch(given: string, expected: string): boolean {
  const a = createHash("sha256").update(given).digest();
  const b = createHash("sha256").update(expected).digest();
  return timingSafeEqual(a, b);
}

/** Rejects /api requests without the token; accepts `?token=` on page URLs. */
export function authMiddleware(token: string | null): MiddlewareHandler {
  return async (c, next) => {
    if (token === null) return next();
    const url = new URL(c.req.url);
    // Decide on the path the router matches (percent-decoded), not the raw URL: otherwise
    // `/%61pi/threads` would skip the check here and still reach the /api routes.
    const path = c.req.path;
    if (!path.startsWith("/api/") && path !== "/api") {
      const fromQuery = url.searchParams.get("token");
      if (fromQuery !== null && c.req.method === "GET" && tokensMatch(fromQuery, token)) {
        setCookie(c, AUTH_COOKIE, token, {
          httpOnly: true,
          sameSite: "Strict",
          path: "/",
          maxAge: 60 * 60 * 24 * 365,
        });
        url.searchParams.delete("token");
        return c.redirect(`${sameOriginPath(url.pathname)}${url.search}`, 302);
      }
      return next();
    }
    if (isAuthorized(c, token)) return next();
    c.header("WWW-Authenticate", 'Bearer realm="chat"');
    return errorResponse(
      c,
      "unauthorized",
      "Missing or wrong access token. Send `Authorization: Bearer <token>` or open the app once with ?token=<token>.",
    );
  };
}

/**
 * Whether the request may read the API: no token is set, or it carries the token (bearer header,
 * or the cookie on a same-origin request). Pages are served without it; a page that embeds
 * thread data (firstRows.ts) embeds it only when this holds.
 */
export function isAuthorized(c: Context, token: string | null): boolean {
  if (token === null) return true;
  const header = c.req.header("authorization");
  const bearer = header?.match(/^Bearer\s+(.+)$/i)?.[1]?.trim();
  const cookie = sameOriginRequest(c) ? getCookie(c, AUTH_COOKIE) : undefined;
  return Boolean((bearer && tokensMatch(bearer, token)) || (cookie && tokensMatch(cookie, token)));
}

/**
 * The path as a Location that stays on this origin: `//evil.example/` (or `/\evil.example/`,
 * which browsers read the same way) would be a network-path reference to another host.
 */
export function sameOriginPath(pathname: string): string {
  return `/${pathname.replace(/^[/\\]+/, "")}`;
}

/** Same origin by the browser's own account (Sec-Fetch-Site) and by the Origin header. */
function sameOriginRequest(c: Context): boolean {
  const site = c.req.header("sec-fetch-site");
  if (site !== undefined && site !== "same-origin" && site !== "none") return false;
  return isSameOriginOrNone(c);
}
