/**
 * Where programmatic insertions (`insertPromptText`, `insertCitation`) go, and how a citation
 * link is inserted as its own token. `$`-prefixed functions run inside `editor.update()`.
 */
import {
  $createPoint,
  $getNodeByKey,
  type LexicalEditor,
  type NodeKey,
  type PointType,
} from "lexical";
import { $isComposerCitationNode } from "./nodes/ComposerCitationNode.tsx";
import {
  $getChipAtPromptOffset,
  $getPromptOffsetsForPoints,
  $getPromptText,
  $getSelectionPromptOffsets,
  $replacePromptRange,
  type PromptSelectionOffsets,
} from "./promptEditorState.ts";

/** A selection point saved by node key, so it survives the editor losing focus. */
export type SavedPoint = { key: string; offset: number; type: "text" | "element" };

/** The last range selection the editor had. */
export type SavedSelection = { anchor: SavedPoint; focus: SavedPoint };

const WHITESPACE = /\s/;

/**
 * Where programmatic insertions go: the live selection when the editor has focus, else the last
 * selection it had (if its nodes still exist), else the end of the prompt.
 */
export function $insertionOffsets(
  editor: LexicalEditor,
  saved: SavedSelection | null,
): PromptSelectionOffsets {
  const rootElement = editor.getRootElement();
  const focused = rootElement?.contains(rootElement.ownerDocument.activeElement) === true;
  const end = $getPromptText().length;
  return (
    (focused ? $getSelectionPromptOffsets() : null) ??
    $offsetsForSaved(saved) ?? { anchor: end, focus: end }
  );
}

/** Resolves saved points to prompt offsets if their nodes still exist. */
function $offsetsForSaved(saved: SavedSelection | null): PromptSelectionOffsets | null {
  if (saved === null) return null;
  const live = (point: SavedPoint): PointType | null =>
    $getNodeByKey(point.key)?.isAttached()
      ? $createPoint(point.key, point.offset, point.type)
      : null;
  const anchor = live(saved.anchor);
  const focus = live(saved.focus);
  return anchor !== null && focus !== null ? $getPromptOffsetsForPoints(anchor, focus) : null;
}

/**
 * Replaces the range `offsets` with `link`, adding a space before it when the character before
 * is not whitespace and one after it unless whitespace follows, so the link is always its own
 * chip. Returns the key of the citation chip it became, or null.
 */
export function $insertCitationLink(link: string, offsets: PromptSelectionOffsets): NodeKey | null {
  const prompt = $getPromptText();
  const from = Math.min(offsets.anchor, offsets.focus);
  const to = Math.max(offsets.anchor, offsets.focus);
  const before = prompt[from - 1];
  const after = prompt[to];
  const lead = before !== undefined && !WHITESPACE.test(before) ? " " : "";
  const trail = after !== undefined && WHITESPACE.test(after) ? "" : " ";
  $replacePromptRange(lead + link + trail, from, to);
  const chip = $getChipAtPromptOffset(from + lead.length);
  return $isComposerCitationNode(chip) ? chip.getKey() : null;
}
