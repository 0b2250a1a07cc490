/**
 * Clicks and keys on a focused citation chip in the composer: Enter, Space or a click opens its
 * comment editor; Backspace/Delete removes it; the arrows and Escape put the caret beside it.
 * They are handled in a capture listener on the root before Lexical sees them, because Lexical
 * would apply them to the caret elsewhere in the text. Tab and shortcuts are left alone.
 */
import {
  $getNearestNodeFromDOMNode,
  $isTextNode,
  type LexicalEditor,
  mergeRegister,
  type NodeKey,
} from "lexical";
import {
  $isComposerCitationNode,
  type ComposerCitationNode,
} from "../nodes/ComposerCitationNode.tsx";

const CHIP_SELECTOR = "[data-composer-citation-chip]";

/** The citation chip whose face `target` is inside, if it belongs to `editor`. */
function $chipFromTarget(editor: LexicalEditor, target: EventTarget | null) {
  if (!(target instanceof Element)) return null;
  const host = target.closest(CHIP_SELECTOR);
  if (host === null || !editor.getRootElement()?.contains(host)) return null;
  const node = $getNearestNodeFromDOMNode(host);
  return $isComposerCitationNode(node) ? node : null;
}

/** Puts the caret right after `node`, skipping one following space (typing stays separate). */
export function $selectAfterChip(node: ComposerCitationNode): void {
  const next = node.getNextSibling();
  if ($isTextNode(next)) {
    const offset = next.getTextContent().startsWith(" ") ? 1 : 0;
    next.select(offset, offset);
    return;
  }
  const index = node.getIndexWithinParent() + 1;
  node.getParentOrThrow().select(index, index);
}

/** What the chip keys do besides moving the caret. */
export type CitationChipActions = {
  /** Opens the comment editor of chip `nodeKey`. */
  open(nodeKey: NodeKey): void;
  /** Focuses the composer and runs `$update` on the chip in one discrete update. */
  focusComposer(nodeKey: NodeKey, $update: (node: ComposerCitationNode) => void): void;
};

/** Listens for chip clicks and keys on `editor`'s root (following root changes); returns the remover. */
export function registerCitationChipKeys(
  editor: LexicalEditor,
  { open, focusComposer }: CitationChipActions,
): () => void {
  const chipKeyOf = (target: EventTarget | null): NodeKey | null =>
    editor
      .getEditorState()
      .read(() => $chipFromTarget(editor, target)?.getKey() ?? null, { editor });

  const onClick = (event: MouseEvent) => {
    const key = chipKeyOf(event.target);
    if (key !== null) open(key);
  };

  const onKeyDown = (event: KeyboardEvent) => {
    const key = chipKeyOf(event.target);
    if (key === null || event.isComposing) return;
    const moveCaret = (where: "before" | "after" | "remove") =>
      focusComposer(key, (node) => {
        if (where === "after") {
          $selectAfterChip(node);
          return;
        }
        node.selectPrevious();
        if (where === "remove") node.remove();
      });
    switch (event.key) {
      case "Enter":
      case " ":
        open(key);
        break;
      case "Backspace":
      case "Delete":
        moveCaret("remove");
        break;
      case "ArrowLeft":
        moveCaret("before");
        break;
      case "ArrowRight":
      case "Escape":
        moveCaret("after");
        break;
      default:
        // Tab moves focus natively; shortcuts such as undo still reach Lexical.
        return;
    }
    event.preventDefault();
    event.stopPropagation();
  };

  return mergeRegister(
    editor.registerRootListener((root, previous) => {
      previous?.removeEventListener("click", onClick);
      previous?.removeEventListener("keydown", onKeyDown, true);
      root?.addEventListener("click", onClick);
      root?.addEventListener("keydown", onKeyDown, true);
    }),
    () => {
      const root = editor.getRootElement();
      root?.removeEventListener("click", onClick);
      root?.removeEventListener("keydown", onKeyDown, true);
    },
  );
}
