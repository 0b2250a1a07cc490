/**
 * DOM-reading part of Markdown selection copy. Walks the rendered Markdown inside a selection
 * range and describes it as {@link CopyPiece}s using the `data-md-start`/`data-md-end` source
 * offsets that ChatMarkdown stamps on block elements. Functions here need a live DOM range.
 */
import {
  type CopyPiece,
  composeSelectionMarkdown,
  type MessageCopySelection,
} from "./composeMarkdownCopy.ts";

/** Elements that never contribute to copied text (buttons, code block headers). */
const SKIP_SELECTOR = "button, [data-text-stream='skip'], [aria-hidden='true']";

/** Sent citation chips (see AssistantCitationChip): copied as their exact link source. */
const CHIP_SELECTOR = "[data-assistant-citation-chip]";

function sourceRange(el: Element): { start: number; end: number } | null {
  const start = el.getAttribute("data-md-start");
  const end = el.getAttribute("data-md-end");
  if (start === null || end === null) return null;
  return { start: Number(start), end: Number(end) };
}

/** The part of `range` inside `node`, as a new range (or null when they do not intersect). */
function clip(range: Range, node: Node): Range | null {
  if (!range.intersectsNode(node)) return null;
  const clipped = node.ownerDocument!.createRange();
  clipped.selectNodeContents(node);
  if (range.compareBoundaryPoints(Range.START_TO_START, clipped) > 0) {
    clipped.setStart(range.startContainer, range.startOffset);
  }
  if (range.compareBoundaryPoints(Range.END_TO_END, clipped) < 0) {
    clipped.setEnd(range.endContainer, range.endOffset);
  }
  return clipped;
}

/** Visible text of a node, leaving out controls. */
function visibleText(node: Node, range: Range | null): string {
  if (node.nodeType === Node.TEXT_NODE) {
    const clipped = range ? clip(range, node) : null;
    if (range && !clipped) return "";
    return clipped ? clipped.toString() : (node.textContent ?? "");
  }
  if (node instanceof Element && node.matches(SKIP_SELECTOR)) return "";
  let text = "";
  for (const child of node.childNodes) text += visibleText(child, range);
  return text;
}

type Coverage = "none" | "partial" | "full";

function coverage(range: Range, el: Element): Coverage {
  if (!range.intersectsNode(el)) return "none";
  const selected = visibleText(el, range);
  if (selected === "") return "none";
  const full = visibleText(el, null);
  return selected === full || selected.trim() === full.trim() ? "full" : "partial";
}

function hasSourceDescendant(el: Element): boolean {
  return el.querySelector("[data-md-start]") !== null;
}

/**
 * Collects pieces for the children of `container`, whose own source range is `context`.
 * Whole source-mapped blocks become `source` pieces; partly selected ones are descended into;
 * loose text becomes `text` pieces.
 */
function collect(
  range: Range,
  container: Node,
  context: { start: number; end: number },
  out: CopyPiece[],
): void {
  for (const child of container.childNodes) {
    if (child instanceof Element) {
      if (child.matches(SKIP_SELECTOR)) continue;
      const own = sourceRange(child);
      if (own && child.matches(CHIP_SELECTOR)) {
        // A citation chip is atomic: touching it copies its whole link source.
        if (range.intersectsNode(child)) out.push({ kind: "source", ...own, inline: true });
        continue;
      }
      if (own) {
        const covered = coverage(range, child);
        if (covered === "full") out.push({ kind: "source", ...own });
        else if (covered === "partial") collect(range, child, own, out);
        continue;
      }
      if (hasSourceDescendant(child)) {
        collect(range, child, context, out);
        continue;
      }
    }
    const text = visibleText(child, range);
    if (text === "") continue;
    const last = out.at(-1);
    if (last?.kind === "text" && last.start === context.start && last.end === context.end) {
      out[out.length - 1] = { ...last, text: last.text + text };
    } else {
      out.push({ kind: "text", text, ...context });
    }
  }
}

/**
 * Describes what `range` selects in each rendered message under `root`. Messages are the
 * `.chat-markdown` bodies inside elements carrying `data-message-id`; `getSource` returns a
 * message's Markdown source (null when unknown, which skips it).
 */
export function readSelectionPieces(
  range: Range,
  root: Element,
  getSource: (messageId: string) => string | null,
): MessageCopySelection[] {
  const selections: MessageCopySelection[] = [];
  for (const body of root.querySelectorAll(".chat-markdown")) {
    if (!range.intersectsNode(body)) continue;
    const messageId = body.closest("[data-message-id]")?.getAttribute("data-message-id");
    const source = messageId ? getSource(messageId) : null;
    if (source === null || source === undefined) continue;
    const pieces: CopyPiece[] = [];
    collect(range, body, { start: 0, end: source.length }, pieces);
    selections.push({ source, pieces });
  }
  return selections;
}

/** The Markdown for the current selection under `root`, or null to keep the browser's copy. */
export function selectionToMarkdown(
  selection: Selection | null,
  root: Element,
  getSource: (messageId: string) => string | null,
): string | null {
  if (selection?.rangeCount !== 1 || selection.isCollapsed) return null;
  const range = selection.getRangeAt(0);
  return composeSelectionMarkdown(readSelectionPieces(range, root, getSource));
}
