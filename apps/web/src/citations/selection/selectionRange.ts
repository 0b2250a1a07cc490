/**
 * The one range a selection stands for: from the first range's start to the last one's end
 * (Firefox keeps one range per selected table cell; a citation covers them as one span). A
 * copy, possibly collapsed; null when the selection has no range.
 */
export function selectionRange(selection: Selection): Range | null {
  if (selection.rangeCount === 0) return null;
  const range = selection.getRangeAt(0).cloneRange();
  for (let i = 1; i < selection.rangeCount; i++) {
    const next = selection.getRangeAt(i);
    if (range.compareBoundaryPoints(Range.START_TO_START, next) > 0) {
      range.setStart(next.startContainer, next.startOffset);
    }
    if (range.compareBoundaryPoints(Range.END_TO_END, next) < 0) {
      range.setEnd(next.endContainer, next.endOffset);
    }
  }
  return range;
}

/** Whether two ranges have the same boundary nodes and offsets (identity, not position). */
export function sameRange(a: Range, b: Range): boolean {
  return (
    a.startContainer === b.startContainer &&
    a.startOffset === b.startOffset &&
    a.endContainer === b.endContainer &&
    a.endOffset === b.endOffset
  );
}
