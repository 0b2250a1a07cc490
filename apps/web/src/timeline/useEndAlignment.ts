/**
 * Bottom alignment of a short thread, held still while the view does not follow the end.
 *
 * Legend List's `alignItemsAtEnd` keeps a thread shorter than the view at the bottom by a spacer
 * above the rows, and shrinks that spacer as a reply grows: every row moves up, even under a
 * pressed pointer (63 px during a drag over a brand-new thread's first reply). While the reader
 * holds the view (followPolicy.ts: pressed, or not following), the alignment is switched off
 * and the same space is kept as a fixed top padding of the list header, so the rows stay where
 * they are and the reply grows downwards. Following again restores the alignment.
 */
import { type RefObject, useLayoutEffect, useState } from "react";

/** How the list aligns now: `alignItemsAtEnd` for Legend List, `topSpace` for the header. */
export type EndAlignment = { alignItemsAtEnd: boolean; topSpace: number };

/** The space (px) above the list header: Legend List's alignment spacer. */
function spaceAboveHeader(root: Element): number {
  const content = root.querySelector(".timeline__content");
  const header = root.querySelector("[data-timeline-header]");
  if (content === null || header === null) return 0;
  const padding = Number.parseFloat(getComputedStyle(content).paddingTop) || 0;
  return Math.max(
    0,
    header.getBoundingClientRect().top - content.getBoundingClientRect().top - padding,
  );
}

/** See the module doc. `held`: the reader holds the view (a press, or not following). */
export function useEndAlignment(rootRef: RefObject<Element | null>, held: boolean): EndAlignment {
  const [topSpace, setTopSpace] = useState<number | null>(null);
  useLayoutEffect(() => {
    const root = rootRef.current;
    if (!held || root === null) {
      setTopSpace(null);
      return;
    }
    // Measured before the next paint, while the alignment still holds the rows in place.
    setTopSpace((current) => current ?? spaceAboveHeader(root));
  }, [held, rootRef]);
  return topSpace === null
    ? { alignItemsAtEnd: true, topSpace: 0 }
    : { alignItemsAtEnd: false, topSpace };
}
