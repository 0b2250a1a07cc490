/**
 * Where a citation jump lands, read in the page: the "visible timeline" is the scroller's box
 * below the thread header and above the jump-controls strip, the find bar and the composer; the
 * cited words land when every line of the `assistant-citation` highlight lies inside it (or, when
 * they cannot fit, the first line sits at its top) and no ancestor up to the scroller is faded
 * (opacity below 1, a mask, or a folded long message).
 */
import type { Page } from "@playwright/test";

/** What {@link readLanding} reports. */
export type Landing = {
  /** The highlighted text, or null when there is no highlight (yet). */
  text: string | null;
  /** True when the words are fully in the visible timeline (see the module doc). */
  inView: boolean;
  /** Geometry, for a failure message. */
  top: number;
  bottom: number;
  boxTop: number;
  boxBottom: number;
  faded: boolean;
};

/** Reads the landing of the `assistant-citation` highlight (see the module doc). */
export function readLanding(page: Page): Promise<Landing> {
  return page.evaluate(() => {
    const none = { text: null, inView: false, top: 0, bottom: 0, boxTop: 0, boxBottom: 0 };
    const highlight = CSS.highlights.get("assistant-citation");
    const range = highlight ? [...highlight][0] : undefined;
    const scroller = document.querySelector(".timeline__scroller");
    if (!(range instanceof Range) || !scroller) return { ...none, faded: false };
    const scrollerBox = scroller.getBoundingClientRect();
    let boxTop = Math.max(scrollerBox.top, 0);
    let boxBottom = Math.min(scrollerBox.bottom, window.innerHeight);
    const header = document.querySelector(".thread-header");
    if (header) boxTop = Math.max(boxTop, header.getBoundingClientRect().bottom);
    for (const selector of [".jump-controls", ".thread-view__composer"]) {
      const element = document.querySelector(selector);
      if (!element) continue;
      const rect = element.getBoundingClientRect();
      // Only what actually covers the scroller's lower part counts (an empty strip is 0 high).
      if (rect.height > 0 && rect.top < boxBottom && rect.bottom > boxTop) {
        boxBottom = Math.min(boxBottom, rect.top);
      }
    }
    const lines = [...range.getClientRects()].filter((rect) => rect.height > 0);
    if (lines.length === 0) return { ...none, text: range.toString(), faded: false };
    const top = Math.min(...lines.map((rect) => rect.top));
    const bottom = Math.max(...lines.map((rect) => rect.bottom));
    let faded = false;
    const start = range.startContainer;
    for (
      let element: Element | null = start instanceof Element ? start : start.parentElement;
      element && element !== scroller;
      element = element.parentElement
    ) {
      const style = getComputedStyle(element);
      if (Number(style.opacity) < 1 || (style.maskImage && style.maskImage !== "none")) {
        faded = true;
      }
    }
    const tolerance = 1;
    const fits = bottom - top <= boxBottom - boxTop;
    const firstLine = lines[0]!;
    const inView = fits
      ? top >= boxTop - tolerance && bottom <= boxBottom + tolerance
      : Math.abs(firstLine.top - boxTop) <= firstLine.height;
    return {
      text: range.toString(),
      inView: inView && !faded,
      top,
      bottom,
      boxTop,
      boxBottom,
      faded,
    };
  });
}

/**
 * Resolves once the timeline's scroll position and the highlight's place have not changed for
 * 12 consecutive frames (the jump, its smooth scroll and late measurements have settled).
 */
export function waitForSettledJump(page: Page): Promise<void> {
  return page.evaluate(
    () =>
      new Promise<void>((resolve) => {
        let last = "";
        let still = 0;
        const tick = () => {
          const scroller = document.querySelector(".timeline__scroller");
          const highlight = CSS.highlights.get("assistant-citation");
          const range = highlight ? [...highlight][0] : undefined;
          const rect = range instanceof Range ? range.getBoundingClientRect() : null;
          const now = `${scroller?.scrollTop ?? -1}:${rect ? Math.round(rect.top) : "none"}`;
          still = now === last && rect !== null ? still + 1 : 0;
          last = now;
          if (still >= 12) resolve();
          else requestAnimationFrame(tick);
        };
        requestAnimationFrame(tick);
      }),
  );
}
