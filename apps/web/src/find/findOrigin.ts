/**
 * Where find starts (issue 32): at the match nearest the view, not at the oldest one. Pure: the
 * hook reads the view once, as a search starts (`FindOrigin`), and the reducer asks
 * {@link startIndex} as pages of matches arrive, in thread order.
 *
 * Rules:
 * - A match in a message shown in the view (any part of its row) wins: the first such match.
 * - Else the nearer of the last match above the view and the first one below it, counted in
 *   messages of the range the view shows; a tie goes down (reading on, as a browser's find does).
 *   A match outside that range is farther than any inside it.
 * - Matches come in thread order, so a match outside the range is above it when it comes before
 *   a match inside it, below when after one, and the range's own edges tell the rest (no older
 *   messages: everything else is below; no newer ones: above).
 * - The start waits for more pages only while a nearer match could still come: until a match in
 *   the view or below it has arrived, or every page is in. Without an origin (no rows), or when
 *   nothing can be placed, find starts at the first match.
 */

/** The view as a search starts: the range of history it shows and the messages in view. */
export type FindOrigin = {
  /** Position of each message of the range shown, in thread order. */
  indexOf: ReadonlyMap<string, number>;
  /** Positions (in `indexOf`) of the first and last message in view. */
  first: number;
  last: number;
  /** Whether messages exist before / after the range. */
  hasOlder: boolean;
  hasNewer: boolean;
};

/** Builds an origin from a range's ids and the ids of the rows in view (any order). */
export function findOriginOf(
  range: { ids: readonly string[]; hasOlder?: boolean; hasNewer?: boolean },
  inView: readonly string[],
): FindOrigin | null {
  const indexOf = new Map<string, number>();
  range.ids.forEach((id, index) => {
    indexOf.set(id, index);
  });
  let first = Number.POSITIVE_INFINITY;
  let last = Number.NEGATIVE_INFINITY;
  for (const id of inView) {
    const index = indexOf.get(id);
    if (index === undefined) continue;
    first = Math.min(first, index);
    last = Math.max(last, index);
  }
  if (!Number.isFinite(first)) return null;
  return {
    indexOf,
    first,
    last,
    hasOlder: range.hasOlder ?? true,
    hasNewer: range.hasNewer ?? true,
  };
}

type Side = "above" | "in" | "below" | "unknown";

/**
 * The index (into `matches`) find starts at, or null while a nearer match may still come on a
 * later page. `complete`: every page is in.
 */
export function startIndex(
  matches: readonly { messageId: string }[],
  origin: FindOrigin | null,
  complete: boolean,
): number | null {
  if (matches.length === 0) return complete ? -1 : null;
  if (origin === null) return 0;
  const positions = matches.map((match) => origin.indexOf.get(match.messageId));
  const firstInRange = positions.findIndex((position) => position !== undefined);
  let lastInRange = -1;
  positions.forEach((position, index) => {
    if (position !== undefined) lastInRange = index;
  });
  const sideOf = (index: number): Side => {
    const position = positions[index];
    if (position !== undefined) {
      return position < origin.first ? "above" : position > origin.last ? "below" : "in";
    }
    if (!origin.hasOlder) return "below";
    if (!origin.hasNewer) return "above";
    if (firstInRange !== -1 && index < firstInRange) return "above";
    if (lastInRange !== -1 && index > lastInRange) return "below";
    return "unknown";
  };
  const distanceOf = (index: number): number => {
    const position = positions[index];
    if (position === undefined) return Number.POSITIVE_INFINITY;
    return position < origin.first ? origin.first - position : position - origin.last;
  };
  let above = -1;
  let below = -1;
  for (let index = 0; index < matches.length; index++) {
    const side = sideOf(index);
    if (side === "in") return index;
    if (side === "above") above = index;
    if (side === "below") {
      below = index;
      break;
    }
  }
  if (below === -1 && !complete) return null;
  if (above === -1 && below === -1) return 0;
  if (above === -1) return below;
  if (below === -1) return above;
  return distanceOf(below) <= distanceOf(above) ? below : above;
}
