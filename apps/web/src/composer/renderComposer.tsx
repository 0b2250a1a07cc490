/**
 * Test helper: the real Composer rendered into jsdom, with recording callbacks, plus the few
 * actions its tests share (set and read the prompt, type at the caret, press Enter, run a
 * Lexical command, find the comment editor and a citation chip). Only imported by tests.
 */
import { act, fireEvent, render, screen } from "@testing-library/react";
import {
  $getSelection,
  $isRangeSelection,
  getNearestEditorFromDOMNode,
  type LexicalEditor,
} from "lexical";
import { createRef } from "react";
import { afterEach, beforeEach, vi } from "vitest";
import { COMMENT_ON_QUOTE_LABEL } from "./CitationCommentEditor.tsx";
import { Composer, type ComposerHandle, type ComposerProps } from "./Composer.tsx";
import { $getPromptText, $setPromptText, PROMPT_REBUILD_TAG } from "./promptEditorState.ts";

/** Files the default `searchFiles` knows (the `@` typeahead filters them by the query). */
export const TEST_FILES = ["src/app.ts", "src/api/client.ts", "README.md"];

/** Renders a Composer for thread `thread-a`; `overrides` replace any prop. */
export function renderComposer(overrides: Partial<ComposerProps> = {}) {
  const onSend = vi.fn<ComposerProps["onSend"]>(async () => {});
  const onAnswer = vi.fn<ComposerProps["onAnswer"]>(async () => {});
  const searchFiles = vi.fn(async (query: string) =>
    TEST_FILES.filter((file) => file.includes(query)),
  );
  const handle = createRef<ComposerHandle>();
  const props: ComposerProps = {
    threadId: "thread-a",
    pendingUserInput: null,
    onSend,
    onAnswer,
    searchFiles,
    ref: handle,
    ...overrides,
  };
  const view = render(<Composer {...props} />);
  const textbox = screen.getByRole("textbox", { name: "Message" });
  const editor = getNearestEditorFromDOMNode(textbox) as LexicalEditor;
  return { ...view, props, onSend, onAnswer, searchFiles, handle, textbox, editor };
}

/** Replaces the prompt (as a restore does: chips rebuilt, no typed-token rules). */
export function setPrompt(editor: LexicalEditor, prompt: string, caret?: number): void {
  act(() => {
    editor.update(() => $setPromptText(prompt, caret), { discrete: true, tag: PROMPT_REBUILD_TAG });
  });
}

/** The editor's prompt string. */
export function readPrompt(editor: LexicalEditor): string {
  return editor.getEditorState().read($getPromptText);
}

/** Types at the caret like a user (an ordinary update, so typed-token rules apply). */
export function typeAtCaret(editor: LexicalEditor, text: string): void {
  act(() => {
    editor.update(
      () => {
        const selection = $getSelection();
        if ($isRangeSelection(selection)) selection.insertText(text);
      },
      { discrete: true },
    );
  });
}

export function pressEnter(textbox: HTMLElement, shiftKey = false): void {
  act(() => {
    fireEvent.keyDown(textbox, { key: "Enter", code: "Enter", shiftKey });
  });
}

/** Runs a Lexical command: commands commit in a microtask, which the async act flushes. */
export async function run(command: () => void): Promise<void> {
  await act(async () => command());
}

/** The citation comment editor's textbox, or null while it is closed. */
export function commentBox(): HTMLTextAreaElement | null {
  return screen.queryByRole("textbox", { name: COMMENT_ON_QUOTE_LABEL }) as HTMLTextAreaElement;
}

/** The focusable face of the only citation chip. */
export function chipFace(textbox: HTMLElement): HTMLElement {
  const face = textbox.querySelector<HTMLElement>("[data-composer-citation-chip] [role='button']");
  if (face === null) throw new Error("no citation chip");
  return face;
}

/**
 * For tests that focus the composer: jsdom cannot measure ranges, and Lexical scrolls the caret
 * into view once the composer has focus. Gives ranges an empty rectangle around each test.
 */
export function stubRangeRects(): void {
  const zeroRect = { x: 0, y: 0, left: 0, top: 0, right: 0, bottom: 0, width: 0, height: 0 };
  beforeEach(() => {
    Range.prototype.getBoundingClientRect = () => ({ ...zeroRect, toJSON: () => zeroRect });
    Range.prototype.getClientRects = () => [] as unknown as DOMRectList;
  });
  afterEach(() => {
    delete (Range.prototype as Partial<Range>).getBoundingClientRect;
    delete (Range.prototype as Partial<Range>).getClientRects;
  });
}
