/**
 * Find starts at the match nearest the view (issue 32): examples, an oracle over the whole list
 * of matches, and the rule that a start decided on early pages never changes when the later
 * pages arrive (so the current match never jumps while pages load).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type FindOrigin, findOriginOf, startIndex } from "./findOrigin.ts";
import { countText, createFindState, currentMatch, findReducer } from "./findState.ts";

/** A range of messages m0..m(n-1); the view shows first..last. */
function origin(
  n: number,
  first: number,
  last: number,
  edges: { hasOlder?: boolean; hasNewer?: boolean } = {},
): FindOrigin {
  const ids = Array.from({ length: n }, (_, i) => `m${i}`);
  const made = findOriginOf(
    { ids, hasOlder: edges.hasOlder ?? false, hasNewer: edges.hasNewer ?? false },
    ids.slice(first, last + 1),
  );
  if (made === null) throw new Error("no origin");
  return made;
}

/** Matches in messages at these positions (negative: before the range, >= n: after it). */
const at = (...positions: number[]) =>
  positions.map((p) => ({ messageId: p < 0 ? `before${-p}` : p >= 1000 ? `after${p}` : `m${p}` }));

describe("startIndex", () => {
  it("starts at the first match in a message in view", () => {
    expect(startIndex(at(1, 5, 6, 9), origin(10, 5, 7), true)).toBe(1);
  });

  it("at the end of a thread, starts at the newest match above the view, not the oldest", () => {
    expect(startIndex(at(1, 3, 6), origin(10, 8, 9), true)).toBe(2);
  });

  it("picks the nearer of the matches above and below; a tie goes down", () => {
    expect(startIndex(at(1, 4, 9), origin(10, 6, 6), true)).toBe(1);
    expect(startIndex(at(1, 2, 7), origin(10, 5, 5), true)).toBe(2);
    expect(startIndex(at(3, 7), origin(10, 5, 5), true)).toBe(1);
  });

  it("waits for more pages until a match in or below the view has come", () => {
    const view = origin(10, 8, 9);
    expect(startIndex(at(1, 3), view, false)).toBeNull();
    expect(startIndex(at(1, 3, 9), view, false)).toBe(2);
    expect(startIndex(at(1, 3), view, true)).toBe(1);
  });

  it("places matches outside the range by thread order and by the range's edges", () => {
    // A detached window: messages before and after it exist.
    const detached = origin(10, 4, 5, { hasOlder: true, hasNewer: true });
    // before1 comes before a match in the range: above; after1000 after one: below.
    expect(startIndex(at(-1, 2, 1000), detached, true)).toBe(1);
    // Nothing in the range: neither side is known, so the first match.
    expect(startIndex(at(-1, 1000), detached, true)).toBe(0);
    // The newest range (no newer messages): anything outside it is above.
    const newest = origin(10, 8, 9, { hasOlder: true });
    expect(startIndex(at(-3, -2, -1), newest, false)).toBeNull();
    expect(startIndex(at(-3, -2, -1), newest, true)).toBe(2);
    // Inside the range beats outside it, however the count goes.
    expect(startIndex(at(-1, 2), newest, true)).toBe(1);
  });

  it("no origin: the first match; no matches: none", () => {
    expect(startIndex(at(4, 5), null, false)).toBe(0);
    expect(startIndex([], origin(3, 0, 0), true)).toBe(-1);
    expect(startIndex([], origin(3, 0, 0), false)).toBeNull();
  });

  const scenario = fc
    .record({
      n: fc.integer({ min: 1, max: 40 }),
      a: fc.nat(),
      b: fc.nat(),
      positions: fc.array(fc.integer({ min: 0, max: 39 }), { maxLength: 30 }),
      cuts: fc.array(fc.nat(), { maxLength: 4 }),
    })
    .map(({ n, a, b, positions, cuts }) => {
      const first = Math.min(a % n, b % n);
      const last = Math.max(a % n, b % n);
      const sorted = positions.map((p) => p % n).sort((x, y) => x - y);
      return { n, first, last, sorted, cuts };
    });

  it("matches the nearest-match oracle over a whole range", () => {
    fc.assert(
      fc.property(scenario, ({ n, first, last, sorted }) => {
        const got = startIndex(at(...sorted), origin(n, first, last), true);
        const inView = sorted.findIndex((p) => p >= first && p <= last);
        let best = -1;
        let bestDistance = Number.POSITIVE_INFINITY;
        sorted.forEach((p, i) => {
          if (inView !== -1) return;
          const distance = p < first ? first - p : p - last;
          // Ties: of two matches in one message above, the later is nearer; one below beats one
          // above (a tie goes down); of two in one message below, the first stays.
          const bestBelow = best !== -1 && (sorted[best] ?? 0) > last;
          const tie = distance === bestDistance && (p < first || !bestBelow);
          if (distance < bestDistance || tie) {
            best = i;
            bestDistance = distance;
          }
        });
        expect(got).toBe(inView !== -1 ? inView : best);
      }),
    );
  });

  it("a start decided before every page is in is the one the whole list gives", () => {
    fc.assert(
      fc.property(scenario, ({ n, first, last, sorted, cuts }) => {
        const matches = at(...sorted);
        const view = origin(n, first, last);
        const whole = startIndex(matches, view, true);
        for (const cut of cuts) {
          const early = startIndex(matches.slice(0, cut % (matches.length + 1)), view, false);
          if (early !== null) expect(early).toBe(whole);
        }
      }),
    );
  });
});

describe("the find reducer with an origin", () => {
  const page = (searchId: number, ids: string[], nextCursor: string | null) => ({
    type: "page" as const,
    searchId,
    matches: ids.map((messageId) => ({
      messageId,
      role: "assistant" as const,
      ranges: [[0, 4]] as [number, number][],
    })),
    nextCursor,
  });

  it("says Searching… until the pages settle the nearest match, then makes it current", () => {
    const view = origin(10, 8, 9);
    let state = findReducer(createFindState(), { type: "query", query: "word", origin: view });
    state = findReducer(state, page(state.searchId, ["m1", "m3"], "c1"));
    expect(currentMatch(state)).toBeNull();
    expect(countText(state)).toBe("Searching…");
    state = findReducer(state, page(state.searchId, ["m6"], null));
    expect(currentMatch(state)?.messageId).toBe("m6");
    expect(countText(state)).toBe("3 of 3");
  });

  it("a match in view on the first page is current at once, and stays while pages load", () => {
    const view = origin(10, 2, 3);
    let state = findReducer(createFindState(), { type: "query", query: "word", origin: view });
    state = findReducer(state, page(state.searchId, ["m1", "m3"], "c1"));
    expect(countText(state)).toBe("2 of 2+");
    state = findReducer(state, page(state.searchId, ["m6"], null));
    expect(countText(state)).toBe("2 of 3");
  });
});
