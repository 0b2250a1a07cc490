/**
 * Keeps the editor's chips equal to what `tokenizePrompt` finds in the prompt string, cheaply:
 * a TextNode transform re-tokenizes only the edited text node plus any chip glued to it (no
 * whitespace in between), and a ParagraphNode transform (which runs only on structural changes
 * such as a removed node) re-checks chips that became glued to a neighbour. Typing never
 * re-tokenizes the whole document.
 *
 * A mention or skill that the caret is still typing (no whitespace between the token start and
 * the caret) stays plain text, so `@src/a.` is not chipped before the user types `ts`; it is
 * chipped once the caret leaves it (the caret-exit hook in `registerPromptTokenTransforms`).
 */

import { type PromptToken, tokenizePrompt } from "@app/markdown";
import {
  $getEditor,
  $getNodeByKey,
  $getSelection,
  $hasUpdateTag,
  $isLineBreakNode,
  $isRangeSelection,
  $isTextNode,
  HISTORY_MERGE_TAG,
  type LexicalEditor,
  type LexicalNode,
  mergeRegister,
  ParagraphNode,
  type PointType,
  TextNode,
} from "lexical";
import { $isComposerCitationNode } from "./nodes/ComposerCitationNode.tsx";
import { $isMentionNode } from "./nodes/MentionNode.tsx";
import { $isSkillNode } from "./nodes/SkillNode.tsx";
import { $createNodeForToken, PROMPT_REBUILD_TAG } from "./promptEditorState.ts";
import { type PromptPiece, positionForPromptOffset } from "./promptOffsets.ts";

const WHITESPACE = /\s/;

/** Mention and skill chips can merge with glued text; citations cannot (their span is lexical). */
function isGluableChip(node: LexicalNode | null): boolean {
  return $isMentionNode(node) || $isSkillNode(node);
}

/** A node that may join a window: text or a mention/skill chip. */
function isWindowMember(node: LexicalNode | null): node is LexicalNode {
  return $isTextNode(node) || isGluableChip(node);
}

/** True when `left` and `right` touch without whitespace, so their text can form one token. */
function glued(left: LexicalNode, right: LexicalNode): boolean {
  const leftText = left.getTextContent();
  const rightText = right.getTextContent();
  const last = leftText[leftText.length - 1];
  const first = rightText[0];
  return (
    last !== undefined && first !== undefined && !WHITESPACE.test(last) && !WHITESPACE.test(first)
  );
}

/**
 * The window around `node`: the maximal run of text and mention/skill nodes glued to each other.
 * Its edges are whitespace, a line break, a citation chip or the paragraph edge, so tokenizing
 * the window alone gives the same tokens as tokenizing the whole prompt there.
 */
function $windowAround(node: LexicalNode): LexicalNode[] {
  const window = [node];
  let left = node;
  for (let prev = left.getPreviousSibling(); isWindowMember(prev) && glued(prev, left); ) {
    window.unshift(prev);
    left = prev;
    prev = left.getPreviousSibling();
  }
  let right = node;
  for (let next = right.getNextSibling(); isWindowMember(next) && glued(right, next); ) {
    window.push(next);
    right = next;
    next = right.getNextSibling();
  }
  return window;
}

/** The character before `node` in the prompt ("" at the start of a paragraph or line). */
function prevCharOf(node: LexicalNode): string {
  const prev = node.getPreviousSibling();
  if (prev === null || $isLineBreakNode(prev)) return "";
  const text = prev.getTextContent();
  return text[text.length - 1] ?? "";
}

/** A desired run of the window: plain text or one chip token. */
type Segment = { kind: "text"; text: string } | { kind: "chip"; token: PromptToken };

/** True when `token` is a mention/skill still being typed at `caret` (offsets within `text`). */
function isPending(token: PromptToken, text: string, caret: number | null): boolean {
  if (caret === null || (token.kind !== "mention" && token.kind !== "skill")) return false;
  if (caret <= token.start) return false;
  const rest = text.slice(token.start);
  const whitespace = rest.search(WHITESPACE);
  const runEnd = whitespace < 0 ? text.length : token.start + whitespace;
  return caret <= runEnd;
}

/** Turns tokens into segments: pending tokens count as text; adjacent text merges. */
function segmentsFor(tokens: PromptToken[], text: string, caret: number | null): Segment[] {
  const segments: Segment[] = [];
  for (const token of tokens) {
    if (token.kind === "text" || isPending(token, text, caret)) {
      const last = segments[segments.length - 1];
      if (last?.kind === "text") last.text += token.text;
      else segments.push({ kind: "text", text: token.text });
    } else {
      segments.push({ kind: "chip", token });
    }
  }
  return segments;
}

/** True when `node` already is `segment`. */
function matches(node: LexicalNode, segment: Segment): boolean {
  if (segment.kind === "text") return $isTextNode(node) && node.getTextContent() === segment.text;
  const { token } = segment;
  if (token.kind === "mention") return $isMentionNode(node) && node.getPath() === token.path;
  if (token.kind === "skill") return $isSkillNode(node) && node.getName() === token.name;
  if (token.kind === "citation") {
    return $isComposerCitationNode(node) && node.getSource() === token.text;
  }
  return false;
}

/**
 * Offset within the window of a selection point that lies in it (a text point in a window node,
 * or an element point of the parent between window nodes), else null.
 */
function windowOffset(window: LexicalNode[], point: PointType): number | null {
  const first = window[0];
  if (first === undefined) return null;
  if (point.type === "text") {
    let start = 0;
    for (const node of window) {
      if (node.getKey() === point.key) return start + point.offset;
      start += node.getTextContentSize();
    }
    return null;
  }
  if (point.key !== first.getParent()?.getKey()) return null;
  const index = point.offset - first.getIndexWithinParent();
  if (index < 0 || index > window.length) return null;
  return window.slice(0, index).reduce((sum, node) => sum + node.getTextContentSize(), 0);
}

/**
 * Re-tokenizes one window and, if its chips differ from the tokens, replaces its nodes and puts
 * the selection back at the same prompt offsets.
 */
function $reconcileWindow(window: LexicalNode[]): void {
  const first = window[0];
  if (first === undefined) return;
  // Leave IME composition alone; the transform runs again when it ends.
  if ($getEditor().isComposing()) return;
  const text = window.map((node) => node.getTextContent()).join("");
  if (text === "") return;
  const selection = $getSelection();
  const rangeSelection = $isRangeSelection(selection) ? selection : null;
  const anchor = rangeSelection ? windowOffset(window, rangeSelection.anchor) : null;
  const focus = rangeSelection ? windowOffset(window, rangeSelection.focus) : null;
  const parentKey = first.getParentOrThrow().getKey();
  const windowEnd = first.getIndexWithinParent() + window.length;
  const typing = !$hasUpdateTag(PROMPT_REBUILD_TAG) && rangeSelection?.isCollapsed() === true;
  const caret = typing ? anchor : null;
  const tokens = tokenizePrompt(text, { prevChar: prevCharOf(first) });
  const segments = segmentsFor(tokens, text, caret);
  const hasPending = tokens.some((token) => isPending(token, text, caret));
  const recordPending = (): void => {
    if (!hasPending || rangeSelection === null) return;
    const editor = $getEditor();
    const { key, offset } = rangeSelection.anchor;
    const previous = pendingTokens.get(editor);
    if (previous !== undefined && previous.key !== key) {
      // The caret moved on to a new pending token; the old one is finished, so chip it now.
      const node = $getNodeByKey(previous.key);
      if ($isTextNode(node) && node.isAttached()) node.markDirty();
    }
    pendingTokens.set(editor, { key, offset });
  };
  if (
    segments.length === window.length &&
    segments.every((segment, i) => matches(window[i]!, segment))
  ) {
    recordPending();
    return;
  }
  const created = segments.map((segment) =>
    segment.kind === "text"
      ? $createNodeForToken({ kind: "text", text: segment.text, start: 0, end: 0 })
      : $createNodeForToken(segment.token),
  );
  for (const node of created) first.insertBefore(node);
  for (const node of window) node.remove();
  if (rangeSelection !== null) {
    // Element points after the window shift by the change in node count.
    for (const point of [rangeSelection.anchor, rangeSelection.focus]) {
      if (point.type === "element" && point.key === parentKey && point.offset > windowEnd) {
        point.offset += created.length - window.length;
        rangeSelection.dirty = true;
      }
    }
  }
  if (rangeSelection !== null && (anchor !== null || focus !== null)) {
    const pieces: PromptPiece[] = created.map((node) => ({
      kind: $isTextNode(node) ? "text" : "atom",
      length: node.getTextContentSize(),
    }));
    const place = (offset: number, point: PointType): void => {
      const position = positionForPromptOffset(pieces, offset);
      const target = created[position.index];
      if (position.type === "text" && target !== undefined) {
        point.set(target.getKey(), position.offset, "text");
      } else if (target !== undefined) {
        point.set(target.getParentOrThrow().getKey(), target.getIndexWithinParent(), "element");
      } else {
        const last = created[created.length - 1]!;
        point.set(last.getParentOrThrow().getKey(), last.getIndexWithinParent() + 1, "element");
      }
    };
    if (anchor !== null) place(anchor, rangeSelection.anchor);
    if (focus !== null) place(focus, rangeSelection.focus);
    rangeSelection.dirty = true;
  }
  recordPending();
}

/** Where the caret was when a token was left unchipped because it was still being typed. */
type PendingToken = { key: string; offset: number };
const pendingTokens = new WeakMap<LexicalEditor, PendingToken>();

/** Transform for text nodes: reconcile the window the edited node belongs to. */
function $transformText(node: TextNode): void {
  if (!node.isAttached() || !node.isSimpleText()) return;
  $reconcileWindow($windowAround(node));
}

/**
 * Transform for paragraphs (runs on structural changes only, not on plain typing): a removed
 * node can leave a mention or skill chip glued to a neighbour, which changes its tokens.
 */
function $transformParagraph(paragraph: ParagraphNode): void {
  for (let child = paragraph.getFirstChild(); child !== null; ) {
    const next = child.getNextSibling();
    if (isGluableChip(child)) {
      // Any non-whitespace character right before a mention/skill (even a citation's ")")
      // changes its tokens, as does text glued after it.
      const gluedPrev = !WHITESPACE.test(prevCharOf(child) || " ");
      const gluedNext = isWindowMember(next) && glued(child, next);
      if ((gluedPrev || gluedNext) && child.isAttached()) {
        const window = $windowAround(child);
        const after = window[window.length - 1]!.getNextSibling();
        $reconcileWindow(window);
        child = after;
        continue;
      }
    }
    child = next;
  }
}

/**
 * Registers the token transforms plus the caret-exit hook that chips a finished mention/skill
 * once the caret leaves it. Returns the cleanup.
 */
export function registerPromptTokenTransforms(editor: LexicalEditor): () => void {
  return mergeRegister(
    editor.registerNodeTransform(TextNode, $transformText),
    editor.registerNodeTransform(ParagraphNode, $transformParagraph),
    editor.registerUpdateListener(({ editorState }) => {
      const pending = pendingTokens.get(editor);
      if (pending === undefined) return;
      const stillThere = editorState.read(() => {
        const selection = $getSelection();
        return (
          $isRangeSelection(selection) &&
          selection.isCollapsed() &&
          selection.anchor.key === pending.key &&
          selection.anchor.offset === pending.offset
        );
      });
      if (stillThere) return;
      // The caret moved: re-run the transform on that node so it chips what is finished.
      pendingTokens.delete(editor);
      editor.update(
        () => {
          const node = $getNodeByKey(pending.key);
          if ($isTextNode(node) && node.isAttached()) node.markDirty();
        },
        { tag: HISTORY_MERGE_TAG },
      );
    }),
    () => pendingTokens.delete(editor),
  );
}
