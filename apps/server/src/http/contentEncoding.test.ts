/** Accept-Encoding negotiation for precompressed files (contentEncoding.ts). */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { acceptedEncodings } from "./contentEncoding.ts";

describe("acceptedEncodings", () => {
  it("reads weights, wildcards and refusals", () => {
    expect(acceptedEncodings(undefined)).toEqual([]);
    expect(acceptedEncodings("")).toEqual([]);
    expect(acceptedEncodings("gzip, deflate, br, zstd")).toEqual(["br", "gzip"]);
    expect(acceptedEncodings("gzip, deflate")).toEqual(["gzip"]);
    expect(acceptedEncodings("BR;Q=1.0")).toEqual(["br"]);
    expect(acceptedEncodings("br;q=0.2, gzip;q=0.8")).toEqual(["gzip", "br"]);
    expect(acceptedEncodings("*")).toEqual(["br", "gzip"]);
    expect(acceptedEncodings("*;q=0.5, gzip;q=0")).toEqual(["br"]);
    expect(acceptedEncodings("identity")).toEqual([]);
    expect(acceptedEncodings("br;q=nonsense, gzip")).toEqual(["gzip"]);
  });

  it("returns only codings the header gives a positive weight, best first", () => {
    const coding = fc.constantFrom("br", "gzip", "x-gzip", "deflate", "identity", "*", "zstd");
    const weight = fc.option(fc.integer({ min: 0, max: 1000 }).map((n) => n / 1000));
    const entry = fc.tuple(coding, weight);
    fc.assert(
      fc.property(fc.array(entry, { maxLength: 6 }), (entries) => {
        const header = entries.map(([c, q]) => (q === null ? c : `${c};q=${q}`)).join(", ");
        const best = (name: string) => {
          const qs = entries
            .filter(([c]) => c === name || (name === "gzip" && c === "x-gzip"))
            .map(([, q]) => q ?? 1);
          return qs.length > 0 ? Math.max(...qs) : undefined;
        };
        const star = best("*");
        const weightOf = (name: string) => best(name) ?? star ?? 0;
        const result = acceptedEncodings(header);
        expect(new Set(result).size).toBe(result.length);
        for (const name of ["br", "gzip"]) {
          expect(result.includes(name as "br" | "gzip")).toBe(weightOf(name) > 0);
        }
        for (let i = 1; i < result.length; i++) {
          expect(weightOf(result[i - 1]!)).toBeGreaterThanOrEqual(weightOf(result[i]!));
        }
      }),
    );
  });
});
