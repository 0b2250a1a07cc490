/**
 * Headers a hosted app needs (issue 19, DESIGN.md section 7).
 * - Every response (API, static files, `export.md`, errors): `X-Content-Type-Options: nosniff`
 *   and `Referrer-Policy: no-referrer`, plus Hono's other `secureHeaders` defaults.
 * - HTML: a Content-Security-Policy that fits the app, and `X-Frame-Options: DENY` for browsers
 *   without `frame-ancestors`. Scripts come from this origin only, plus the inline prefetch
 *   script of `index.html`, allowed by its hash. The hash is computed when the server starts from
 *   the built `index.html` (the script changes with the web app, so it is never written here).
 *
 * Left out on purpose: `Strict-Transport-Security` (this server speaks plain HTTP; HSTS belongs
 * to the TLS proxy in front of it) and `Cross-Origin-Resource-Policy` (not needed: the API
 * already refuses foreign state changes, see browserSafety.ts).
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { MiddlewareHandler } from "hono";
import { secureHeaders } from "hono/secure-headers";

/** `'sha256-…'` sources of the inline scripts (`<script>` without `src`) of an HTML page. */
export function inlineScriptHashes(html: string): string[] {
  const hashes: string[] = [];
  for (const match of html.matchAll(/<script(\s[^>]*)?>([\s\S]*?)<\/script\s*>/gi)) {
    if (/\ssrc\s*=/i.test(match[1] ?? "")) continue;
    // The hash covers the script text exactly as served, as the browser computes it.
    hashes.push(`'sha256-${createHash("sha256").update(match[2]!, "utf8").digest("base64")}'`);
  }
  return hashes;
}

/** The app's Content-Security-Policy, given the hash sources of its inline scripts. */
export function contentSecurityPolicy(scriptHashes: readonly string[]): string {
  return [
    "default-src 'self'",
    `script-src ${["'self'", ...scriptHashes].join(" ")}`,
    "style-src 'self'",
    // The favicon is a data: URL; model output never loads images (they become links).
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/** The CSP for the web app built in `webDist` (its index.html read once, now). */
export function contentSecurityPolicyFor(webDist: string): string {
  let html = "";
  try {
    html = readFileSync(join(webDist, "index.html"), "utf8");
  } catch {
    // Not built: the placeholder page has no script.
  }
  return contentSecurityPolicy(inlineScriptHashes(html));
}

/** Sets the headers above on every response; `csp` on HTML ones. */
export function securityHeaders(csp: string): MiddlewareHandler {
  const common = secureHeaders({
    strictTransportSecurity: false,
    crossOriginResourcePolicy: false,
    // Set below, on HTML only (a JSON answer loaded in a frame, as a form target, stays loadable).
    xFrameOptions: false,
    referrerPolicy: "no-referrer",
    xContentTypeOptions: "nosniff",
  });
  return async (c, next) => {
    await common(c, async () => {
      await next();
      if ((c.res.headers.get("content-type") ?? "").startsWith("text/html")) {
        c.res.headers.set("Content-Security-Policy", csp);
        c.res.headers.set("X-Frame-Options", "DENY");
      }
    });
  };
}
