/**
 * Keystroke cost in a composer holding 100 chips (jsdom; script time only, no layout/paint).
 * Run with `pnpm bench`. Real-browser keystroke-to-paint numbers are in README.md.
 */

import { tokenizePrompt } from "@app/markdown";
import { render } from "@testing-library/react";
import {
  $getSelection,
  $isRangeSelection,
  getNearestEditorFromDOMNode,
  type LexicalEditor,
} from "lexical";
import { bench, describe } from "vitest";
import { Composer } from "./Composer.tsx";
import { $selectPromptOffsets, $setPromptText, PROMPT_REBUILD_TAG } from "./promptEditorState.ts";

const prompt = `${Array.from({ length: 100 }, (_, i) => (i % 2 ? `@src/file${i}.ts` : `$skill${i}`)).join(" word ")} `;

function mountComposer(): LexicalEditor {
  const view = render(
    <Composer
      threadId="bench"
      pendingUserInput={null}
      onSend={async () => {}}
      onAnswer={async () => {}}
      searchFiles={async () => []}
    />,
  );
  const textbox = view.getByRole("textbox", { name: "Message" });
  const editor = getNearestEditorFromDOMNode(textbox) as LexicalEditor;
  editor.update(() => $setPromptText(prompt), { discrete: true, tag: PROMPT_REBUILD_TAG });
  return editor;
}

function typeChar(editor: LexicalEditor, char: string): void {
  editor.update(
    () => {
      const selection = $getSelection();
      if ($isRangeSelection(selection)) selection.insertText(char);
    },
    { discrete: true },
  );
}

describe("composer with 100 chips", () => {
  const editor = mountComposer();

  bench("keystroke at the end", () => {
    typeChar(editor, "a");
  });

  // Inside a " word " run between two chips, halfway through the document.
  const middle = prompt.indexOf(" word ", prompt.length / 2) + 3;
  bench("keystroke in the middle, between chips", () => {
    editor.update(() => $selectPromptOffsets({ anchor: middle, focus: middle }), {
      discrete: true,
    });
    typeChar(editor, "b");
  });

  bench("tokenize the whole prompt (what typing avoids)", () => {
    tokenizePrompt(prompt);
  });
});
