/**
 * The Lexical side of the prompt string: reading the editor as one prompt string, building the
 * editor from one, and mapping selections to and from prompt offsets. Every `$` function must
 * run inside `editor.update()` / `editor.read()`.
 *
 * Layout: the root holds paragraphs (normally one; plain-text editing uses line breaks), joined
 * by "\n". Inside a paragraph, text nodes give their text, line breaks "\n", and chips their
 * full source text.
 */

import { type PromptToken, tokenizePrompt } from "@app/markdown";
import {
  $createLineBreakNode,
  $createParagraphNode,
  $createTextNode,
  $getRoot,
  $getSelection,
  $isElementNode,
  $isLineBreakNode,
  $isParagraphNode,
  $isRangeSelection,
  $isRootNode,
  $isTextNode,
  $setSelection,
  type ElementNode,
  type LexicalNode,
  type PointType,
} from "lexical";
import { $createComposerCitationNode } from "./nodes/ComposerCitationNode.tsx";
import { $createMentionNode } from "./nodes/MentionNode.tsx";
import { $createSkillNode } from "./nodes/SkillNode.tsx";
import {
  type PiecePosition,
  type PromptPiece,
  pieceStarts,
  positionForPromptOffset,
} from "./promptOffsets.ts";

/** Update tag for programmatic rebuilds: typed-token heuristics are off for these updates. */
export const PROMPT_REBUILD_TAG = "composer-prompt-rebuild";

/** Prompt offsets of a selection's anchor and focus. */
export type PromptSelectionOffsets = { anchor: number; focus: number };

/** What each piece stands for in the editor, in the same order as the pieces. */
type PieceRef =
  | { kind: "node"; node: LexicalNode }
  | { kind: "paragraph-end"; paragraph: ElementNode };

/** The editor content as pieces plus the Lexical node behind each piece. */
type PieceLayout = { pieces: PromptPiece[]; refs: PieceRef[]; starts: number[] };

/** The prompt contribution of one inline node. */
function inlineText(node: LexicalNode): string {
  if ($isLineBreakNode(node)) return "\n";
  return node.getTextContent();
}

/** Reads the whole editor as one prompt string. */
export function $getPromptText(): string {
  const parts: string[] = [];
  $getRoot()
    .getChildren()
    .forEach((block, index) => {
      if (index > 0) parts.push("\n");
      if ($isElementNode(block)) {
        for (const child of block.getChildren()) parts.push(inlineText(child));
      } else {
        parts.push(block.getTextContent());
      }
    });
  return parts.join("");
}

/** Creates the Lexical node for one token (a text node for text tokens). */
export function $createNodeForToken(token: PromptToken): LexicalNode {
  switch (token.kind) {
    case "mention":
      return $createMentionNode(token.path);
    case "skill":
      return $createSkillNode(token.name);
    case "citation":
      return $createComposerCitationNode(token.text, token.citation);
    default:
      return $createTextNode(token.text);
  }
}

/** Creates the inline nodes for prompt text: tokens become chips, "\n" becomes line breaks. */
export function $createPromptNodes(prompt: string): LexicalNode[] {
  const nodes: LexicalNode[] = [];
  for (const token of tokenizePrompt(prompt)) {
    if (token.kind !== "text") {
      nodes.push($createNodeForToken(token));
      continue;
    }
    token.text.split("\n").forEach((line, index) => {
      if (index > 0) nodes.push($createLineBreakNode());
      if (line.length > 0) nodes.push($createTextNode(line));
    });
  }
  return nodes;
}

/**
 * Replaces the whole editor content with `prompt`, rebuilding every chip from the string alone,
 * and puts the caret at prompt offset `caret` (default: the end).
 */
export function $setPromptText(prompt: string, caret: number = prompt.length): void {
  const root = $getRoot();
  root.clear();
  const paragraph = $createParagraphNode();
  paragraph.append(...$createPromptNodes(prompt));
  root.append(paragraph);
  $selectPromptOffsets({ anchor: caret, focus: caret });
}

/** Walks the editor into pieces (see `promptOffsets.ts`). */
function $layout(): PieceLayout {
  const pieces: PromptPiece[] = [];
  const refs: PieceRef[] = [];
  const blocks = $getRoot().getChildren();
  blocks.forEach((block, blockIndex) => {
    if ($isElementNode(block)) {
      for (const child of block.getChildren()) {
        if ($isTextNode(child)) pieces.push({ kind: "text", length: child.getTextContentSize() });
        else if ($isLineBreakNode(child)) pieces.push({ kind: "break", length: 1 });
        else pieces.push({ kind: "atom", length: child.getTextContentSize() });
        refs.push({ kind: "node", node: child });
      }
      if (blockIndex < blocks.length - 1) {
        pieces.push({ kind: "break", length: 1 });
        refs.push({ kind: "paragraph-end", paragraph: block });
      }
    }
  });
  return { pieces, refs, starts: pieceStarts(pieces) };
}

/** Start offset of the content right before `index` children of `element` end. */
function elementPointOffset(layout: PieceLayout, element: ElementNode, childIndex: number): number {
  const { refs, starts } = layout;
  const child = element.getChildAtIndex(childIndex);
  if (child !== null) {
    const index = refs.findIndex((ref) => ref.kind === "node" && ref.node.is(child));
    if (index >= 0) return starts[index] ?? 0;
  }
  // Past the last child: the end of this paragraph, i.e. the start of its separator.
  const paragraph = $isRootNode(element) ? null : element;
  if (paragraph !== null) {
    const separator = refs.findIndex(
      (ref) => ref.kind === "paragraph-end" && ref.paragraph.is(paragraph),
    );
    if (separator >= 0) return starts[separator] ?? 0;
    // Last paragraph: find its last child's end, or the end of the prompt.
    const last = paragraph.getLastChild();
    if (last !== null) {
      const index = refs.findIndex((ref) => ref.kind === "node" && ref.node.is(last));
      if (index >= 0) return (starts[index] ?? 0) + (layout.pieces[index]?.length ?? 0);
    }
  }
  if ($isRootNode(element)) {
    // A root-level point before block `childIndex`: the start of that block.
    const block = element.getChildAtIndex(childIndex);
    if ($isElementNode(block)) return elementPointOffset(layout, block, 0);
  }
  return starts[starts.length - 1] ?? 0;
}

/** Maps a Lexical selection point to its prompt offset. */
function pointOffset(layout: PieceLayout, point: PointType): number {
  const node = point.getNode();
  if (point.type === "text") {
    const index = layout.refs.findIndex((ref) => ref.kind === "node" && ref.node.is(node));
    if (index >= 0) return (layout.starts[index] ?? 0) + point.offset;
    return 0;
  }
  if ($isElementNode(node)) return elementPointOffset(layout, node, point.offset);
  return 0;
}

/** Prompt offsets of the current range selection, or null when there is none. */
export function $getSelectionPromptOffsets(): PromptSelectionOffsets | null {
  const selection = $getSelection();
  if (!$isRangeSelection(selection)) return null;
  const layout = $layout();
  return {
    anchor: pointOffset(layout, selection.anchor),
    focus: pointOffset(layout, selection.focus),
  };
}

/** Maps a prompt offset to a Lexical point description. */
function pointForOffset(
  layout: PieceLayout,
  offset: number,
): { key: string; offset: number; type: "text" | "element" } {
  const position: PiecePosition = positionForPromptOffset(layout.pieces, offset);
  const ref = layout.refs[position.index];
  if (position.type === "text" && ref?.kind === "node") {
    return { key: ref.node.getKey(), offset: position.offset, type: "text" };
  }
  if (ref?.kind === "node") {
    const parent = ref.node.getParentOrThrow();
    return { key: parent.getKey(), offset: ref.node.getIndexWithinParent(), type: "element" };
  }
  if (ref?.kind === "paragraph-end") {
    return {
      key: ref.paragraph.getKey(),
      offset: ref.paragraph.getChildrenSize(),
      type: "element",
    };
  }
  // The very end of the prompt: the end of the last paragraph.
  let last = $getRoot().getLastChild();
  if (!$isParagraphNode(last)) {
    last = $createParagraphNode();
    $getRoot().append(last);
  }
  return { key: last.getKey(), offset: (last as ElementNode).getChildrenSize(), type: "element" };
}

/** Selects the prompt range `anchor..focus` (offsets are clamped; chips are never split). */
export function $selectPromptOffsets(offsets: PromptSelectionOffsets): void {
  const layout = $layout();
  const anchor = pointForOffset(layout, offsets.anchor);
  const focus = pointForOffset(layout, offsets.focus);
  let selection = $getSelection();
  if (!$isRangeSelection(selection)) {
    $getRoot().selectEnd();
    selection = $getSelection();
  }
  if (!$isRangeSelection(selection)) return;
  selection.anchor.set(anchor.key, anchor.offset, anchor.type);
  selection.focus.set(focus.key, focus.offset, focus.type);
  $setSelection(selection);
}

/** Prompt offsets for two points captured earlier (e.g. the last selection before blur). */
export function $getPromptOffsetsForPoints(
  anchor: PointType,
  focus: PointType,
): PromptSelectionOffsets {
  const layout = $layout();
  return { anchor: pointOffset(layout, anchor), focus: pointOffset(layout, focus) };
}

/**
 * Replaces prompt range `start..end` with `text` by rebuilding the editor from the new prompt
 * string (so chips on both sides of the seam re-tokenize exactly as a restore would), and puts
 * the caret after the inserted text. Run inside an update tagged {@link PROMPT_REBUILD_TAG}.
 */
export function $replacePromptRange(text: string, start: number, end: number): void {
  const prompt = $getPromptText();
  const from = Math.min(Math.max(Math.min(start, end), 0), prompt.length);
  const to = Math.min(Math.max(Math.max(start, end), 0), prompt.length);
  $setPromptText(prompt.slice(0, from) + text + prompt.slice(to), from + text.length);
}

/** The chip (atom) that starts exactly at prompt offset `offset`, or null. */
export function $getChipAtPromptOffset(offset: number): LexicalNode | null {
  const { pieces, refs, starts } = $layout();
  for (let index = 0; index < pieces.length; index++) {
    const ref = refs[index];
    if (pieces[index]?.kind === "atom" && starts[index] === offset && ref?.kind === "node") {
      return ref.node;
    }
  }
  return null;
}

/** True when the editor holds nothing at all (one empty paragraph); O(1). */
export function $isPromptEmpty(): boolean {
  const root = $getRoot();
  const first = root.getFirstChild();
  return (
    root.getChildrenSize() <= 1 && (first === null || ($isElementNode(first) && first.isEmpty()))
  );
}
