/**
 * Keeps the find highlights on the page while the timeline mounts, reuses and re-renders rows:
 * after every DOM change under `root` (at most once a frame) it locates the current match and the
 * other matches of the mounted rows afresh and paints them (`findHighlights.ts`). Scrolling alone
 * needs nothing: highlight ranges move with the layout.
 * Ranges are never kept across renders: a reused row shows another message, so a range is only
 * as good as the frame it was located in. Needs a live DOM.
 */
import { clearFindHighlights, describeMatchRow, paintFindHighlights } from "./findHighlights.ts";
import { type FindMatch, sameMatch } from "./findState.ts";
import { type FindQuery, locateMatch, locateMatches } from "./matchRange.ts";

/** Options of {@link startFindPainter}. */
export type FindPainterOptions = {
  /** Observed for changes (the thread body, which holds the timeline across its remounts). */
  root: Element;
  /** The timeline's scroller, whose mounted rows are painted. */
  getScroller(): HTMLElement | null;
  current: FindMatch | null;
  /** Every match, by message id. */
  byMessage: ReadonlyMap<string, readonly FindMatch[]>;
  find: FindQuery;
  /** The hidden description the current match's article is described by. */
  descriptionId: string;
};

/** Paints the mounted matches of one row's body (the current one apart). */
function paintRow(
  body: Element,
  matches: readonly FindMatch[],
  current: FindMatch | null,
  find: FindQuery,
  into: { current: Range | null; others: Range[] },
): void {
  const others = current === null ? matches : matches.filter((match) => !sameMatch(match, current));
  into.others.push(...locateMatches(body, others, find));
  if (current !== null && others.length !== matches.length) {
    into.current = locateMatch(body, current, find);
  }
}

/** Paints now and after every change (see the module doc); returns a function that stops it. */
export function startFindPainter(options: FindPainterOptions): () => void {
  const { root, getScroller, current, byMessage, find, descriptionId } = options;
  let frame = 0;
  const paint = () => {
    frame = 0;
    const scroller = getScroller();
    const found: { current: Range | null; others: Range[] } = { current: null, others: [] };
    if (scroller !== null && find.query !== "") {
      for (const row of scroller.querySelectorAll("[data-message-id]")) {
        const matches = byMessage.get(row.getAttribute("data-message-id") ?? "");
        const body = matches ? row.querySelector(":scope > .message__body") : null;
        if (matches && body) paintRow(body, matches, current, find, found);
      }
    }
    paintFindHighlights(found.current, found.others);
    describeMatchRow(found.current, descriptionId);
  };
  const schedule = () => {
    if (frame === 0) frame = requestAnimationFrame(paint);
  };
  paint();
  const observer = new MutationObserver(schedule);
  observer.observe(root, { subtree: true, childList: true, characterData: true });
  return () => {
    cancelAnimationFrame(frame);
    observer.disconnect();
    clearFindHighlights();
    describeMatchRow(null, descriptionId);
  };
}
