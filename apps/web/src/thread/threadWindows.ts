/**
 * Windows of history: the loaded parts of one thread as disjoint ranges, ordered by `seq`.
 * Each range is a contiguous run of the server's messages (nothing of the thread is missing
 * between its first and last id). A long thread is read as the newest range (which live
 * messages extend) plus, after a jump to an old message, a detached range around it; edge pages
 * grow a range in either direction and two ranges merge as soon as they meet.
 *
 * Pure functions, no React, no DOM. A message's `seq` is looked up through `seqOf`, so ranges
 * hold ids only and stay cheap to copy.
 */

/** One contiguous, loaded run of a thread's messages. */
export type HistoryRange = {
  /** Message ids by ascending `seq`, contiguous in the server's order. */
  readonly ids: readonly string[];
  /** False once the range starts at the thread's first message. */
  readonly hasOlder: boolean;
  /** `before=` cursor of the page just older than the range; null when unknown or at the start. */
  readonly olderCursor: string | null;
  /** False while the range reaches the thread's newest message (live messages land here). */
  readonly hasNewer: boolean;
  /** `after=` cursor of the page just newer than the range; null when unknown or at the end. */
  readonly newerCursor: string | null;
};

/** How a loaded page sits against the ranges already held. */
export type SegmentJoin =
  /** A `before=<cursor>` page: it ends right before the range whose `olderCursor` is `cursor`. */
  | { side: "older"; cursor: string }
  /** An `after=<cursor>` page: it starts right after the range whose `newerCursor` is `cursor`. */
  | { side: "newer"; cursor: string }
  /** Self-contained (newest page, around window): it joins only what it overlaps. */
  | null;

type SeqOf = (id: string) => number;

const firstSeq = (range: HistoryRange, seqOf: SeqOf) => seqOf(range.ids[0]!);
const lastSeq = (range: HistoryRange, seqOf: SeqOf) => seqOf(range.ids[range.ids.length - 1]!);

/** Merges two id lists sorted by seq, dropping duplicates. */
function mergeIds(a: readonly string[], b: readonly string[], seqOf: SeqOf): string[] {
  const result: string[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (j >= b.length) result.push(a[i++]!);
    else if (i >= a.length) result.push(b[j++]!);
    else {
      const sa = seqOf(a[i]!);
      const sb = seqOf(b[j]!);
      if (sa < sb) result.push(a[i++]!);
      else if (sb < sa) result.push(b[j++]!);
      else {
        result.push(a[i++]!);
        j++;
      }
    }
  }
  return result;
}

/**
 * One range covering two that overlap or touch. Each edge comes from the range reaching
 * further that way; on a tie, "at the edge of the thread" wins (it was learned, not guessed).
 */
function mergeRanges(a: HistoryRange, b: HistoryRange, seqOf: SeqOf): HistoryRange {
  const ids = mergeIds(a.ids, b.ids, seqOf);
  const fa = firstSeq(a, seqOf);
  const fb = firstSeq(b, seqOf);
  const la = lastSeq(a, seqOf);
  const lb = lastSeq(b, seqOf);
  const older =
    fa < fb
      ? a
      : fb < fa
        ? b
        : {
            hasOlder: a.hasOlder && b.hasOlder,
            olderCursor: a.hasOlder && b.hasOlder ? (a.olderCursor ?? b.olderCursor) : null,
          };
  const newer =
    la > lb
      ? a
      : lb > la
        ? b
        : {
            hasNewer: a.hasNewer && b.hasNewer,
            newerCursor: a.hasNewer && b.hasNewer ? (a.newerCursor ?? b.newerCursor) : null,
          };
  return {
    ids,
    hasOlder: older.hasOlder,
    olderCursor: older.olderCursor,
    hasNewer: newer.hasNewer,
    newerCursor: newer.newerCursor,
  };
}

/**
 * A range that is not the last cannot reach the newest message, and one that is not the first
 * cannot start the thread (only stale pages could claim so).
 */
function normalize(ranges: HistoryRange[]): HistoryRange[] {
  return ranges.map((range, index) => {
    const notFirst = index > 0 && !range.hasOlder;
    const notLast = index < ranges.length - 1 && !range.hasNewer;
    if (!notFirst && !notLast) return range;
    return {
      ...range,
      ...(notFirst ? { hasOlder: true } : {}),
      ...(notLast ? { hasNewer: true } : {}),
    };
  });
}

/**
 * Adds a loaded page (as a range) to `ranges`. `seqOf` must know every id of both. The result is
 * sorted, disjoint and duplicate-free: the page merges with every range it overlaps, and with the
 * range it was requested from (`join`). An empty page only moves that range's edge (an empty
 * `before=` page with no further cursor means the range starts the thread).
 */
export function insertSegment(
  ranges: readonly HistoryRange[],
  segment: HistoryRange,
  join: SegmentJoin,
  seqOf: SeqOf,
): readonly HistoryRange[] {
  const target =
    join === null
      ? undefined
      : ranges.find((range) =>
          join.side === "older"
            ? range.olderCursor === join.cursor
            : range.newerCursor === join.cursor,
        );
  if (segment.ids.length === 0) {
    if (target === undefined || join === null) return ranges;
    const edge =
      join.side === "older"
        ? { hasOlder: segment.hasOlder, olderCursor: segment.olderCursor }
        : { hasNewer: segment.hasNewer, newerCursor: segment.newerCursor };
    return normalize(ranges.map((range) => (range === target ? { ...range, ...edge } : range)));
  }

  // Sweep by first seq, merging a range into the previous one when they overlap, or when they
  // are the requested page and the range it was requested from (they touch).
  type Item = { range: HistoryRange; isSegment: boolean; isTarget: boolean };
  const items: Item[] = ranges.map((range) => ({
    range,
    isSegment: false,
    isTarget: range === target,
  }));
  items.push({ range: segment, isSegment: true, isTarget: false });
  items.sort((x, y) => firstSeq(x.range, seqOf) - firstSeq(y.range, seqOf));

  const touches = (before: Item, after: Item) =>
    join !== null &&
    ((join.side === "older" && before.isSegment && after.isTarget) ||
      (join.side === "newer" && before.isTarget && after.isSegment));

  const sweep = (list: readonly Item[]): Item[] => {
    const merged: Item[] = [];
    for (const item of list) {
      const previous = merged[merged.length - 1];
      if (
        previous !== undefined &&
        (firstSeq(item.range, seqOf) <= lastSeq(previous.range, seqOf) || touches(previous, item))
      ) {
        merged[merged.length - 1] = {
          range: mergeRanges(previous.range, item.range, seqOf),
          isSegment: previous.isSegment || item.isSegment,
          isTarget: previous.isTarget || item.isTarget,
        };
      } else {
        merged.push(item);
      }
    }
    return merged;
  };
  // A second pass: the page may first merge with a range it overlaps and only then sit next
  // to the range it was requested from.
  const merged = sweep(sweep(items));
  return normalize(merged.map((item) => item.range));
}

/**
 * Adds a message that just happened (a live event or the prompt the user sent) to the newest
 * range, by seq. With no range that reaches the newest message yet, it starts one (the newest
 * page merges with it later); `startsThread` (the thread was read empty, so nothing is older)
 * makes that range begin the thread, with no older history to ask for. A message older than the
 * newest range that falls in no range's span is left out: it will arrive with the page that
 * covers it.
 */
export function insertLiveMessage(
  ranges: readonly HistoryRange[],
  id: string,
  seq: number,
  seqOf: SeqOf,
  startsThread = false,
): readonly HistoryRange[] {
  const last = ranges[ranges.length - 1];
  if (last === undefined || (last.hasNewer && seq > lastSeq(last, seqOf))) {
    const live: HistoryRange = {
      ids: [id],
      hasOlder: !(last === undefined && startsThread),
      olderCursor: null,
      hasNewer: false,
      newerCursor: null,
    };
    return normalize([...ranges, live]);
  }
  // The newest range takes any later message; one started by live messages alone (its older
  // edge unknown: no page has told it, or the thread was read empty) takes an earlier one too,
  // as events may come out of order.
  const index = ranges.findIndex(
    (range, i) =>
      (i === ranges.length - 1 &&
        !range.hasNewer &&
        (seq > firstSeq(range, seqOf) ||
          (range.hasOlder && range.olderCursor === null) ||
          startsThread)) ||
      (seq >= firstSeq(range, seqOf) && seq <= lastSeq(range, seqOf)),
  );
  if (index === -1) return ranges;
  const range = ranges[index]!;
  if (range.ids.includes(id)) return ranges;
  const ids = seq > lastSeq(range, seqOf) ? [...range.ids, id] : mergeIds(range.ids, [id], seqOf);
  const next = [...ranges];
  next[index] = { ...range, ids };
  return next;
}

/** Index of the range holding the message with this seq, or -1 (binary search over spans). */
export function rangeIndexOfSeq(
  ranges: readonly HistoryRange[],
  seq: number,
  seqOf: SeqOf,
): number {
  let low = 0;
  let high = ranges.length - 1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    const range = ranges[mid]!;
    if (seq < firstSeq(range, seqOf)) high = mid - 1;
    else if (seq > lastSeq(range, seqOf)) low = mid + 1;
    else return mid;
  }
  return -1;
}

/** Every id of every range, in seq order. */
export function allRangeIds(ranges: readonly HistoryRange[]): string[] {
  if (ranges.length === 1) return [...ranges[0]!.ids];
  return ranges.flatMap((range) => range.ids);
}
