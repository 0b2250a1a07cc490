/**
 * The rendered text of a chat message computed from its Markdown, without a DOM: what
 * apps/web/src/renderedText/renderedTextStream.ts reads from the message body the web renders (the
 * `text` of its stream), so the server can index it and search it with the browser's offsets.
 *
 * The tree is the one the web renders (`splitMarkdownBlocks`, then `parseSafeMarkdown` per
 * block); each element is read as the web's components show it and as the app's stylesheet lays
 * it out in a browser (Chromium), by tag name:
 * - `pre` (CodeBlock): its code, whitespace kept; the header (language, "Copy code") is skipped.
 * - `a` (MarkdownLink): the label; a citation link in a user message is a chip showing its label
 *   (`getAssistantCitationChipLabel`) as a block of its own (the chip is `inline-flex`, so the
 *   browser blockifies the label: one `"\n"` before and after it); elsewhere a citation-like
 *   link shows its Markdown source.
 * - `img` (MarkdownImage): `Image: <alt>` (or `Image: untitled`).
 * - `p` in a user message: `white-space: pre-line` (its line feeds stay).
 * - `input` (task list boxes) and other controls: nothing.
 */
import {
  getAssistantCitationChipLabel,
  looksLikeAssistantCitationLink,
  parseAssistantCitationLink,
} from "@app/citations";
import type { ElementContent, Root, RootContent } from "hast";
import { type MarkdownFlavor, parseSafeMarkdown } from "./markdownParse.ts";
import {
  BLOCK_TAGS,
  EXCLUDED_TAGS,
  PREFORMATTED_TAGS,
  type WhiteSpaceMode,
} from "./renderedTextRules.ts";
import { RenderedTextWriter } from "./renderedTextWriter.ts";
import { classifyHref } from "./safeHref.ts";
import { splitMarkdownBlocks } from "./splitMarkdownBlocks.ts";

type Layout = "block" | "cell" | "inline";

/** What one element contributes: its own box, then its children (hast) or a rendered text. */
type Box = { layout: Layout; mode: WhiteSpaceMode; children: readonly RootContent[] };

type Frame = { box: Box; next: number };

type Block = { source: string; flavor: MarkdownFlavor };

function propertyString(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

function sourceOf(node: ElementContent, block: Block): string | null {
  const start = node.position?.start.offset;
  const end = node.position?.end.offset;
  if (start === undefined || end === undefined) return null;
  return block.source.slice(start, end);
}

function textNode(value: string): RootContent {
  return { type: "text", value };
}

/**
 * The box an element shows as, or null when it shows nothing. `writer` receives what a component
 * renders itself (a chip label).
 */
function boxOf(
  element: Extract<RootContent, { type: "element" }>,
  block: Block,
  mode: WhiteSpaceMode,
  writer: RenderedTextWriter,
): Box | null {
  const tag = element.tagName;
  const properties = element.properties;
  // `img` is MarkdownImage, which shows a label (below); every other excluded tag shows nothing.
  if (tag !== "img" && EXCLUDED_TAGS.has(tag)) return null;
  if (properties.hidden === true || properties.ariaHidden === "true") return null;
  if (tag === "a") {
    // MarkdownLink: drops every property but href; the label, a chip, or the link's source.
    const source = sourceOf(element, block);
    const kind = classifyHref(propertyString(properties.href));
    if (kind === "citation" || (source !== null && looksLikeAssistantCitationLink(source))) {
      const parsed =
        source === null || block.flavor !== "user" ? null : parseAssistantCitationLink(source);
      if (parsed !== null) {
        // The chip group (`white-space: nowrap`), its label blockified by the `inline-flex` chip.
        writer.requestLineBreak();
        writer.write(getAssistantCitationChipLabel(parsed.citation), "collapse", null);
        writer.requestLineBreak();
        return null;
      }
      if (source !== null) return { layout: "inline", mode, children: [textNode(source)] };
    }
    return { layout: "inline", mode, children: element.children };
  }
  if (tag === "img") {
    const alt = propertyString(properties.alt)?.trim();
    return { layout: "inline", mode, children: [textNode(`Image: ${alt || "untitled"}`)] };
  }
  const layout: Layout =
    tag === "td" || tag === "th" ? "cell" : BLOCK_TAGS.has(tag) ? "block" : "inline";
  let own = mode;
  if (PREFORMATTED_TAGS.has(tag)) own = "preserve";
  // `.message--user .message__body p { white-space: pre-line }`: typed line breaks stay.
  else if (tag === "p" && block.flavor === "user") own = "preserve-breaks";
  return { layout, mode: own, children: element.children };
}

/** Writes the rendered text of one parsed block (iterative: deep `>>>>` nesting is fine). */
function writeTree(tree: Root, block: Block, writer: RenderedTextWriter): void {
  const stack: Frame[] = [
    { box: { layout: "inline", mode: "collapse", children: tree.children }, next: 0 },
  ];
  while (stack.length > 0) {
    const frame = stack[stack.length - 1]!;
    const child = frame.box.children[frame.next++];
    if (child === undefined) {
      stack.pop();
      if (frame.box.layout === "block") writer.requestLineBreak();
      continue;
    }
    if (child.type === "text") {
      writer.write(child.value, frame.box.mode, null);
      continue;
    }
    if (child.type !== "element") continue;
    if (child.tagName === "br") {
      writer.forcedLineBreak();
      continue;
    }
    const box = boxOf(child, block, frame.box.mode, writer);
    if (box === null) continue;
    if (box.layout === "block") writer.requestLineBreak();
    else if (box.layout === "cell") writer.requestCellBreak();
    stack.push({ box, next: 0 });
  }
}

/**
 * The rendered-text stream `text` of a message body showing `markdown` (a complete message, as
 * stored). Offsets into it are the offsets the browser's `renderedTextStream` gives.
 */
export function renderedTextOfMarkdown(markdown: string, flavor: MarkdownFlavor): string {
  const steps = renderedTextSteps(markdown, flavor);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/**
 * {@link renderedTextOfMarkdown} one top-level block at a time: the generator pauses after
 * each block and returns the whole text, so a caller can yield to other work between blocks
 * (the server indexes a long reply without blocking its event loop).
 */
export function* renderedTextSteps(
  markdown: string,
  flavor: MarkdownFlavor,
): Generator<void, string, void> {
  const writer = new RenderedTextWriter();
  for (const block of splitMarkdownBlocks(markdown)) {
    writeTree(parseSafeMarkdown(block.source, flavor), { source: block.source, flavor }, writer);
    yield;
  }
  return writer.text;
}
