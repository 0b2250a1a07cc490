/**
 * The composer's imperative handle (`ref`): focus, and inserting prompt text or a citation chip
 * at the last cursor. Every insertion rebuilds chips from the resulting prompt string.
 */
import { type AssistantCitation, serializeAssistantCitation } from "@app/citations";
import type { LexicalEditor, NodeKey } from "lexical";
import { type Ref, useImperativeHandle } from "react";
import type { CitationCommentController } from "./plugins/CitationCommentPlugin.tsx";
import { $replacePromptRange, PROMPT_REBUILD_TAG } from "./promptEditorState.ts";
import { $insertCitationLink, $insertionOffsets, type SavedSelection } from "./promptInsertion.ts";

/** Options of {@link ComposerHandle.insertCitation}. */
export type InsertCitationOptions = {
  /**
   * Live DOM range of the cited text in the assistant response. Transient: it only positions
   * the comment editor beside the source text and carries its "editing" highlight while the
   * editor is open; it never becomes part of the citation. A range whose nodes have since been
   * detached (the row re-rendered) falls back to positioning beside the chip.
   */
  sourceRange?: Range;
  /**
   * Finds the cited text again when `sourceRange` went stale while the editor is open (e.g.
   * `resolveAssistantCitationRange` on the re-rendered message body); null when it cannot.
   * Without it, a stale range falls back to the chip.
   */
  repairSourceRange?(): Range | null;
};

/** Imperative handle of the composer. */
export type ComposerHandle = {
  /** Focuses the editor. */
  focus(): void;
  /**
   * Inserts prompt text (e.g. a serialized citation link) at the last composer cursor, even
   * after the editor lost focus; chips are rebuilt from the resulting prompt string.
   */
  insertPromptText(text: string): void;
  /**
   * Inserts `citation` as a chip (its serialized link) at the last composer cursor, with a
   * space before and after where needed so it stays a separate token, then opens the comment
   * editor for that chip once. Nothing else (restore, paste, drafts, undo/redo) opens it.
   *
   * @throws Error (with the editor unchanged) when `citation` is not a valid citation.
   */
  insertCitation(citation: AssistantCitation, opts?: InsertCitationOptions): void;
};

/** What the handle works on; all refs are read at call time. */
export type ComposerHandleTargets = {
  editorRef: { current: LexicalEditor | null };
  commentEditorRef: { current: CitationCommentController | null };
  lastSelectionRef: { current: SavedSelection | null };
};

/** Exposes {@link ComposerHandle} on `ref`. */
export function useComposerHandle(
  ref: Ref<ComposerHandle> | undefined,
  { editorRef, commentEditorRef, lastSelectionRef }: ComposerHandleTargets,
): void {
  useImperativeHandle(
    ref,
    () => ({
      focus() {
        editorRef.current?.focus();
      },
      insertPromptText(text: string) {
        const editor = editorRef.current;
        if (editor === null || text === "") return;
        // The rebuild replaces every chip, so an open comment editor is saved first.
        commentEditorRef.current?.commit();
        editor.update(
          () => {
            const offsets = $insertionOffsets(editor, lastSelectionRef.current);
            $replacePromptRange(text, offsets.anchor, offsets.focus);
          },
          { tag: PROMPT_REBUILD_TAG, discrete: true },
        );
        editor.focus();
      },
      insertCitation(citation: AssistantCitation, opts?: InsertCitationOptions) {
        const editor = editorRef.current;
        if (editor === null) return;
        // Serializing first validates the citation before anything changes.
        const link = serializeAssistantCitation(citation);
        commentEditorRef.current?.commit();
        const inserted: { key: NodeKey | null } = { key: null };
        editor.update(
          () => {
            inserted.key = $insertCitationLink(
              link,
              $insertionOffsets(editor, lastSelectionRef.current),
            );
          },
          { tag: PROMPT_REBUILD_TAG, discrete: true },
        );
        // The one-shot request: only this insertion opens the comment editor.
        const opened =
          inserted.key !== null &&
          commentEditorRef.current?.open(
            inserted.key,
            opts?.sourceRange !== undefined
              ? { range: opts.sourceRange, repair: opts.repairSourceRange }
              : null,
          ) === true;
        if (!opened) editor.focus();
      },
    }),
    [editorRef, commentEditorRef, lastSelectionRef],
  );
}
