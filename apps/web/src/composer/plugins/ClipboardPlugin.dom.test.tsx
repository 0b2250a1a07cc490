/**
 * A paste with lone surrogates (issue 12): the composer inserts the cleaned text and says how
 * many broken characters it replaced, so the prompt the server gets is well-formed.
 */
import { act, render, screen } from "@testing-library/react";
import {
  $getSelection,
  $isRangeSelection,
  getNearestEditorFromDOMNode,
  type LexicalEditor,
  PASTE_COMMAND,
} from "lexical";
import { afterEach, describe, expect, it, vi } from "vitest";
import { Composer } from "../Composer.tsx";
import { $getPromptText, $setPromptText, PROMPT_REBUILD_TAG } from "../promptEditorState.ts";

afterEach(() => localStorage.clear());

let mounted = 0;
function mount(): LexicalEditor {
  // A thread of its own each time: the composer restores a thread's saved draft.
  mounted++;
  render(
    <Composer
      threadId={`thread-paste-${mounted}`}
      pendingUserInput={null}
      onSend={vi.fn(async () => {})}
      onAnswer={vi.fn(async () => {})}
      searchFiles={vi.fn(async () => [])}
    />,
  );
  return getNearestEditorFromDOMNode(screen.getByRole("textbox", { name: "Message" }))!;
}

async function paste(editor: LexicalEditor, text: string): Promise<void> {
  const event = {
    clipboardData: { getData: (type: string) => (type === "text/plain" ? text : "") },
    preventDefault: vi.fn(),
  } as unknown as ClipboardEvent;
  await act(async () => {
    editor.dispatchCommand(PASTE_COMMAND, event);
  });
}

const prompt = (editor: LexicalEditor) => editor.getEditorState().read($getPromptText);

describe("pasting broken text", () => {
  it("replaces lone surrogates with U+FFFD and says so until the next edit", async () => {
    const editor = mount();
    act(() => {
      editor.update(() => $setPromptText("start ", 6), { discrete: true, tag: PROMPT_REBUILD_TAG });
    });
    await paste(editor, "half \ud83d of an emoji, \ud83d\ude00 whole");
    expect(prompt(editor)).toBe("start half \ufffd of an emoji, \ud83d\ude00 whole");
    expect(screen.getByRole("status")).toHaveProperty(
      "textContent",
      expect.stringContaining("1 broken character"),
    );

    act(() => {
      editor.update(
        () => {
          const selection = $getSelection();
          if ($isRangeSelection(selection)) selection.insertText("!");
        },
        { discrete: true },
      );
    });
    expect(document.querySelector("[data-composer-paste-notice]")).toBeNull();
  });

  it("says nothing for a well-formed paste", async () => {
    const editor = mount();
    await paste(editor, "fine \ud83d\ude00");
    expect(prompt(editor)).toBe("fine \ud83d\ude00");
    expect(document.querySelector("[data-composer-paste-notice]")).toBeNull();
  });
});
