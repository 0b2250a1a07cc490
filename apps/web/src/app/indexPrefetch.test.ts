/**
 * index.html starts fetching a thread before the app's code arrives (its inline script). That
 * script cannot import anything, so this test ties it to the code it mirrors: the page size is
 * NEWEST_PAGE_PREFETCH_LIMIT, and its path pattern prefetches only the thread the router shows,
 * and every thread path the app links to.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { NEWEST_PAGE_PREFETCH_LIMIT } from "../api/threadPrefetch.ts";
import { createAppRouter, threadRoute } from "./router.tsx";

const html = readFileSync(path.resolve(import.meta.dirname, "../../index.html"), "utf8");

/** The path pattern the inline script runs on `location.pathname`. */
function prefetchPathPattern(): RegExp {
  const literal = /\/(\^[^\n]*?\$)\/\.exec\(location\.pathname\)/.exec(html);
  if (literal === null) throw new Error("index.html: no pattern run on location.pathname");
  return new RegExp(literal[1]!);
}

const router = createAppRouter();

/** The thread id the router gives `pathname`, or null when it is not the thread route. */
function routedThreadId(pathname: string): string | null {
  const [, params, found] = router.getMatchedRoutes(pathname);
  // A `**` param marks a partial match: the router shows "not found" for it.
  if (found?.id !== threadRoute.id || params["**"] !== undefined) return null;
  return params.threadId ?? null;
}

/** The thread id the inline script takes from `pathname`, or null when it does not prefetch. */
function prefetchedThreadId(pathname: string): string | null {
  const match = prefetchPathPattern().exec(pathname);
  return match === null ? null : decodeURIComponent(match[1]!);
}

describe("index.html's thread prefetch", () => {
  it("asks for NEWEST_PAGE_PREFETCH_LIMIT messages, the newest page the app asks for", () => {
    const limits = [...html.matchAll(/[?&]limit=(\d+)/g)].map((match) => Number(match[1]));
    expect(limits).toEqual([NEWEST_PAGE_PREFETCH_LIMIT]);
  });

  it("prefetches a thread path, and only a thread path, as the router routes it", () => {
    const cases = ["/env/thread-1", "/env/thread-1/", "/", "/env", "/env/", "/a/b/c", "//t"];
    for (const pathname of cases) {
      expect(prefetchedThreadId(pathname), pathname).toBe(routedThreadId(pathname));
    }
  });

  // The router also forgives empty segments ("/env//thread", "/env/thread//"); the script does
  // not, which costs only the prefetch. So: a prefetch is always the routed thread, and on a
  // path without empty segments (every link the app makes) the two agree both ways.
  it("prefetches only the thread the router shows, and every canonical thread path (property)", () => {
    const segment = fc.oneof(
      fc.constantFrom("", "env", "thread-1", "a%20b", "%2F", "x.y", "😀"),
      fc.string({ minLength: 1, maxLength: 6 }).map((text) => encodeURIComponent(text)),
    );
    fc.assert(
      fc.property(fc.array(segment, { maxLength: 4 }), fc.boolean(), (segments, slash) => {
        const pathname = `/${segments.join("/")}${slash && segments.length > 0 ? "/" : ""}`;
        const prefetched = prefetchedThreadId(pathname);
        const routed = routedThreadId(pathname);
        if (prefetched !== null) expect(prefetched).toBe(routed);
        if (!segments.includes("")) expect(prefetched).toBe(routed);
      }),
      { numRuns: 500 },
    );
  });
});
