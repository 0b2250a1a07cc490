/**
 * Enter submits, Shift+Enter falls through to the plain-text line break. The mention typeahead
 * registers Enter at a higher priority, so Enter picks a file while its list is open.
 */
import { useLexicalComposerContext } from "@lexical/react/LexicalComposerContext";
import { COMMAND_PRIORITY_HIGH, KEY_ENTER_COMMAND } from "lexical";
import { useEffect, useRef } from "react";

/** Props of {@link SubmitOnEnterPlugin}. */
export type SubmitOnEnterPluginProps = { onSubmit(): void };

/** Mount inside the LexicalComposer; renders nothing. */
export function SubmitOnEnterPlugin({ onSubmit }: SubmitOnEnterPluginProps): null {
  const [editor] = useLexicalComposerContext();
  const submitRef = useRef(onSubmit);
  submitRef.current = onSubmit;
  useEffect(
    () =>
      editor.registerCommand(
        KEY_ENTER_COMMAND,
        (event) => {
          if (event === null || event.shiftKey || event.isComposing) return false;
          event.preventDefault();
          submitRef.current();
          return true;
        },
        COMMAND_PRIORITY_HIGH,
      ),
    [editor],
  );
  return null;
}
