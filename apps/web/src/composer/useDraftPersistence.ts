/**
 * The thread's draft in localStorage: restored once on mount (chips rebuilt from the string),
 * saved 250 ms after the last edit, on `pagehide` and on unmount, so a reload or thread switch
 * never drops the last edits. A failed write shows a warning; the editor content is never dropped.
 */
import { HISTORY_MERGE_TAG, type LexicalEditor } from "lexical";
import { useCallback, useEffect, useRef } from "react";
import { loadDraft, saveDraft } from "./composerStorage.ts";
import { $setPromptText, PROMPT_REBUILD_TAG } from "./promptEditorState.ts";

/** Delay between the last edit and saving the draft. */
export const DRAFT_SAVE_DEBOUNCE_MS = 250;

/** Inputs of {@link useDraftPersistence}. */
export type DraftPersistenceOptions = {
  threadId: string;
  editorRef: { current: LexicalEditor | null };
  readPrompt(): string;
  /** Shows (string) or clears (null) the storage warning. */
  setStorageWarning(warning: string | null): void;
};

/** Draft saving actions. */
export type DraftPersistence = {
  /** Saves after {@link DRAFT_SAVE_DEBOUNCE_MS} without further calls. */
  scheduleSave(): void;
  /** Saves now (cancelling a scheduled save). */
  flushDraft(): void;
  /** Saves `text` now; clears the warning on success and keeps it otherwise. */
  saveText(text: string): void;
};

export function useDraftPersistence({
  threadId,
  editorRef,
  readPrompt,
  setStorageWarning,
}: DraftPersistenceOptions): DraftPersistence {
  const saveTimer = useRef<ReturnType<typeof setTimeout> | null>(null);

  const flushDraft = useCallback(() => {
    if (saveTimer.current !== null) {
      clearTimeout(saveTimer.current);
      saveTimer.current = null;
    }
    if (editorRef.current === null) return;
    const result = saveDraft(threadId, readPrompt());
    setStorageWarning(
      result.ok
        ? null
        : `${result.error}: your draft is not saved in this browser, but it stays in the composer.`,
    );
  }, [threadId, editorRef, readPrompt, setStorageWarning]);

  const scheduleSave = useCallback(() => {
    if (saveTimer.current !== null) clearTimeout(saveTimer.current);
    saveTimer.current = setTimeout(flushDraft, DRAFT_SAVE_DEBOUNCE_MS);
  }, [flushDraft]);

  const saveText = useCallback(
    (text: string) => {
      if (saveDraft(threadId, text).ok) setStorageWarning(null);
    },
    [threadId, setStorageWarning],
  );

  // Restore the saved draft once, rebuilding chips from the prompt string. The merge tag keeps
  // it out of undo history and marks it as no user edit.
  useEffect(() => {
    const editor = editorRef.current;
    if (editor === null) return;
    const draft = loadDraft(threadId);
    if (draft !== "") {
      editor.update(() => $setPromptText(draft), {
        tag: [PROMPT_REBUILD_TAG, HISTORY_MERGE_TAG],
        discrete: true,
      });
    }
  }, [threadId, editorRef]);

  useEffect(() => {
    window.addEventListener("pagehide", flushDraft);
    return () => {
      window.removeEventListener("pagehide", flushDraft);
      if (saveTimer.current !== null) flushDraft();
    };
  }, [flushDraft]);

  return { scheduleSave, flushDraft, saveText };
}
