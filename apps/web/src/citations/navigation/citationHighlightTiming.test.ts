import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  CITATION_HOLD_MS,
  CITATION_PULSE_MS,
  citationHighlightDuration,
  citationHighlightOpacity,
} from "./citationHighlightTiming.ts";

describe("citationHighlightOpacity", () => {
  it("pulses twice, the second settling into a held highlight, then fades out", () => {
    expect(citationHighlightOpacity(0, false)).toBe(0);
    expect(citationHighlightOpacity(CITATION_PULSE_MS / 2, false)).toBeCloseTo(1);
    expect(citationHighlightOpacity(CITATION_PULSE_MS, false)).toBeCloseTo(0);
    expect(citationHighlightOpacity(CITATION_PULSE_MS * 1.5, false)).toBe(1);
    expect(citationHighlightOpacity(2 * CITATION_PULSE_MS + CITATION_HOLD_MS / 2, false)).toBe(1);
    const end = citationHighlightDuration(false);
    const fading = citationHighlightOpacity(end - 100, false);
    expect(fading).toBeGreaterThan(0);
    expect(fading).toBeLessThan(1);
    expect(citationHighlightOpacity(end, false)).toBe(0);
  });

  it("holds without pulsing under reduced motion", () => {
    expect(citationHighlightOpacity(0, true)).toBe(1);
    expect(citationHighlightOpacity(CITATION_PULSE_MS, true)).toBe(1);
    expect(citationHighlightOpacity(citationHighlightDuration(true), true)).toBe(0);
  });

  it("stays within 0..1 for any time", () => {
    fc.assert(
      fc.property(fc.double({ noNaN: false }), fc.boolean(), (t, reduced) => {
        const value = citationHighlightOpacity(t, reduced);
        expect(value).toBeGreaterThanOrEqual(0);
        expect(value).toBeLessThanOrEqual(1);
      }),
    );
  });
});
