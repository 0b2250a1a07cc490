import { act, fireEvent, render, screen } from "@testing-library/react";
import {
  $getSelection,
  $isRangeSelection,
  getNearestEditorFromDOMNode,
  type LexicalEditor,
} from "lexical";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { Composer, type ComposerProps } from "./Composer.tsx";
import { $setPromptText, PROMPT_REBUILD_TAG } from "./promptEditorState.ts";

beforeEach(() => localStorage.clear());

function setup(overrides: Partial<ComposerProps> = {}) {
  const onSend = vi.fn<ComposerProps["onSend"]>(async () => {});
  const onAnswer = vi.fn<ComposerProps["onAnswer"]>(async () => {});
  render(
    <Composer
      threadId="thread-a"
      pendingUserInput={null}
      onSend={onSend}
      onAnswer={onAnswer}
      searchFiles={async () => []}
      {...overrides}
    />,
  );
  const textbox = screen.getByRole("textbox", { name: "Message" });
  const editor = getNearestEditorFromDOMNode(textbox) as LexicalEditor;
  return { onSend, onAnswer, editor };
}

function setPrompt(editor: LexicalEditor, prompt: string): void {
  act(() => {
    editor.update(() => $setPromptText(prompt), { discrete: true, tag: PROMPT_REBUILD_TAG });
  });
}

function type(editor: LexicalEditor, text: string): void {
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

/** The count follows an edit in idle time; generous on a busy machine. */
const WAIT = { timeout: 5_000 };

const send = () => screen.getByRole("button", { name: "Send" });

describe("the live length count", () => {
  it("shows nothing for an ordinary draft, measured all the same", () => {
    vi.useFakeTimers();
    try {
      const { editor } = setup();
      setPrompt(editor, "x".repeat(100_000));
      type(editor, "!");
      // Every pending measurement runs (timers, then the idle callback's fallback timer).
      act(() => vi.advanceTimersByTime(1_000));
      expect(document.querySelector("[data-composer-length]")).toBeNull();
      expect(send()).toBeEnabled();
      // The same path shows the count once the draft is long enough.
      type(editor, "y".repeat(10_000));
      act(() => vi.advanceTimersByTime(1_000));
      expect(screen.getByText("110,001 / 120,000")).toBeInTheDocument();
    } finally {
      vi.useRealTimers();
    }
  });

  it('counts from 90% of the limit: "118,432 / 120,000", Send still enabled', async () => {
    const { editor } = setup();
    setPrompt(editor, "x".repeat(118_432));
    expect(await screen.findByText("118,432 / 120,000", {}, WAIT)).toBeInTheDocument();
    expect(send()).toBeEnabled();
  });

  it('over the limit: "N over", Send disabled with the reason beside it, the draft stays editable', async () => {
    const { editor, onSend } = setup();
    setPrompt(editor, "x".repeat(121_234));
    expect(await screen.findByText("1,234 over", {}, WAIT)).toBeInTheDocument();
    expect(send()).toBeDisabled();
    const reason = screen.getByText("Too long to send: the limit is 120,000 characters.");
    expect(send()).toHaveAttribute("aria-describedby", reason.id);
    expect(send()).toHaveAccessibleDescription(
      "Too long to send: the limit is 120,000 characters.",
    );

    // Still editable: typing updates the count, and deleting back under the limit enables Send.
    type(editor, "ab");
    expect(await screen.findByText("1,236 over", {}, WAIT)).toBeInTheDocument();
    setPrompt(editor, "x".repeat(119_999));
    expect(await screen.findByText("119,999 / 120,000", {}, WAIT)).toBeInTheDocument();
    expect(send()).toBeEnabled();
    fireEvent.click(send());
    expect(onSend).toHaveBeenCalledWith("x".repeat(119_999));
  });

  it("Enter on an over-limit draft still explains itself and sends nothing", async () => {
    const { editor, onSend } = setup();
    setPrompt(editor, "x".repeat(120_011));
    expect(await screen.findByText("11 over", {}, WAIT)).toBeInTheDocument();
    act(() => {
      fireEvent.keyDown(screen.getByRole("textbox", { name: "Message" }), {
        key: "Enter",
        code: "Enter",
      });
    });
    expect(screen.getByRole("alert")).toHaveTextContent(
      "This message is 11 characters over the 120,000-character limit.",
    );
    expect(onSend).not.toHaveBeenCalled();
  });

  it("does not block answers to a question (they have no limit)", async () => {
    const { editor } = setup({
      pendingUserInput: {
        id: "req-1",
        threadId: "thread-a",
        turnId: "turn-1",
        questions: [{ id: "q1", prompt: "Paste the log" }],
        createdAt: "2026-01-01T00:00:00.000Z",
      },
    });
    setPrompt(editor, "y".repeat(120_010));
    expect(await screen.findByText("10 over", {}, WAIT)).toBeInTheDocument();
    expect(send()).toBeEnabled();
  });
});
