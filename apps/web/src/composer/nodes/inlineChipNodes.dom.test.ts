/**
 * MentionNode and SkillNode, written with `$config()`: their JSON keeps the shape drafts of
 * older builds could hold ({ type, version, path | name }), it restores the same chips, and
 * each chip's host and text are its exact source.
 */
import { $getRoot, $isElementNode, type LexicalEditor } from "lexical";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTestEditor, readPrompt, setPrompt } from "../testEditor.ts";
import { $isMentionNode } from "./MentionNode.tsx";
import { $isSkillNode } from "./SkillNode.tsx";

let editor: LexicalEditor;
let root: HTMLElement;
let dispose: () => void;
beforeEach(() => {
  ({ editor, root, dispose } = createTestEditor());
});
afterEach(() => dispose());

/** The inline nodes' JSON of the first paragraph. */
function inlineJson(): unknown[] {
  const paragraph = editor.getEditorState().toJSON().root.children[0] as unknown as {
    children: unknown[];
  };
  return paragraph.children;
}

describe("MentionNode and SkillNode", () => {
  it("serialize as { type, version, path | name }", () => {
    setPrompt(editor, "see @src/a b.ts $review now");
    expect(inlineJson()).toEqual([
      expect.objectContaining({ type: "text", text: "see " }),
      { type: "composer-mention", version: 1, path: "src/a" },
      expect.objectContaining({ type: "text", text: " b.ts " }),
      { type: "composer-skill", version: 1, name: "review" },
      expect.objectContaining({ type: "text", text: " now" }),
    ]);
  });

  it("restore the same chips from that JSON", () => {
    setPrompt(editor, "@docs/x.md and $lint");
    const json = JSON.stringify(editor.getEditorState().toJSON());
    const other = createTestEditor();
    try {
      other.editor.setEditorState(other.editor.parseEditorState(json), { tag: "history-merge" });
      other.editor.update(() => {}, { discrete: true });
      expect(readPrompt(other.editor)).toBe("@docs/x.md and $lint");
      const chips = other.editor.getEditorState().read(() => {
        const block = $getRoot().getFirstChild();
        if (!$isElementNode(block)) return [];
        return block
          .getChildren()
          .flatMap((node) =>
            $isMentionNode(node) ? [node.getPath()] : $isSkillNode(node) ? [node.getName()] : [],
          );
      });
      expect(chips).toEqual(["docs/x.md", "lint"]);
      expect(other.root.querySelector("[data-composer-mention-chip]")).toHaveAttribute(
        "data-composer-mention-chip",
        "docs/x.md",
      );
    } finally {
      other.dispose();
    }
  });

  it("mark their host with the source and keep it through clones", () => {
    setPrompt(editor, "$fmt @a.ts");
    expect(root.querySelector("[data-composer-skill-chip]")).toHaveAttribute(
      "data-composer-skill-chip",
      "fmt",
    );
    // An edit elsewhere clones the paragraph's nodes; the chips keep their values.
    editor.update(() => $getRoot().selectEnd().insertText(" more"), { discrete: true });
    expect(readPrompt(editor)).toBe("$fmt @a.ts more");
    expect(root.querySelector("[data-composer-mention-chip]")).toHaveAttribute(
      "data-composer-mention-chip",
      "a.ts",
    );
  });
});
