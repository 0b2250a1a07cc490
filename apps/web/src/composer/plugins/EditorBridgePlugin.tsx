/**
 * Hands the Lexical editor to the composer and reports edits. The last range selection is kept
 * as node points (O(1) per update) and mapped to prompt offsets only when text is inserted
 * (`promptInsertion.ts`), so typing never pays for the mapping.
 */
import { useLexicalComposerContext } from "@lexical/react/LexicalComposerContext";
import { $getSelection, $isRangeSelection, HISTORY_MERGE_TAG, type LexicalEditor } from "lexical";
import { useEffect, useRef } from "react";
import { $isPromptEmpty } from "../promptEditorState.ts";
import type { SavedSelection } from "../promptInsertion.ts";

/** Props of {@link EditorBridgePlugin}. */
export type EditorBridgePluginProps = {
  editorRef: { current: LexicalEditor | null };
  lastSelectionRef: { current: SavedSelection | null };
  /** `userEdit` is false for merged bookkeeping updates (draft restore, chipping on caret exit). */
  onEdit(userEdit: boolean): void;
  onEmptyChange(empty: boolean): void;
};

/** Mount inside the LexicalComposer; renders nothing. */
export function EditorBridgePlugin({
  editorRef,
  lastSelectionRef,
  onEdit,
  onEmptyChange,
}: EditorBridgePluginProps): null {
  const [editor] = useLexicalComposerContext();
  // Set during render so the parent's effects (draft restore) already see the editor.
  editorRef.current = editor;
  const onEditRef = useRef(onEdit);
  onEditRef.current = onEdit;
  const onEmptyRef = useRef(onEmptyChange);
  onEmptyRef.current = onEmptyChange;
  useEffect(() => {
    onEmptyRef.current(editor.getEditorState().read($isPromptEmpty));
    return editor.registerUpdateListener(({ editorState, dirtyElements, dirtyLeaves, tags }) => {
      editorState.read(() => {
        const selection = $getSelection();
        if ($isRangeSelection(selection)) {
          const { anchor, focus } = selection;
          lastSelectionRef.current = {
            anchor: { key: anchor.key, offset: anchor.offset, type: anchor.type },
            focus: { key: focus.key, offset: focus.offset, type: focus.type },
          };
        }
        if (dirtyElements.size > 0 || dirtyLeaves.size > 0) {
          onEmptyRef.current($isPromptEmpty());
          onEditRef.current(!tags.has(HISTORY_MERGE_TAG));
        }
      });
    });
  }, [editor, lastSelectionRef]);
  return null;
}
