import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { idMinter, newId } from "./ids.ts";

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe("ids", () => {
  it("are UUID version 7 strings carrying the time they were minted", () => {
    const before = Date.now();
    const id = newId();
    const after = Date.now();
    expect(id).toMatch(UUID_V7);
    const ms = Number.parseInt(id.slice(0, 8) + id.slice(9, 13), 16);
    expect(ms).toBeGreaterThanOrEqual(before);
    expect(ms).toBeLessThanOrEqual(after);
  });

  it("sort in the order they were minted, whatever the clock does", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            fc.constant(0), // the same ms again
            fc.integer({ min: -5_000, max: -1 }), // the clock steps back
            fc.integer({ min: 1, max: 5_000 }),
          ),
          { minLength: 1, maxLength: 300 },
        ),
        fc.integer({ min: 1, max: 6_000 }),
        (steps, burst) => {
          let clock = 1_765_000_000_000;
          const mint = idMinter(() => clock);
          const ids: string[] = [];
          for (const step of steps) {
            clock += step;
            ids.push(mint());
          }
          // More than 4,096 in one ms (the counter's room) stay in order too.
          for (let i = 0; i < burst; i++) ids.push(mint());
          // One assertion for all of them (an expect per id was most of this test's time).
          expect(ids.filter((id) => !UUID_V7.test(id))).toEqual([]);
          expect([...ids].sort()).toEqual(ids);
          expect(new Set(ids).size).toBe(ids.length);
        },
      ),
      { numRuns: 60 },
    );
  });
});
