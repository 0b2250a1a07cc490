/**
 * A popover's clear spot: when the selected words fill the visible timeline, the popover goes
 * where it covers none of them (beside a short line, in a gap), inside the area; when there is
 * no such spot, none is invented.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type Box, clearSpot, coversNone } from "./clearSpot.ts";

const area: Box = { x: 100, y: 60, width: 600, height: 620 };
const size = { width: 240, height: 44 };

/** Full-width lines of text filling the area, 24 px apart, the last one `lastWidth` wide. */
function lines(count: number, lastWidth: number): Box[] {
  return Array.from({ length: count }, (_, i) => ({
    x: 100,
    y: 60 + i * 24,
    width: i === count - 1 ? lastWidth : 600,
    height: 20,
  }));
}

describe("clearSpot", () => {
  it("puts the popover right after a short last line, inside the area", () => {
    // 24 lines: the last one ends 48 px above the area's bottom, less than the popover needs
    // below it with the gap.
    const words = lines(24, 250);
    const spot = clearSpot(area, size, words, 300, 4);
    expect(spot).not.toBeNull();
    const box = { ...spot!, ...size };
    expect(coversNone(box, words, 4)).toBe(true);
    expect(box.x).toBeGreaterThanOrEqual(100 + 250 + 4);
    expect(box.x + box.width).toBeLessThanOrEqual(700);
  });

  it("finds a gap between blocks when every line is full", () => {
    const top = lines(10, 600);
    const bottom = lines(10, 600).map((line) => ({ ...line, y: line.y + 300 }));
    const spot = clearSpot(area, size, [...top, ...bottom], 300, 4);
    expect(spot).not.toBeNull();
    expect(coversNone({ ...spot!, ...size }, [...top, ...bottom], 4)).toBe(true);
  });

  it("none when the words fill the area", () => {
    expect(clearSpot(area, size, lines(26, 600), 300, 8)).toBeNull();
    expect(clearSpot(area, { width: 800, height: 44 }, [], 300, 8)).toBeNull();
  });

  it("whatever the words, a spot it gives covers none of them and lies inside the area", () => {
    const box = fc.record({
      x: fc.integer({ min: 0, max: 800 }),
      y: fc.integer({ min: 0, max: 800 }),
      width: fc.integer({ min: 1, max: 600 }),
      height: fc.integer({ min: 1, max: 200 }),
    });
    fc.assert(
      fc.property(
        fc.array(box, { maxLength: 30 }),
        fc.integer({ min: 0, max: 800 }),
        (words, x) => {
          const spot = clearSpot(area, size, words, x, 8);
          if (spot === null) return;
          const placed = { ...spot, ...size };
          expect(coversNone(placed, words, 8)).toBe(true);
          expect(placed.x).toBeGreaterThanOrEqual(area.x - 0.5);
          expect(placed.y).toBeGreaterThanOrEqual(area.y - 0.5);
          expect(placed.x + placed.width).toBeLessThanOrEqual(area.x + area.width + 0.5);
          expect(placed.y + placed.height).toBeLessThanOrEqual(area.y + area.height + 0.5);
        },
      ),
    );
  });
});
