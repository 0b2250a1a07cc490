/**
 * Capturing a DOM selection as an assistant citation, and finding a citation's text again in a
 * rendered message (spec: "Selection and source matching"). The offsets and context come from
 * the pure kernel in `@app/citations`; this module only reads the DOM to build the rendered-text
 * stream (`renderedTextStream.ts`) and maps between stream offsets and DOM positions.
 *
 * Every function here reads a live DOM; none of them changes it or the document selection.
 */
import {
  ASSISTANT_CITATION_MAX_TEXT_LENGTH,
  type AssistantCitation,
  AssistantCitationSchema,
  type AssistantCitationSelector,
  buildNormalizedRenderedText,
  createAssistantCitationSelector,
  findAssistantCitationText,
  isRenderedWhitespaceCode,
  normalizedRangeToRaw,
} from "@app/citations";
import {
  buildRenderedTextStream,
  domPointToStreamOffset,
  isRenderedTextNode,
  streamRangeToDomRange,
} from "./renderedTextStream.ts";
import { selectionRange } from "./selectionRange.ts";

export {
  buildRenderedTextStream,
  domPointToStreamOffset,
  type RenderedTextSegment,
  type RenderedTextStream,
  streamOffsetToDomPoint,
  streamRangeToDomRange,
} from "./renderedTextStream.ts";

/** The attribute on each assistant message body; its value is the message id. */
export const ASSISTANT_CITATION_SOURCE_ATTRIBUTE = "data-assistant-citation-source";

const SOURCE_SELECTOR = `[${ASSISTANT_CITATION_SOURCE_ATTRIBUTE}]`;

/** The ids a captured citation needs besides the message id (which comes from the DOM). */
export type AssistantCitationContext = { environmentId: string; threadId: string };

/** A selection captured inside one assistant response. */
export type AssistantTextSelectionCapture = {
  /**
   * The citation, version 1, without a comment. When {@link overLimit} is true its `text` is
   * longer than the wire format allows: it must not be serialized (the schema rejects it).
   */
  citation: AssistantCitation;
  /** The cited text in the DOM: the selection narrowed to the displayed text it covers. */
  range: Range;
  /** The message body (`[data-assistant-citation-source]`) holding the selection. */
  source: Element;
  /** True when `citation.text` is longer than `ASSISTANT_CITATION_MAX_TEXT_LENGTH` units. */
  overLimit: boolean;
};

/** Why a selection cannot be cited. */
export type AssistantTextSelectionRejectReason =
  /**
   * No range, a collapsed range, or one that covers no displayed non-whitespace text (a double
   * click on a space, a selection of a button label, a selection of whitespace between blocks).
   */
  | "empty"
  /** An end of the selection is not inside an assistant response. */
  | "outside-response"
  /** The selection spans two or more responses. */
  | "multiple-responses"
  /** The selected stream slice is only whitespace (a safety net: narrowing reports most as `empty`). */
  | "blank"
  /** The environment, thread or message id cannot appear in a citation (blank, too long). */
  | "invalid-source";

/** A selection that cannot be cited: `citation` is null and `reason` says why. */
export type AssistantTextSelectionRejection = {
  citation: null;
  reason: AssistantTextSelectionRejectReason;
  /** A sentence for logs and tests; not meant for end users. */
  message: string;
};

/** The outcome of {@link captureAssistantTextSelection}; test `citation === null` first. */
export type AssistantTextSelectionResult =
  | AssistantTextSelectionCapture
  | AssistantTextSelectionRejection;

const reject = (
  reason: AssistantTextSelectionRejectReason,
  message: string,
): AssistantTextSelectionRejection => ({ citation: null, reason, message });

/** The range to cite: the selection's one range (see selectionRange), or the range itself. */
function rangeOf(selection: Selection | Range): Range | null {
  return "rangeCount" in selection ? selectionRange(selection) : selection;
}

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

function sourceOf(node: Node): Element | null {
  const element = node.nodeType === Node.ELEMENT_NODE ? (node as Element) : node.parentElement;
  return element?.closest(SOURCE_SELECTOR) ?? null;
}

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;
const isLowSurrogate = (code: number) => code >= 0xdc00 && code <= 0xdfff;

/** Whether `offset` falls between the two halves of a surrogate pair in `text`. */
function splitsSurrogatePair(text: string, offset: number): boolean {
  return (
    offset > 0 &&
    offset < text.length &&
    isHighSurrogate(text.charCodeAt(offset - 1)) &&
    isLowSurrogate(text.charCodeAt(offset))
  );
}

/**
 * Captures one native DOM selection (or range) inside one assistant response as a citation.
 *
 * Steps: the range (for a multi-range Selection, from the first start to the last end; backward
 * selections need nothing special since ranges are always forward) is narrowed to the displayed
 * text it selects ({@link narrowRangeToSelectedText}); both ends must then lie in the same
 * `[data-assistant-citation-source]` element, whose value is the message id. The rendered-text
 * stream of that element gives the raw offsets (an end splitting a surrogate pair takes in the
 * whole character), and `createAssistantCitationSelector` the quote, offsets and context. The
 * quote keeps line breaks and indentation exactly as displayed.
 *
 * A quote longer than `ASSISTANT_CITATION_MAX_TEXT_LENGTH` is still returned, with
 * `overLimit: true`, so the toolbar can say why it cannot be cited. Never throws for a selection
 * outside the app; rejections carry a reason.
 */
export function captureAssistantTextSelection(
  selection: Selection | Range,
  context: AssistantCitationContext,
): AssistantTextSelectionResult {
  const range = rangeOf(selection);
  if (range === null || range.collapsed) return reject("empty", "Nothing is selected.");
  const narrowed = narrowRangeToSelectedText(range);
  if (narrowed === null) return reject("empty", "The selection holds no displayed text.");

  const source = sourceOf(narrowed.startContainer);
  const endSource = sourceOf(narrowed.endContainer);
  if (source === null || endSource === null) {
    return reject("outside-response", "The selection is not inside an assistant response.");
  }
  if (source !== endSource) {
    return reject("multiple-responses", "The selection spans more than one assistant response.");
  }

  const stream = buildRenderedTextStream(source);
  let start = domPointToStreamOffset(
    stream,
    narrowed.startContainer,
    narrowed.startOffset,
    "start",
  );
  let end = domPointToStreamOffset(stream, narrowed.endContainer, narrowed.endOffset, "end");
  if (splitsSurrogatePair(stream.text, start)) start--;
  if (splitsSurrogatePair(stream.text, end)) end++;
  const selector = createAssistantCitationSelector(stream.text, start, end);
  if (selector === null) return reject("blank", "Only whitespace is selected.");

  const citation: AssistantCitation = {
    version: 1,
    environmentId: context.environmentId,
    threadId: context.threadId,
    messageId: source.getAttribute(ASSISTANT_CITATION_SOURCE_ATTRIBUTE) ?? "",
    ...selector,
  };
  const overLimit = citation.text.length > ASSISTANT_CITATION_MAX_TEXT_LENGTH;
  // Everything but the quote's length must already be valid; a stand-in quote checks the rest.
  const checked = AssistantCitationSchema.safeParse(
    overLimit ? { ...citation, text: "x" } : citation,
  );
  if (!checked.success) {
    const issue = checked.error.issues[0];
    return reject(
      "invalid-source",
      `This response cannot be cited: ${issue ? `${issue.path.join(".")}: ${issue.message}` : "invalid citation"}.`,
    );
  }
  return {
    citation,
    range: streamRangeToDomRange(stream, start, end),
    source,
    overLimit,
  };
}

/** Where a citation's text is in a rendered message, as a DOM range. */
export type AssistantCitationRangeResolution =
  | { status: "found"; range: Range }
  | { status: "ambiguous"; count: number }
  | { status: "missing" };

/** Number of whitespace units at the start of `text` from `from` on (at most up to `limit`). */
function whitespaceRunForward(text: string, from: number, limit: number): number {
  let i = from;
  while (i < limit && isRenderedWhitespaceCode(text.charCodeAt(i))) i++;
  return i - from;
}

function whitespaceRunBackward(text: string, to: number, limit: number): number {
  let i = to;
  while (i > limit && isRenderedWhitespaceCode(text.charCodeAt(i - 1))) i--;
  return to - i;
}

/**
 * Finds `citation` in the rendered text of `root` (its message body) with the kernel's
 * `findAssistantCitationText` (same normalization, case-sensitive, context first, never
 * guessing between several matches) and maps the match to a DOM range.
 *
 * A match edge on a collapsed space covers a whole whitespace run in the raw stream; the range
 * keeps only as much of that run as the saved quote itself starts or ends with, so re-finding a
 * captured quote gives back the captured range.
 */
export function resolveAssistantCitationRange(
  root: Element,
  citation: Pick<AssistantCitationSelector, "text" | "prefix" | "suffix">,
): AssistantCitationRangeResolution {
  const stream = buildRenderedTextStream(root);
  const match = findAssistantCitationText(stream.text, citation);
  if (match.status !== "found") return match;
  const map = buildNormalizedRenderedText(stream.text);
  const raw = normalizedRangeToRaw(map, match.start, match.end);
  const quote = citation.text;
  let start = raw.start;
  let end = raw.end;
  const leading = whitespaceRunForward(quote, 0, quote.length);
  const runAtStart = whitespaceRunForward(stream.text, start, end);
  start += Math.max(0, runAtStart - leading);
  const trailing = whitespaceRunBackward(quote, quote.length, 0);
  const runAtEnd = whitespaceRunBackward(stream.text, end, start);
  end -= Math.max(0, runAtEnd - trailing);
  return { status: "found", range: streamRangeToDomRange(stream, start, end) };
}
