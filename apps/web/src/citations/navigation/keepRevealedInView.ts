/**
 * After a jump, keeps the revealed words fully inside the timeline's view until the layout
 * around them has settled: every frame for a while it asks the timeline to bring them back
 * whenever any part of them is not visible (rows around the source measured late, a strip
 * shown below the list, a remounted row), unless the reader scrolls, presses or types
 * meanwhile. The timeline does the scrolling (timeline/README.md). Needs a live DOM.
 */

/** What a jump may ask of the timeline (a part of TimelineHandle). */
export type RevealRangeRequest = {
  instant: boolean;
  /** Leave it where it is when any part of it is visible. */
  onlyIfOutOfView?: boolean;
  /** Leave it where it is when all of it is visible. */
  unlessFullyInView?: boolean;
};

/** How long after the jump the words are kept in view (ms). */
export const KEEP_IN_VIEW_MS = 2500;

/**
 * Starts keeping `current.range` in view (see the module doc); `isLive` tells whether the range
 * still covers its text (rows are reused). Returns a cancel function.
 */
export function keepRevealedInView(
  current: { range: Range | null },
  isLive: (range: Range) => boolean,
  revealRange: (range: Range, options: RevealRangeRequest) => void,
): () => void {
  const started = performance.now();
  let frame = 0;
  let stopped = false;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    cancelAnimationFrame(frame);
    window.removeEventListener("wheel", stop);
    window.removeEventListener("touchmove", stop);
    window.removeEventListener("keydown", stop);
    window.removeEventListener("pointerdown", stop, true);
  };
  const tick = () => {
    if (stopped) return;
    if (performance.now() - started > KEEP_IN_VIEW_MS) return stop();
    const range = current.range;
    if (range && isLive(range)) revealRange(range, { instant: true, unlessFullyInView: true });
    frame = requestAnimationFrame(tick);
  };
  window.addEventListener("wheel", stop, { passive: true });
  window.addEventListener("touchmove", stop, { passive: true });
  window.addEventListener("keydown", stop);
  window.addEventListener("pointerdown", stop, true);
  frame = requestAnimationFrame(tick);
  return stop;
}
