/**
 * The rendered-text stream of one assistant message body (DESIGN.md section 6): the text a
 * reader sees, in DOM order, with the offset maps that take a stream offset to a DOM position
 * and back. Citations locate quotes in `normalizeRenderedText(stream.text)`, so capture and
 * resolution must both read the DOM through this one module.
 *
 * Every function here reads a live DOM (nodes, computed styles); none of them changes it.
 *
 * Stream rules:
 * - Text nodes contribute in DOM order. Outside preformatted text, each run of CSS-collapsible
 *   whitespace (space, tab, LF, CR, FF) shows as one space, and runs at the start of a line or
 *   directly before a break show as nothing, as a browser lays them out. Inside `pre` (or any
 *   `white-space: pre | pre-wrap | break-spaces`) text is kept as it is; `pre-line` keeps line
 *   feeds and collapses the rest. NBSP is never collapsible (it is displayed).
 * - Block boxes (`display` other than inline-level, `contents` and `table-cell`; by tag name when
 *   no computed style is available) are separated by exactly one `"\n"`, never at the start or
 *   end of the stream; a block boundary right after a `"\n"` adds nothing. `<br>` adds one
 *   `"\n"` each. Table cells in one row are separated by one `"\t"`; empty cells add nothing.
 * - Controls (`button`, `input`, `select`, `textarea`, control roles such as `role="button"`,
 *   editing hosts: `contenteditable` other than `"false"`), elements marked `data-citation-ignore` or `data-text-stream="skip"`, `hidden`,
 *   `aria-hidden="true"`, `display: none`, `visibility: hidden | collapse` text, the content of
 *   a closed `<details>` (its summary stays), and non-text elements (`svg`, `img`, `script`,
 *   `style`, `template`, ...) contribute nothing. CSS-generated content (`::before`, list
 *   markers) is not in the DOM, and soft wrapping is layout only, so neither ever appears.
 *
 * The tag tables (`EXCLUDED_TAGS`, `BLOCK_TAGS`, `PREFORMATTED_TAGS`) and the writer applying the
 * separator and whitespace rules belong to `@app/markdown`, which reads the same rules off the
 * Markdown tree for the server; this module keeps the DOM walk and the offset maps.
 */
import {
  BLOCK_TAGS,
  EXCLUDED_TAGS,
  PREFORMATTED_TAGS,
  type RenderedTextSegmentKind,
  RenderedTextWriter,
  type WhiteSpaceMode,
} from "@app/markdown";

/** One piece of a {@link RenderedTextStream}, in stream order. */
export interface RenderedTextSegment {
  /**
   * `"text"`: `node.data.slice(nodeStart, nodeEnd)` shown unit by unit. `"space"`: one space
   * standing for the collapsed whitespace run `node.data.slice(nodeStart, nodeEnd)`.
   * `"separator"`: a `"\n"` or `"\t"` the layout creates (block boundary, `<br>`, table cell).
   */
  readonly kind: RenderedTextSegmentKind;
  /** Stream offset where the piece begins. */
  readonly start: number;
  /** Stream offset where the piece ends (exclusive). */
  readonly end: number;
  /**
   * The text node displaying this piece, or `null` for a separator the layout creates (a block
   * boundary, a `<br>`, a table cell boundary).
   */
  readonly node: Text | null;
  /** Where the piece is in `node.data` (see {@link RenderedTextSegment.kind}); 0 for separators. */
  readonly nodeStart: number;
  /** See {@link RenderedTextSegment.nodeStart}. */
  readonly nodeEnd: number;
}

/** The rendered text of an element and how each part of it maps to the DOM. */
export interface RenderedTextStream {
  /** The element the stream was built from. */
  readonly root: Element;
  /** The rendered text (not yet normalized; see `normalizeRenderedText` in `@app/citations`). */
  readonly text: string;
  /** Every piece of `text`, contiguous and in order: `segments[i].end === segments[i + 1].start`. */
  readonly segments: readonly RenderedTextSegment[];
}

/** A boundary point in the DOM, like a `Range` start or end. */
export interface DomPoint {
  readonly node: Node;
  readonly offset: number;
}

/**
 * Which way an offset leans when it falls between displayed text (on a separator, on hidden or
 * collapsed content): `"start"` moves forward to the next displayed text (the start of a range),
 * `"end"` moves back to the previous one (the end of a range).
 */
export type StreamAffinity = "start" | "end";

type Layout = "none" | "block" | "cell" | "inline" | "break";

/** ARIA roles of interactive controls; their labels are not message text. */
const CONTROL_ROLES = new Set([
  "button",
  "checkbox",
  "combobox",
  "menuitem",
  "menuitemcheckbox",
  "menuitemradio",
  "option",
  "radio",
  "scrollbar",
  "searchbox",
  "slider",
  "spinbutton",
  "switch",
  "tab",
  "textbox",
]);

/**
 * True when `element` and its subtree never contribute to the rendered text, judged from its own
 * markup alone (tag, role, `contenteditable`, `hidden`, `aria-hidden`, `data-citation-ignore`,
 * `data-text-stream="skip"`). Computed styles are checked separately.
 */
export function isExcludedFromRenderedText(element: Element): boolean {
  if (EXCLUDED_TAGS.has(element.localName)) return true;
  if (element.hasAttribute("hidden") || element.hasAttribute("data-citation-ignore")) return true;
  if (element.getAttribute("aria-hidden") === "true") return true;
  if (element.getAttribute("data-text-stream") === "skip") return true;
  // An editing host (an inline editor, a form field drawn with contenteditable) is a control
  // whose text is the user's input, not the answer's.
  const editable = element.getAttribute("contenteditable");
  if (editable !== null && editable.toLowerCase() !== "false") return true;
  const role = element.getAttribute("role");
  if (role !== null) {
    const first = role.trim().split(/\s+/, 1)[0] ?? "";
    if (CONTROL_ROLES.has(first.toLowerCase())) return true;
  }
  return false;
}

type StyleReader = (element: Element) => CSSStyleDeclaration | null;

function styleReaderFor(node: Node): StyleReader {
  const view = node.ownerDocument?.defaultView;
  if (!view || typeof view.getComputedStyle !== "function") return () => null;
  return (element) => view.getComputedStyle(element);
}

function layoutOf(element: Element, style: CSSStyleDeclaration | null): Layout {
  if (element.localName === "br") return "break";
  const display = style?.display ?? "";
  if (display !== "") {
    if (display === "none") return "none";
    if (display === "contents") return "inline";
    if (display === "table-cell") return "cell";
    if (display.startsWith("inline") || display.startsWith("ruby")) return "inline";
    return "block";
  }
  if (element.localName === "td" || element.localName === "th") return "cell";
  return BLOCK_TAGS.has(element.localName) ? "block" : "inline";
}

function whiteSpaceModeOf(
  element: Element,
  style: CSSStyleDeclaration | null,
  inherited: WhiteSpaceMode,
): WhiteSpaceMode {
  // Browsers compute the `white-space` shorthand whenever the longhands spell a standard value
  // (always "normal" or "nowrap" for collapsing text). An empty shorthand with a collapsing
  // longhand therefore means a DOM without real style inheritance (jsdom): fall back to tags.
  const whiteSpace = style?.getPropertyValue("white-space") ?? "";
  if (whiteSpace === "normal" || whiteSpace === "nowrap") return "collapse";
  if (whiteSpace === "pre-line") return "preserve-breaks";
  if (whiteSpace === "pre" || whiteSpace === "pre-wrap" || whiteSpace === "break-spaces") {
    return "preserve";
  }
  const collapse = style?.getPropertyValue("white-space-collapse") ?? "";
  if (collapse === "preserve-breaks") return "preserve-breaks";
  if (collapse === "preserve" || collapse === "break-spaces" || collapse === "preserve-spaces") {
    return "preserve";
  }
  return PREFORMATTED_TAGS.has(element.localName) ? "preserve" : inherited;
}

function visibilityOf(style: CSSStyleDeclaration | null, inherited: boolean): boolean {
  const visibility = style?.visibility ?? "";
  if (visibility === "") return inherited;
  return visibility !== "hidden" && visibility !== "collapse";
}

/** The first `<summary>` child of a `<details>`, the only part shown while it is closed. */
function summaryOf(details: Element): Element | null {
  for (const child of details.children) if (child.localName === "summary") return child;
  return null;
}

function isClosedDetails(element: Element): boolean {
  return element.localName === "details" && !element.hasAttribute("open");
}

type Frame = {
  element: Element;
  layout: Layout;
  mode: WhiteSpaceMode;
  visible: boolean;
  next: ChildNode | null;
  /** Closed `<details>`: only the summary is walked. */
  single: boolean;
};

/**
 * Builds the rendered-text stream of `root` (normally one element carrying
 * `data-assistant-citation-source`). The root itself is always walked; the rules in this
 * module's header decide what its descendants contribute. Linear in the size of the subtree;
 * reads each element's computed style once when the document has a view.
 */
export function buildRenderedTextStream(root: Element): RenderedTextStream {
  const readStyle = styleReaderFor(root);
  const segments: RenderedTextSegment[] = [];
  const writer = new RenderedTextWriter<Text>((kind, start, end, node, nodeStart, nodeEnd) => {
    segments.push({ kind, start, end, node, nodeStart, nodeEnd });
  });
  const rootStyle = readStyle(root);
  const stack: Frame[] = [
    {
      element: root,
      layout: "block",
      mode: whiteSpaceModeOf(root, rootStyle, "collapse"),
      visible: visibilityOf(rootStyle, true),
      next: isClosedDetails(root) ? summaryOf(root) : root.firstChild,
      single: isClosedDetails(root),
    },
  ];
  // Iterative walk: deeply nested Markdown (long `>>>>` runs) cannot overflow the call stack.
  while (stack.length > 0) {
    const frame = stack[stack.length - 1]!;
    const child = frame.next;
    if (child === null) {
      stack.pop();
      if (frame.layout === "block") writer.requestLineBreak();
      continue;
    }
    frame.next = frame.single ? null : child.nextSibling;
    if (child.nodeType === Node.TEXT_NODE) {
      if (frame.visible) writer.write((child as Text).data, frame.mode, child as Text);
      continue;
    }
    if (child.nodeType !== Node.ELEMENT_NODE) continue;
    const element = child as Element;
    if (isExcludedFromRenderedText(element)) continue;
    const style = readStyle(element);
    const layout = layoutOf(element, style);
    if (layout === "none") continue;
    if (layout === "break") {
      writer.forcedLineBreak();
      continue;
    }
    if (layout === "block") writer.requestLineBreak();
    else if (layout === "cell") writer.requestCellBreak();
    const closed = isClosedDetails(element);
    stack.push({
      element,
      layout,
      mode: whiteSpaceModeOf(element, style, frame.mode),
      visible: visibilityOf(style, frame.visible),
      next: closed ? summaryOf(element) : element.firstChild,
      single: closed,
    });
  }
  return { root, text: writer.text, segments };
}

/**
 * True when `node` is displayed text: no ancestor excludes it (see
 * {@link isExcludedFromRenderedText}), none is `display: none` or a closed `<details>` it is not
 * the summary of, and its parent is visible. Walks up to the document, so it is meant for a
 * handful of nodes (narrowing a selection), not for whole subtrees.
 */
export function isRenderedTextNode(node: Text): boolean {
  const readStyle = styleReaderFor(node);
  const parent = node.parentElement;
  if (parent === null) return false;
  if (!visibilityOf(readStyle(parent), true)) return false;
  let child: Element | null = null;
  for (let element: Element | null = parent; element !== null; element = element.parentElement) {
    if (isExcludedFromRenderedText(element)) return false;
    if (readStyle(element)?.display === "none") return false;
    if (isClosedDetails(element) && (child === null || child !== summaryOf(element))) return false;
    child = element;
  }
  return true;
}

type StreamIndex = {
  /** Segments backed by a text node, in stream (and DOM) order. */
  textSegments: RenderedTextSegment[];
  /** For each text node, the index in `textSegments` of its first segment. */
  firstSegmentOf: Map<Text, number>;
};

const indexCache = new WeakMap<RenderedTextStream, StreamIndex>();

function indexOf(stream: RenderedTextStream): StreamIndex {
  let index = indexCache.get(stream);
  if (index === undefined) {
    const textSegments: RenderedTextSegment[] = [];
    const firstSegmentOf = new Map<Text, number>();
    for (const segment of stream.segments) {
      if (segment.node === null) continue;
      if (!firstSegmentOf.has(segment.node)) firstSegmentOf.set(segment.node, textSegments.length);
      textSegments.push(segment);
    }
    index = { textSegments, firstSegmentOf };
    indexCache.set(stream, index);
  }
  return index;
}

const isLiteral = (segment: RenderedTextSegment) => segment.kind === "text";

/**
 * The DOM position of stream offset `offset` (clamped to the stream). Offsets on a separator lean
 * to the next displayed text (`"start"`) or the previous one (`"end"`); with no text that way,
 * they map to the end (`"start"`) or the start (`"end"`) of the root.
 */
export function streamOffsetToDomPoint(
  stream: RenderedTextStream,
  offset: number,
  affinity: StreamAffinity,
): DomPoint {
  const { textSegments } = indexOf(stream);
  const at = Math.min(Math.max(Math.trunc(offset) || 0, 0), stream.text.length);
  if (affinity === "start") {
    // First text segment ending after `at`.
    let low = 0;
    let high = textSegments.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (textSegments[mid]!.end > at) high = mid;
      else low = mid + 1;
    }
    const segment = textSegments[low];
    // No text from here on (at the end, or only a trailing `<br>` left): the end of the root.
    if (segment === undefined) return { node: stream.root, offset: stream.root.childNodes.length };
    if (at <= segment.start || !isLiteral(segment)) {
      return { node: segment.node!, offset: segment.nodeStart };
    }
    return { node: segment.node!, offset: segment.nodeStart + (at - segment.start) };
  }
  // Last text segment starting before `at`.
  let low = 0;
  let high = textSegments.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (textSegments[mid]!.start < at) low = mid + 1;
    else high = mid;
  }
  const segment = textSegments[low - 1];
  // No text before (at the start, or only a leading `<br>`): the start of the root.
  if (segment === undefined) return { node: stream.root, offset: 0 };
  if (at >= segment.end || !isLiteral(segment)) {
    return { node: segment.node!, offset: segment.nodeEnd };
  }
  return { node: segment.node!, offset: segment.nodeStart + (at - segment.start) };
}

/**
 * The stream offset of the DOM boundary point (`node`, `offset`). A point inside displayed text
 * maps exactly (inside a collapsed whitespace run: before the space for `"start"`, after it for
 * `"end"`); any other point (between blocks, in hidden or excluded content, in whitespace that
 * is not displayed) leans to the next displayed text (`"start"`) or the previous one (`"end"`),
 * so separators never begin or end a selection. Points before the root give 0, after it the
 * stream length; a point in another document also gives 0.
 */
export function domPointToStreamOffset(
  stream: RenderedTextStream,
  node: Node,
  offset: number,
  affinity: StreamAffinity,
): number {
  const { textSegments, firstSegmentOf } = indexOf(stream);
  const first = node.nodeType === Node.TEXT_NODE ? firstSegmentOf.get(node as Text) : undefined;
  if (first !== undefined) {
    for (let i = first; i < textSegments.length && textSegments[i]!.node === node; i++) {
      const segment = textSegments[i]!;
      if (offset < segment.nodeStart || offset > segment.nodeEnd) continue;
      if (isLiteral(segment)) return segment.start + (offset - segment.nodeStart);
      if (offset === segment.nodeStart) return segment.start;
      if (offset === segment.nodeEnd) return segment.end;
      return affinity === "start" ? segment.start : segment.end;
    }
  }
  const document = stream.root.ownerDocument;
  const point = document.createRange();
  try {
    point.setStart(node, offset);
  } catch {
    return 0;
  }
  point.collapse(true);
  const around = document.createRange();
  around.selectNodeContents(stream.root);
  let placement: number;
  try {
    placement = around.comparePoint(node, offset);
  } catch {
    return 0;
  }
  if (placement < 0) return 0;
  if (placement > 0) return stream.text.length;
  // First text segment whose displayed text starts at or after the point.
  let low = 0;
  let high = textSegments.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    const segment = textSegments[mid]!;
    if (point.comparePoint(segment.node!, segment.nodeStart) >= 0) high = mid;
    else low = mid + 1;
  }
  if (affinity === "start") return textSegments[low]?.start ?? stream.text.length;
  return textSegments[low - 1]?.end ?? 0;
}

/**
 * A DOM `Range` over the stream slice `[start, end)`: the start leans forward and the end back,
 * so a slice beginning or ending on a separator covers just the displayed text.
 */
export function streamRangeToDomRange(
  stream: RenderedTextStream,
  start: number,
  end: number,
): Range {
  const range = stream.root.ownerDocument.createRange();
  const from = streamOffsetToDomPoint(stream, start, "start");
  const to = streamOffsetToDomPoint(stream, Math.max(start, end), "end");
  range.setStart(from.node, from.offset);
  // A slice holding only separators would end before it starts; keep it collapsed at the start.
  if (range.comparePoint(to.node, to.offset) >= 0) range.setEnd(to.node, to.offset);
  return range;
}
