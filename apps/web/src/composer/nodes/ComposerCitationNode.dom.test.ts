import { serializeAssistantCitation, withAssistantCitationComment } from "@app/citations";
import { citationFixture } from "@app/citations/testing";
import fc from "fast-check";
import { $getRoot, $isElementNode, type LexicalEditor } from "lexical";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTestEditor, readPrompt, setPrompt } from "../testEditor.ts";
import { $isComposerCitationNode, type ComposerCitationNode } from "./ComposerCitationNode.tsx";

// start=0 and end=12 in the link: the byte-preservation cases below rewrite them.
const quote = citationFixture({ text: "quoted\nlines", suffix: " after" });
const link = serializeAssistantCitation(quote);

let editor: LexicalEditor;
let dispose: () => void;
beforeEach(() => {
  ({ editor, dispose } = createTestEditor());
});
afterEach(() => dispose());

function $chip(): ComposerCitationNode {
  const paragraph = $getRoot().getFirstChild();
  const node = $isElementNode(paragraph)
    ? paragraph.getChildren().find((child) => $isComposerCitationNode(child))
    : undefined;
  if (!$isComposerCitationNode(node)) throw new Error("no citation chip");
  return node;
}

function editComment(comment: string | null): void {
  editor.update(
    () => {
      const chip = $chip();
      chip.setCitation(withAssistantCitationComment(chip.getCitation(), comment));
    },
    { discrete: true },
  );
}

describe("ComposerCitationNode.setCitation", () => {
  it("updates the citation and the serialized source together", () => {
    setPrompt(editor, `see ${link}!`);
    editComment("  why?  ");
    const withComment = serializeAssistantCitation({ ...quote, comment: "why?" });
    expect(readPrompt(editor)).toBe(`see ${withComment}!`);
    editor.getEditorState().read(() => {
      expect($chip().getCitation()).toEqual({ ...quote, comment: "why?" });
      expect($chip().getSource()).toBe(withComment);
      expect($chip().getTextContent()).toBe(withComment);
    });
  });

  it("gives back the exact original bytes when the comment is cleared again", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(
          link,
          link.replace("start=0&", "start=000&"),
          link.replace("end=12&", "end=0012&"),
        ),
        fc.array(fc.string({ minLength: 1, maxLength: 20 }), { minLength: 1, maxLength: 4 }),
        (original, comments) => {
          setPrompt(editor, original);
          for (const comment of comments) editComment(comment);
          editComment("   ");
          expect(readPrompt(editor)).toBe(original);
        },
      ),
      { numRuns: 60 },
    );
  });

  it("throws before changing anything when the citation cannot be serialized", () => {
    setPrompt(editor, link);
    expect(() => editComment("x".repeat(8_001))).toThrow(/comment/i);
    expect(readPrompt(editor)).toBe(link);
  });

  it("keeps its state through a JSON round trip", () => {
    setPrompt(editor, `a ${link}`);
    editComment("kept");
    const json = JSON.stringify(editor.getEditorState().toJSON());
    const { editor: other, dispose: disposeOther } = createTestEditor();
    try {
      other.setEditorState(other.parseEditorState(json));
      expect(readPrompt(other)).toBe(readPrompt(editor));
    } finally {
      disposeOther();
    }
  });
});
