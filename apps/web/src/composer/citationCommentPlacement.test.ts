import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  COMMENT_EDITOR_GAP,
  COMMENT_EDITOR_MARGIN,
  placeCitationCommentEditor,
} from "./citationCommentPlacement.ts";

const viewport = { width: 1000, height: 800 };
const size = { width: 300, height: 150 };

describe("placeCitationCommentEditor", () => {
  it("goes below the anchor, left-aligned, when it fits", () => {
    expect(
      placeCitationCommentEditor({ left: 100, top: 200, right: 400, bottom: 220 }, size, viewport),
    ).toEqual({ x: 100, y: 220 + COMMENT_EDITOR_GAP, side: "below" });
  });

  it("goes above when there is no room below", () => {
    expect(
      placeCitationCommentEditor({ left: 100, top: 700, right: 400, bottom: 720 }, size, viewport),
    ).toEqual({ x: 100, y: 700 - COMMENT_EDITOR_GAP - 150, side: "above" });
  });

  it("takes the roomier side and clamps when neither side fits", () => {
    const tall = { width: 300, height: 500 };
    const placed = placeCitationCommentEditor(
      { left: 100, top: 300, right: 400, bottom: 320 },
      tall,
      viewport,
    );
    expect(placed.side).toBe("below");
    expect(placed.y).toBe(viewport.height - tall.height - COMMENT_EDITOR_MARGIN);
  });

  it("stays inside the viewport horizontally", () => {
    expect(
      placeCitationCommentEditor({ left: 900, top: 100, right: 990, bottom: 120 }, size, viewport)
        .x,
    ).toBe(viewport.width - size.width - COMMENT_EDITOR_MARGIN);
    expect(
      placeCitationCommentEditor({ left: -50, top: 100, right: 10, bottom: 120 }, size, viewport).x,
    ).toBe(COMMENT_EDITOR_MARGIN);
  });

  it("sits near the bottom centre without an anchor", () => {
    expect(placeCitationCommentEditor(null, size, viewport)).toEqual({
      x: 350,
      y: viewport.height - size.height - COMMENT_EDITOR_MARGIN,
      side: "none",
    });
  });

  it("keeps a popover that fits the viewport fully inside it, for any anchor", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -2000, max: 3000 }),
        fc.integer({ min: -2000, max: 3000 }),
        fc.integer({ min: 0, max: 400 }),
        fc.integer({ min: 0, max: 200 }),
        fc.integer({ min: 0, max: 984 }),
        fc.integer({ min: 0, max: 784 }),
        (left, top, width, height, popoverWidth, popoverHeight) => {
          const box = { width: popoverWidth, height: popoverHeight };
          const { x, y } = placeCitationCommentEditor(
            { left, top, right: left + width, bottom: top + height },
            box,
            viewport,
          );
          expect(x).toBeGreaterThanOrEqual(COMMENT_EDITOR_MARGIN);
          expect(y).toBeGreaterThanOrEqual(COMMENT_EDITOR_MARGIN);
          expect(x + box.width).toBeLessThanOrEqual(viewport.width - COMMENT_EDITOR_MARGIN);
          expect(y + box.height).toBeLessThanOrEqual(viewport.height - COMMENT_EDITOR_MARGIN);
        },
      ),
    );
  });
});
