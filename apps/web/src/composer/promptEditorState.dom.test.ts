import { citationLinkFixture } from "@app/citations/testing";
import { tokenizePrompt } from "@app/markdown";
import fc from "fast-check";
import {
  $createLineBreakNode,
  $createParagraphNode,
  $createTextNode,
  $getRoot,
  $getSelection,
  $isRangeSelection,
  type LexicalEditor,
  type RangeSelection,
} from "lexical";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { $createMentionNode } from "./nodes/MentionNode.tsx";
import {
  $getPromptText,
  $getSelectionPromptOffsets,
  $replacePromptRange,
  $selectPromptOffsets,
  PROMPT_REBUILD_TAG,
} from "./promptEditorState.ts";
import { createTestEditor, nodeTypes, readPrompt, setPrompt } from "./testEditor.ts";

const link = citationLinkFixture({ text: "quoted\nlines", suffix: " after", comment: "why" });

let editor: LexicalEditor;
let dispose: () => void;
beforeEach(() => {
  ({ editor, dispose } = createTestEditor());
});
afterEach(() => dispose());

function selection(): { anchor: number; focus: number } | null {
  return editor.getEditorState().read($getSelectionPromptOffsets);
}

describe("prompt string round trip", () => {
  it("builds chips from a prompt and reads the identical string back", () => {
    const prompt = `Fix @src/app.ts with $refactor\nsee ${link} ok`;
    setPrompt(editor, prompt);
    expect(readPrompt(editor)).toBe(prompt);
    expect(nodeTypes(editor)).toEqual([
      [
        "text",
        "composer-mention",
        "text",
        "composer-skill",
        "linebreak",
        "text",
        "composer-citation",
        "text",
      ],
    ]);
  });

  it("round-trips arbitrary prompt strings", () => {
    const pieces = fc.oneof(
      fc.string(),
      fc.constantFrom("@a/b.ts", " ", "\n", "\n\n", "$go", ",", link, "@", "\t"),
    );
    fc.assert(
      fc.property(fc.array(pieces, { maxLength: 10 }), (parts) => {
        const prompt = parts.join("");
        setPrompt(editor, prompt);
        expect(readPrompt(editor)).toBe(prompt);
      }),
      { numRuns: 150 },
    );
  });

  it("joins paragraphs with a single newline", () => {
    editor.update(
      () => {
        const root = $getRoot();
        root.clear();
        const first = $createParagraphNode().append($createTextNode("one"));
        const second = $createParagraphNode().append(
          $createTextNode("two"),
          $createLineBreakNode(),
        );
        root.append(first, second);
      },
      { discrete: true },
    );
    expect(readPrompt(editor)).toBe("one\ntwo\n");
  });
});

describe("cursor mapping", () => {
  const prompt = `ab @x/y.ts cd\n${link}`;

  it("places the caret at prompt offsets and reads them back", () => {
    setPrompt(editor, prompt);
    for (const offset of [0, 1, 3, 10, 11, 13, 14, prompt.length]) {
      editor.update(() => $selectPromptOffsets({ anchor: offset, focus: offset }), {
        discrete: true,
      });
      expect(selection()).toEqual({ anchor: offset, focus: offset });
    }
  });

  it("snaps an offset inside a chip to just after the chip", () => {
    setPrompt(editor, prompt);
    editor.update(() => $selectPromptOffsets({ anchor: 5, focus: 5 }), { discrete: true });
    expect(selection()).toEqual({ anchor: 10, focus: 10 });
    editor.update(() => $selectPromptOffsets({ anchor: 20, focus: 20 }), { discrete: true });
    expect(selection()).toEqual({ anchor: prompt.length, focus: prompt.length });
  });

  it("maps a range selection across chips", () => {
    setPrompt(editor, prompt);
    editor.update(() => $selectPromptOffsets({ anchor: 1, focus: 14 }), { discrete: true });
    expect(selection()).toEqual({ anchor: 1, focus: 14 });
  });

  it("clamps offsets outside the prompt", () => {
    setPrompt(editor, "abc");
    editor.update(() => $selectPromptOffsets({ anchor: -4, focus: 99 }), { discrete: true });
    expect(selection()).toEqual({ anchor: 0, focus: 3 });
  });

  it("replaces a range and re-tokenizes across the seam", () => {
    setPrompt(editor, "see @a now");
    editor.update(() => $replacePromptRange(`${link} `, 4, 4), {
      discrete: true,
      tag: PROMPT_REBUILD_TAG,
    });
    expect(readPrompt(editor)).toBe(`see ${link} @a now`);
    expect(nodeTypes(editor)).toEqual([
      ["text", "composer-citation", "text", "composer-mention", "text"],
    ]);
    expect(selection()).toEqual({ anchor: 4 + link.length + 1, focus: 4 + link.length + 1 });
  });
});

describe("token transforms while typing", () => {
  /** Types text at the caret like a user would (a normal, untagged update). */
  function type(text: string): void {
    editor.update(
      () => {
        const current = $getSelection();
        if ($isRangeSelection(current)) current.insertText(text);
      },
      { discrete: true },
    );
  }

  it("keeps a mention being typed as text and chips it after a space", () => {
    setPrompt(editor, "");
    type("look @src/a.");
    expect(nodeTypes(editor)).toEqual([["text"]]);
    type("ts");
    expect(nodeTypes(editor)).toEqual([["text"]]);
    type(" ");
    expect(readPrompt(editor)).toBe("look @src/a.ts ");
    expect(nodeTypes(editor)).toEqual([["text", "composer-mention", "text"]]);
    expect(selection()).toEqual({ anchor: 15, focus: 15 });
  });

  it("chips a typed skill once a space follows", () => {
    setPrompt(editor, "");
    type("$deploy");
    expect(nodeTypes(editor)).toEqual([["text"]]);
    type(" now");
    expect(nodeTypes(editor)).toEqual([["composer-skill", "text"]]);
    expect(readPrompt(editor)).toBe("$deploy now");
  });

  it("chips a completed citation link immediately", () => {
    setPrompt(editor, "");
    type(`a ${link}`);
    expect(nodeTypes(editor)).toEqual([["text", "composer-citation"]]);
    expect(readPrompt(editor)).toBe(`a ${link}`);
  });

  it("chips a pending mention when the caret leaves it", async () => {
    setPrompt(editor, "");
    type("@a/b");
    expect(nodeTypes(editor)).toEqual([["text"]]);
    editor.update(() => $selectPromptOffsets({ anchor: 0, focus: 0 }), { discrete: true });
    // The caret-exit hook runs in a follow-up update.
    await Promise.resolve();
    editor.update(() => {}, { discrete: true });
    expect(nodeTypes(editor)).toEqual([["composer-mention"]]);
  });

  it("re-tokenizes a chip that typing glued to text, like the prompt string would", () => {
    setPrompt(editor, "@a/b");
    type("c");
    // "@a/bc" is one mention being typed.
    expect(readPrompt(editor)).toBe("@a/bc");
    expect(nodeTypes(editor)).toEqual([["text"]]);
    type(" ");
    expect(nodeTypes(editor)).toEqual([["composer-mention", "text"]]);
  });

  it("does not chip an @ typed right after a word", () => {
    setPrompt(editor, "");
    type("mail a@b.com ");
    expect(nodeTypes(editor)).toEqual([["text"]]);
  });

  it("unchips a mention when deleting the space before it glues it to a word", () => {
    setPrompt(editor, "x @a y");
    // Select the space before the mention and delete it.
    editor.update(
      () => {
        $selectPromptOffsets({ anchor: 1, focus: 2 });
        const current = $getSelection();
        if ($isRangeSelection(current)) current.removeText();
      },
      { discrete: true },
    );
    expect(readPrompt(editor)).toBe("x@a y");
    expect(nodeTypes(editor)).toEqual([["text"]]);
  });

  it("re-tokenizes two mentions glued by deleting the text between them", async () => {
    editor.update(
      () => {
        const root = $getRoot();
        root.clear();
        const space = $createTextNode(" ");
        root.append(
          $createParagraphNode().append($createMentionNode("a"), space, $createMentionNode("b")),
        );
        space.select(0, 1);
      },
      { discrete: true, tag: PROMPT_REBUILD_TAG },
    );
    editor.update(
      () => {
        const current = $getSelection();
        if ($isRangeSelection(current)) current.removeText();
      },
      { discrete: true },
    );
    // "@a@b" is one mention of "a@b"; the caret sits inside it, so it is text until the caret leaves.
    expect(readPrompt(editor)).toBe("@a@b");
    expect(nodeTypes(editor)).toEqual([["text"]]);
    expect(selection()).toEqual({ anchor: 2, focus: 2 });
    editor.update(() => $selectPromptOffsets({ anchor: 4, focus: 4 }), { discrete: true });
    editor.update(() => $selectPromptOffsets({ anchor: 0, focus: 0 }), { discrete: true });
    await Promise.resolve();
    editor.update(() => {}, { discrete: true });
    expect(nodeTypes(editor)).toEqual([["composer-mention"]]);
    expect(readPrompt(editor)).toBe("@a@b");
  });
});

describe("editor chips always match the tokenizer (property)", () => {
  /** Expected inline node types for a prompt, straight from the tokenizer. */
  function expectedTypes(prompt: string): string[] {
    const types: string[] = [];
    for (const token of tokenizePrompt(prompt)) {
      if (token.kind === "mention") types.push("composer-mention");
      else if (token.kind === "skill") types.push("composer-skill");
      else if (token.kind === "citation") types.push("composer-citation");
      else {
        token.text.split("\n").forEach((line, index) => {
          if (index > 0) types.push("linebreak");
          if (line !== "") types.push("text");
        });
      }
    }
    return types;
  }

  const op = fc.oneof(
    fc.record({
      kind: fc.constant("insert" as const),
      at: fc.nat(),
      text: fc.oneof(
        fc.constantFrom("@", "$", " ", "a", "b/c.ts", "@x", "$y", ",", "\n", link, "@p "),
        fc.string({ maxLength: 3 }),
      ),
    }),
    fc.record({ kind: fc.constant("delete" as const), at: fc.nat(), backward: fc.boolean() }),
  );

  it("after any edits, once the caret leaves, chips equal the tokenization of the prompt", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 12 }), async (ops) => {
        setPrompt(editor, "");
        for (const step of ops) {
          editor.update(
            () => {
              const length = $getPromptText().length;
              const at = step.at % (length + 1);
              $selectPromptOffsets({ anchor: at, focus: at });
              const current = $getSelection();
              if (!$isRangeSelection(current)) return;
              if (step.kind === "insert") {
                if (step.text === "\n") current.insertLineBreak();
                else current.insertText(step.text);
              } else {
                current.deleteCharacter(step.backward);
              }
            },
            { discrete: true },
          );
        }
        editor.update(() => $selectPromptOffsets({ anchor: 0, focus: 0 }), { discrete: true });
        await Promise.resolve();
        editor.update(() => {}, { discrete: true });
        const prompt = readPrompt(editor);
        expect(nodeTypes(editor)).toEqual([expectedTypes(prompt)]);
      }),
      { numRuns: 150 },
    );
  }, 60_000);

  /** Applies edits like the property above does. */
  function edit(at: number, change: (selection: RangeSelection) => void): void {
    editor.update(
      () => {
        $selectPromptOffsets({ anchor: at, focus: at });
        const current = $getSelection();
        if ($isRangeSelection(current)) change(current);
      },
      { discrete: true },
    );
  }

  it("regression: a pending mention is chipped when the caret starts another pending token", async () => {
    setPrompt(editor, " @\n");
    edit(4, (s) => s.insertText("@x"));
    edit(1, (s) => s.insertText("@"));
    editor.update(() => $selectPromptOffsets({ anchor: 0, focus: 0 }), { discrete: true });
    await Promise.resolve();
    editor.update(() => {}, { discrete: true });
    expect(readPrompt(editor)).toBe(" @@\n@x");
    expect(nodeTypes(editor)).toEqual([
      ["text", "composer-mention", "linebreak", "composer-mention"],
    ]);
  });

  it("regression: a mention glued to a citation's ')' by deleting a line break becomes text", () => {
    setPrompt(editor, `${link}\n@a/b`);
    expect(nodeTypes(editor)).toEqual([["composer-citation", "linebreak", "composer-mention"]]);
    edit(link.length, (s) => s.deleteCharacter(false));
    expect(readPrompt(editor)).toBe(`${link}@a/b`);
    expect(nodeTypes(editor)).toEqual([["composer-citation", "text"]]);
  });
});
