/**
 * The selection observer's `clampDrag` for assistant answers: a drag from inside an answer
 * released outside the thread body keeps the part inside the answer it started (or, dragged
 * upwards, ended) in, so the drag selects to that answer's edge.
 */
import { ASSISTANT_CITATION_SOURCE_ATTRIBUTE } from "./assistantTextSelection.ts";

/** The part of `range` inside the answer one end is in, or null (neither end, or both, in one). */
export function keepDragInAnswer(range: Range): Range | null {
  const sourceOf = (node: Node) =>
    (node instanceof Element ? node : node.parentElement)?.closest(
      `[${ASSISTANT_CITATION_SOURCE_ATTRIBUTE}]`,
    ) ?? null;
  const start = sourceOf(range.startContainer);
  const end = sourceOf(range.endContainer);
  if ((start === null) === (end === null)) return null;
  const kept = range.cloneRange();
  if (start !== null) kept.setEnd(start, start.childNodes.length);
  else if (end !== null) kept.setStart(end, 0);
  return kept;
}
