/** Registers the token transforms that keep chips in step with the prompt string. */
import { useLexicalComposerContext } from "@lexical/react/LexicalComposerContext";
import { useEffect } from "react";
import { registerPromptTokenTransforms } from "../promptTokenTransforms.ts";

/** Mount inside the LexicalComposer; renders nothing. */
export function PromptTokensPlugin(): null {
  const [editor] = useLexicalComposerContext();
  useEffect(() => registerPromptTokenTransforms(editor), [editor]);
  return null;
}
