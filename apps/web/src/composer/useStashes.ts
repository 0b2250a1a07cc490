/**
 * The stash: drafts set aside in localStorage (one list shared by all threads, newest first),
 * kept in step with other tabs through the `storage` event. Nothing in the editor is cleared or
 * replaced unless the stash was written.
 */
import { useCallback, useEffect, useState } from "react";
import {
  isStashStorageKey,
  loadStashes,
  newStashId,
  type StashedDraft,
  saveStashes,
} from "./composerStorage.ts";

/** Inputs of {@link useStashes}. */
export type StashOptions = {
  threadId: string;
  readPrompt(): string;
  /** Replaces the editor content (chips rebuilt). */
  setPrompt(prompt: string): void;
  /** Saves the thread's draft now (after the editor content changed). */
  flushDraft(): void;
  /** Focuses the editor. */
  focusEditor(): void;
  setStorageWarning(warning: string | null): void;
};

/** The stash list and its actions. */
export type Stashes = {
  stashes: StashedDraft[];
  /** Moves a non-blank draft to the stash and empties the editor. */
  stashDraft(): void;
  /** Puts a stashed draft in the editor, stashing a non-blank current draft first. */
  restoreStash(id: string): void;
  deleteStash(id: string): void;
};

function stashEntry(threadId: string, text: string): StashedDraft {
  return { id: newStashId(), threadId, text, createdAt: new Date().toISOString() };
}

export function useStashes({
  threadId,
  readPrompt,
  setPrompt,
  flushDraft,
  focusEditor,
  setStorageWarning,
}: StashOptions): Stashes {
  const [stashes, setStashes] = useState<StashedDraft[]>(() => loadStashes());

  useEffect(() => {
    const onStorage = (event: StorageEvent) => {
      if (isStashStorageKey(event.key)) setStashes(loadStashes());
    };
    window.addEventListener("storage", onStorage);
    return () => window.removeEventListener("storage", onStorage);
  }, []);

  const stashDraft = useCallback(() => {
    const prompt = readPrompt();
    if (prompt.trim() === "") return;
    const next = [stashEntry(threadId, prompt), ...loadStashes()];
    const result = saveStashes(next);
    if (!result.ok) {
      setStorageWarning(
        `${result.error}: the draft could not be stashed, so it stays in the composer.`,
      );
      return;
    }
    setStashes(next);
    setPrompt("");
    flushDraft();
  }, [flushDraft, readPrompt, setPrompt, setStorageWarning, threadId]);

  const restoreStash = useCallback(
    (id: string) => {
      const all = loadStashes();
      const entry = all.find((stash) => stash.id === id);
      if (entry === undefined) {
        // Another tab removed it: show the list as it is now.
        setStashes(all);
        return;
      }
      const current = readPrompt();
      let next = all.filter((stash) => stash.id !== id);
      if (current.trim() !== "") next = [stashEntry(threadId, current), ...next];
      const result = saveStashes(next);
      if (!result.ok) {
        setStorageWarning(
          `${result.error}: the stash could not be updated, so nothing was restored.`,
        );
        return;
      }
      setStashes(next);
      setPrompt(entry.text);
      flushDraft();
      focusEditor();
    },
    [flushDraft, focusEditor, readPrompt, setPrompt, setStorageWarning, threadId],
  );

  const deleteStash = useCallback(
    (id: string) => {
      const next = loadStashes().filter((stash) => stash.id !== id);
      const result = saveStashes(next);
      if (!result.ok) {
        setStorageWarning(`${result.error}: the stash could not be updated.`);
        return;
      }
      setStashes(next);
    },
    [setStorageWarning],
  );

  return { stashes, stashDraft, restoreStash, deleteStash };
}
