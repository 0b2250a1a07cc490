/**
 * Test helper: a real Lexical editor mounted on a jsdom element with the composer's nodes and
 * token transforms (no React). Only imported by tests.
 */
import { $getRoot, $isElementNode, createEditor, type LexicalEditor } from "lexical";
import { ComposerCitationNode } from "./nodes/ComposerCitationNode.tsx";
import { MentionNode } from "./nodes/MentionNode.tsx";
import { SkillNode } from "./nodes/SkillNode.tsx";
import { $getPromptText, $setPromptText, PROMPT_REBUILD_TAG } from "./promptEditorState.ts";
import { registerPromptTokenTransforms } from "./promptTokenTransforms.ts";

/** Creates a mounted editor; call the returned `dispose` after the test. */
export function createTestEditor(): { editor: LexicalEditor; root: HTMLElement; dispose(): void } {
  const editor = createEditor({
    namespace: "composer-test",
    nodes: [MentionNode, SkillNode, ComposerCitationNode],
    onError(error) {
      throw error;
    },
  });
  const root = document.createElement("div");
  root.contentEditable = "true";
  document.body.append(root);
  editor.setRootElement(root);
  const unregister = registerPromptTokenTransforms(editor);
  return {
    editor,
    root,
    dispose() {
      unregister();
      editor.setRootElement(null);
      root.remove();
    },
  };
}

/** Replaces the editor content with a prompt string (synchronously). */
export function setPrompt(editor: LexicalEditor, prompt: string, caret?: number): void {
  editor.update(() => $setPromptText(prompt, caret), { discrete: true, tag: PROMPT_REBUILD_TAG });
}

/** Reads the editor's prompt string. */
export function readPrompt(editor: LexicalEditor): string {
  return editor.getEditorState().read($getPromptText);
}

/** Types of the inline nodes, paragraph by paragraph, e.g. [["text", "composer-mention"]]. */
export function nodeTypes(editor: LexicalEditor): string[][] {
  return editor.getEditorState().read(() =>
    $getRoot()
      .getChildren()
      .map((block) =>
        $isElementNode(block) ? block.getChildren().map((node) => node.getType()) : [],
      ),
  );
}
