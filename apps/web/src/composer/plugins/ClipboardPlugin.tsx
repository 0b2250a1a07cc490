/**
 * Copy, cut and paste in prompt-string form. Copy puts the selected part of the prompt string
 * (chips as their exact source text) in text/plain; paste inserts text/plain and rebuilds the
 * chips from the resulting prompt string, so pasted mentions, skills and citations become chips.
 * A paste with lone surrogates is cleaned first (the server refuses them) and the plugin says so.
 */
import { useLexicalComposerContext } from "@lexical/react/LexicalComposerContext";
import {
  $getSelection,
  $isNodeSelection,
  COMMAND_PRIORITY_HIGH,
  COPY_COMMAND,
  CUT_COMMAND,
  CUT_TAG,
  DRAGSTART_COMMAND,
  type LexicalEditor,
  mergeRegister,
  PASTE_COMMAND,
  PASTE_TAG,
} from "lexical";
import { useEffect, useState } from "react";
import { pasteCleanedMessage, replaceLoneSurrogates } from "../cleanPastedText.ts";
import "../pasteNotice.css";
import {
  $getPromptText,
  $getSelectionPromptOffsets,
  $replacePromptRange,
  PROMPT_REBUILD_TAG,
} from "../promptEditorState.ts";

/** Normalizes pasted line endings to "\n" (the prompt's only line separator). */
export function normalizePastedText(text: string): string {
  return text.replace(/\r\n?/g, "\n");
}

/** The clipboard data carried by a copy/cut/paste event, if any. */
function clipboardDataOf(event: Event | null): DataTransfer | null {
  if (event === null) return null;
  if ("clipboardData" in event) return (event as ClipboardEvent).clipboardData;
  if ("dataTransfer" in event) return (event as InputEvent).dataTransfer;
  return null;
}

/** The selected part of the prompt, or null when nothing is selected. */
function $selectedPromptText(): { text: string; start: number; end: number } | null {
  const selection = $getSelection();
  if ($isNodeSelection(selection)) {
    const text = selection
      .getNodes()
      .map((node) => node.getTextContent())
      .join("");
    return text === "" ? null : { text, start: -1, end: -1 };
  }
  const offsets = $getSelectionPromptOffsets();
  if (offsets === null || offsets.anchor === offsets.focus) return null;
  const start = Math.min(offsets.anchor, offsets.focus);
  const end = Math.max(offsets.anchor, offsets.focus);
  return { text: $getPromptText().slice(start, end), start, end };
}

/** Writes the selection to the clipboard; returns the range copied (null: nothing to copy). */
function copySelection(
  editor: LexicalEditor,
  event: Event | null,
): { start: number; end: number } | null {
  const data = clipboardDataOf(event);
  const selected = editor.getEditorState().read($selectedPromptText);
  if (selected === null || data === null) return null;
  event?.preventDefault();
  data.setData("text/plain", selected.text);
  return selected;
}

/** Registers the clipboard commands above the plain-text defaults. */
export function registerPromptClipboard(
  editor: LexicalEditor,
  /** Told how many broken characters a paste had (only when it had some). */
  onPasteCleaned: (replaced: number) => void = () => {},
): () => void {
  return mergeRegister(
    editor.registerCommand(
      COPY_COMMAND,
      (event) => copySelection(editor, event as Event | null) !== null,
      COMMAND_PRIORITY_HIGH,
    ),
    editor.registerCommand(
      CUT_COMMAND,
      (event) => {
        const copied = copySelection(editor, event as Event | null);
        if (copied === null) return false;
        editor.update(
          () => {
            const selection = $getSelection();
            if ($isNodeSelection(selection)) {
              for (const node of selection.getNodes()) node.remove();
              return;
            }
            $replacePromptRange("", copied.start, copied.end);
          },
          { tag: [CUT_TAG, PROMPT_REBUILD_TAG] },
        );
        return true;
      },
      COMMAND_PRIORITY_HIGH,
    ),
    editor.registerCommand(
      DRAGSTART_COMMAND,
      (event) => {
        // The browser would drag chip labels; carry the prompt-string form instead. Returning
        // false lets the plain-text handler still mark the drag source.
        const selected = editor.getEditorState().read($selectedPromptText);
        if (selected !== null) event.dataTransfer?.setData("text/plain", selected.text);
        return false;
      },
      COMMAND_PRIORITY_HIGH,
    ),
    editor.registerCommand(
      PASTE_COMMAND,
      (event) => {
        const data = clipboardDataOf(event as Event | null);
        if (data === null) return false;
        const cleaned = replaceLoneSurrogates(normalizePastedText(data.getData("text/plain")));
        const text = cleaned.text;
        event.preventDefault();
        if (cleaned.replaced > 0) onPasteCleaned(cleaned.replaced);
        if (text === "") return true;
        editor.update(
          () => {
            const selection = $getSelection();
            if ($isNodeSelection(selection)) {
              // A selected chip is replaced by the pasted text.
              const prompt = $getPromptText();
              const node = selection.getNodes()[0];
              const source = node?.getTextContent() ?? "";
              node?.selectPrevious();
              const at = $getSelectionPromptOffsets()?.anchor ?? prompt.length;
              $replacePromptRange(text, at, at + source.length);
              return;
            }
            const offsets = $getSelectionPromptOffsets();
            const length = $getPromptText().length;
            $replacePromptRange(text, offsets?.anchor ?? length, offsets?.focus ?? length);
          },
          { tag: [PASTE_TAG, PROMPT_REBUILD_TAG] },
        );
        return true;
      },
      COMMAND_PRIORITY_HIGH,
    ),
  );
}

/** Mount inside the LexicalComposer; renders only the notice after a cleaned paste. */
export function ClipboardPlugin() {
  const [editor] = useLexicalComposerContext();
  const [cleaned, setCleaned] = useState(0);
  useEffect(() => registerPromptClipboard(editor, setCleaned), [editor]);
  // The notice stays until the next edit that is not that paste.
  useEffect(() => {
    if (cleaned === 0) return;
    return editor.registerUpdateListener(({ tags, dirtyLeaves, dirtyElements }) => {
      if (tags.has(PASTE_TAG) || (dirtyLeaves.size === 0 && dirtyElements.size === 0)) return;
      setCleaned(0);
    });
  }, [editor, cleaned]);
  if (cleaned === 0) return null;
  return (
    <p role="status" className="composer-paste-notice" data-composer-paste-notice="">
      {pasteCleanedMessage(cleaned)}
    </p>
  );
}
