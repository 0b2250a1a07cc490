/**
 * A reader's place is a row and an offset: read from a view, then re-applied after the rows
 * above it were measured again (other heights), it puts the same row at the same offset, where a
 * saved raw `scrollTop` would not.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { scrollTopToOffset } from "../timeline/followPolicy.ts";
import { placeOfView, type RowExtent, viewPositionOfOffset } from "./scrollPlace.ts";

/** Rows stacked from y = 0 with these heights, seen through a view scrolled to `scrollTop`. */
function layout(heights: readonly number[], scrollTop: number): RowExtent[] {
  let y = 0;
  return heights.map((height, index) => {
    const row = { messageId: `m${index}`, top: y - scrollTop, bottom: y + height - scrollTop };
    y += height;
    return row;
  });
}

describe("placeOfView", () => {
  const view = { top: 0, bottom: 600, distanceFromEnd: 500 };

  it("names the row holding the view's top line, with its top above the view", () => {
    const rows = layout([300, 500, 200], 450);
    expect(placeOfView(view, rows)).toEqual({ messageId: "m1", offset: -150 });
  });

  it("a row starting exactly at the top is that row, offset 0", () => {
    expect(placeOfView(view, layout([300, 500], 300))).toEqual({ messageId: "m1", offset: 0 });
  });

  it("with no row at the top (the history header), the first row starting in the view", () => {
    const rows = layout([300, 500], 0).map((row) => ({
      ...row,
      top: row.top + 80,
      bottom: row.bottom + 80,
    }));
    expect(placeOfView(view, rows)).toEqual({ messageId: "m0", offset: 80 });
  });

  it("at the end (within 2 px) is the end, whatever the rows", () => {
    expect(placeOfView({ ...view, distanceFromEnd: 2 }, layout([300], 0))).toEqual({ atEnd: true });
    expect(placeOfView({ ...view, distanceFromEnd: 3 }, layout([300], 0))).not.toEqual({
      atEnd: true,
    });
  });

  it("no row in view: no place", () => {
    expect(placeOfView(view, [])).toBeNull();
    expect(placeOfView(view, [{ messageId: "m", top: 700, bottom: 900 }])).toBeNull();
  });

  it("re-applied after the rows above were measured again, the same row lands at the same offset", () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 40, max: 2000 }), { minLength: 3, maxLength: 40 }),
        fc.array(fc.integer({ min: 40, max: 2000 }), { minLength: 40, maxLength: 40 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (heights, remeasured, at) => {
          const clientHeight = 600;
          const total = heights.reduce((sum, h) => sum + h, 0);
          const scrollTop = Math.floor(at * Math.max(0, total - clientHeight - 10));
          const box = {
            top: 0,
            bottom: clientHeight,
            distanceFromEnd: total - clientHeight - scrollTop,
          };
          const place = placeOfView(box, layout(heights, scrollTop));
          if (place === null || "atEnd" in place) return;
          const index = Number(place.messageId.slice(1));
          // Every row above the place changes height; the place's row and those below do not.
          const after = heights.map((h, i) => (i < index ? (remeasured[i] ?? h) : h));
          const afterTotal = after.reduce((sum, h) => sum + h, 0);
          const rows = layout(after, scrollTop);
          const row = rows[index];
          if (!row) throw new Error("row");
          const top = scrollTopToOffset(
            { scrollTop, scrollHeight: afterTotal, clientHeight },
            { top: 0, height: clientHeight },
            { top: row.top, height: row.bottom - row.top },
            place.offset,
          );
          const landed = layout(after, top)[index];
          const max = Math.max(0, afterTotal - clientHeight);
          // Unless the scroll range clamps it, the row is back at its offset.
          if (top > 0 && top < max) expect(landed?.top).toBeCloseTo(place.offset, 6);
        },
      ),
    );
  });
});

describe("viewPositionOfOffset", () => {
  it("opens a row that starts above the view at the top, one below in proportion", () => {
    expect(viewPositionOfOffset(-300, 600)).toBe(0);
    expect(viewPositionOfOffset(150, 600)).toBe(0.25);
    expect(viewPositionOfOffset(900, 600)).toBe(1);
    expect(viewPositionOfOffset(100, 0)).toBe(0);
  });
});
