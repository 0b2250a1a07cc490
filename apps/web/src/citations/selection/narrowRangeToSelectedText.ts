/**
 * Narrowing a selected range to the displayed text it selects, so an endpoint in an empty
 * position (after a triple click, between blocks, inside a control) does not point into a
 * neighbouring message. Part of capture (`assistantTextSelection.ts`); reads a live DOM and
 * never changes it.
 */
import { isRenderedWhitespaceCode } from "@app/citations";
import { isRenderedTextNode } from "../../renderedText/renderedTextStream.ts";

/** The next node in tree order, optionally skipping `node`'s own descendants. */
function nextInTree(node: Node, skipChildren: boolean): Node | null {
  if (!skipChildren && node.firstChild) return node.firstChild;
  for (let current: Node | null = node; current !== null; current = current.parentNode) {
    if (current.nextSibling) return current.nextSibling;
  }
  return null;
}

function lastDescendant(node: Node): Node {
  let current = node;
  while (current.lastChild) current = current.lastChild;
  return current;
}

/** The previous node in reverse tree order (ancestors come after their descendants). */
function previousInTree(node: Node): Node | null {
  return node.previousSibling ? lastDescendant(node.previousSibling) : node.parentNode;
}

const isCharacterData = (node: Node) =>
  node.nodeType === Node.TEXT_NODE ||
  node.nodeType === Node.COMMENT_NODE ||
  node.nodeType === Node.CDATA_SECTION_NODE ||
  node.nodeType === Node.PROCESSING_INSTRUCTION_NODE;

/** The first node in tree order that starts at or after the boundary point. */
function nodeAtOrAfter(container: Node, offset: number): Node | null {
  if (isCharacterData(container)) return nextInTree(container, true);
  return container.childNodes[offset] ?? nextInTree(container, true);
}

/** The last node in reverse tree order that lies before the boundary point. */
function nodeBefore(container: Node, offset: number): Node | null {
  if (isCharacterData(container)) return previousInTree(container);
  const child = container.childNodes[offset - 1];
  return child ? lastDescendant(child) : previousInTree(container);
}

function hasNonWhitespaceBetween(text: string, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    if (!isRenderedWhitespaceCode(text.charCodeAt(i))) return true;
  }
  return false;
}

/** The part of text node `node` that `range` covers, as `[start, end)` in `node.data`. */
function coveredPart(range: Range, node: Text): [number, number] {
  const start = node === range.startContainer ? range.startOffset : 0;
  const end = node === range.endContainer ? range.endOffset : node.data.length;
  return [start, end];
}

/** Whether `node` is displayed text with a non-whitespace unit inside `range`. */
function selectsText(range: Range, node: Node): node is Text {
  if (node.nodeType !== Node.TEXT_NODE) return false;
  const text = node as Text;
  const [start, end] = coveredPart(range, text);
  return hasNonWhitespaceBetween(text.data, start, end) && isRenderedTextNode(text);
}

/**
 * Narrows `range` to the first and last displayed text nodes it selects, so an endpoint sitting
 * in an empty position (offset 0 of the next block after a triple click, the end of a text
 * node, between blocks, inside a control) no longer points into a neighbouring message.
 * Endpoints already inside selected text stay where they are. Returns null when the range
 * selects no displayed, non-whitespace text.
 */
export function narrowRangeToSelectedText(range: Range): Range | null {
  const afterEnd = nodeAtOrAfter(range.endContainer, range.endOffset);
  let first: Text | null = null;
  for (
    let node: Node | null =
      range.startContainer.nodeType === Node.TEXT_NODE
        ? range.startContainer
        : nodeAtOrAfter(range.startContainer, range.startOffset);
    node !== null && node !== afterEnd;
    node = nextInTree(node, false)
  ) {
    if (selectsText(range, node)) {
      first = node;
      break;
    }
  }
  if (first === null) return null;

  const beforeStart =
    range.startContainer.nodeType === Node.TEXT_NODE
      ? previousInTree(range.startContainer)
      : nodeBefore(range.startContainer, range.startOffset);
  let last: Text | null = null;
  for (
    let node: Node | null =
      range.endContainer.nodeType === Node.TEXT_NODE
        ? range.endContainer
        : nodeBefore(range.endContainer, range.endOffset);
    node !== null && node !== beforeStart;
    node = previousInTree(node)
  ) {
    if (selectsText(range, node)) {
      last = node;
      break;
    }
  }
  if (last === null) return null;

  const narrowed = range.cloneRange();
  narrowed.setStart(first, coveredPart(range, first)[0]);
  narrowed.setEnd(last, coveredPart(range, last)[1]);
  return narrowed;
}
