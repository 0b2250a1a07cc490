/**
 * Browser safety (DESIGN.md section 7), for a server that other web pages can reach through the
 * user's browser:
 * - DNS rebinding: a page on `attacker.example` that resolves to 127.0.0.1 sends
 *   `Host: attacker.example`. Every request must name this server: its bound host:port, a
 *   loopback name on the same port when bound to loopback, one of this machine's IP addresses
 *   when bound to all interfaces, or a name in `ALLOWED_HOSTS`. Else 403 `bad_host`.
 * - CSRF: a page of another origin can send "simple" requests (form posts, `text/plain`
 *   fetches) without asking. State-changing requests must carry `Content-Type:
 *   application/json`, which a cross-origin page can only send after a CORS preflight this
 *   server never approves (else 415 `unsupported_media_type`), and an `Origin`, when present,
 *   must be this server's own (else 403 `bad_origin`).
 */
import { isIP } from "node:net";
import { networkInterfaces } from "node:os";
import type { Context, MiddlewareHandler } from "hono";
import { isLoopbackHost } from "../config.ts";
import { errorResponse } from "./errors.ts";

/** What the Host check needs to know about the listening socket and the configuration. */
export interface HostPolicy {
  /** HOST as configured (e.g. `127.0.0.1`, `0.0.0.0`, `::`). */
  boundHost: string;
  /** The port actually listened on (known only after listen when PORT=0). */
  port(): number;
  /** ALLOWED_HOSTS: `name` (any port) or `name:port` entries, lower case. */
  allowedHosts: readonly string[];
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);
/** Splits a Host header value into a lower-case name (IPv6 without brackets) and a port. */
export function parseHostHeader(value: string): { name: string; port: number | null } | null {
  const match = /^(\[[0-9a-f:.]+\]|[^:[\]]+)(?::(\d{1,5}))?$/i.exec(value.trim());
  if (!match) return null;
  return {
    name: match[1]!.toLowerCase().replace(/^\[|\]$/g, ""),
    port: match[2] === undefined ? null : Number(match[2]),
  };
}

/** True when `hostHeader` names this server under `policy`. */
export function isAllowedHost(hostHeader: string | undefined, policy: HostPolicy): boolean {
  if (hostHeader === undefined) return false;
  const host = parseHostHeader(hostHeader);
  if (host === null) return false;
  for (const entry of policy.allowedHosts) {
    const allowed = parseHostHeader(entry);
    if (
      allowed &&
      allowed.name === host.name &&
      (allowed.port === null || allowed.port === host.port)
    ) {
      return true;
    }
  }
  if (host.port !== policy.port()) return false;
  const bound = policy.boundHost.toLowerCase().replace(/^\[|\]$/g, "");
  if (host.name === bound) return true;
  // Loopback names all mean this machine and cannot be rebound by a remote DNS server.
  if (isLoopbackHost(bound) && isLoopbackHost(host.name)) return true;
  // Bound to every interface: a loopback name (`localhost` too: browsers never ask DNS for it),
  // or any of this machine's own addresses written as an IP.
  if (bound === "0.0.0.0" || bound === "::") {
    if (isLoopbackHost(host.name)) return true;
    return isIP(host.name) !== 0 && machineAddresses().has(host.name);
  }
  return false;
}

function machineAddresses(): Set<string> {
  const addresses = new Set<string>();
  for (const list of Object.values(networkInterfaces())) {
    for (const info of list ?? []) addresses.add(info.address.toLowerCase());
  }
  return addresses;
}

/** 403 `bad_host` for a request whose Host does not name this server. */
export function hostGuard(policy: HostPolicy): MiddlewareHandler {
  return async (c, next) => {
    if (isAllowedHost(c.req.header("host"), policy)) return next();
    return errorResponse(
      c,
      "bad_host",
      `This server does not answer to the host "${(c.req.header("host") ?? "").slice(0, 100)}". ` +
        "Open it by its own address, or add the name to ALLOWED_HOSTS.",
    );
  };
}

/** True when the request's Origin header is absent or this server's own origin. */
export function isSameOriginOrNone(c: Context): boolean {
  const origin = c.req.header("origin");
  if (origin === undefined) return true;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false; // includes "null" (sandboxed frames, file: pages)
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return false;
  // The Host header has already been checked, so it is a name of this server.
  return url.host.toLowerCase() === (c.req.header("host") ?? "").toLowerCase();
}

/** For state-changing /api requests: own Origin (403 `bad_origin`) and JSON (415). */
export function writeGuard(): MiddlewareHandler {
  return async (c, next) => {
    if (SAFE_METHODS.has(c.req.method)) return next();
    if (!isSameOriginOrNone(c)) {
      return errorResponse(
        c,
        "bad_origin",
        `Requests from ${(c.req.header("origin") ?? "").slice(0, 100)} may not change data on this server.`,
      );
    }
    const type = (c.req.header("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
    if (type !== "application/json") {
      // The unread body makes the connection unusable for another request.
      c.header("Connection", "close");
      return errorResponse(
        c,
        "unsupported_media_type",
        "Requests that change data must be sent as `Content-Type: application/json`.",
      );
    }
    return next();
  };
}
