/** The composer as a user meets it: the editor and its chips, and sending. */
import { act, fireEvent, screen, waitFor } from "@testing-library/react";
import { COPY_COMMAND, KEY_BACKSPACE_COMMAND, PASTE_COMMAND } from "lexical";
import { describe, expect, it, vi } from "vitest";
import { draftKey } from "./composerStorage.ts";
import { commentedQuoteLink, setUpComposerTests } from "./composerTestSetup.ts";
import { $selectPromptOffsets } from "./promptEditorState.ts";
import {
  pressEnter,
  readPrompt,
  renderComposer,
  setPrompt,
  typeAtCaret,
} from "./renderComposer.tsx";

setUpComposerTests();

describe("Composer editor", () => {
  it("exposes a textbox named Message and a Send button, enabled once there is something to send", () => {
    const { editor } = renderComposer();
    expect(screen.getByRole("textbox", { name: "Message" })).toHaveAttribute(
      "contenteditable",
      "true",
    );
    const send = screen.getByRole("button", { name: "Send" });
    expect(send).toBeDisabled();
    setPrompt(editor, "");
    typeAtCaret(editor, "h");
    expect(send).toBeEnabled();
    setPrompt(editor, "");
    expect(send).toBeDisabled();
    setPrompt(editor, commentedQuoteLink);
    expect(send).toBeEnabled();
  });

  it("round-trips a prompt string with mention, skill and citation chips", () => {
    const { editor, textbox } = renderComposer();
    const prompt = `Check @src/app.ts with $review\nQuote: ${commentedQuoteLink} thanks`;
    setPrompt(editor, prompt);
    expect(readPrompt(editor)).toBe(prompt);
    expect(textbox.querySelector("[data-composer-mention-chip]")).toHaveAttribute(
      "data-composer-mention-chip",
      "src/app.ts",
    );
    expect(textbox.querySelector("[data-composer-skill-chip]")).toHaveAttribute(
      "data-composer-skill-chip",
      "review",
    );
    const chip = textbox.querySelector("[data-composer-citation-chip]");
    expect(chip).toHaveTextContent("Is this still true?");
    expect(chip).toHaveAttribute("contenteditable", "false");
  });

  it("removes a chip whole with one Backspace", async () => {
    const { editor, textbox } = renderComposer();
    setPrompt(editor, "see @src/app.ts");
    // Commands update the editor in a microtask; the async act flushes it.
    await act(async () => {
      editor.dispatchCommand(
        KEY_BACKSPACE_COMMAND,
        new KeyboardEvent("keydown", { key: "Backspace" }),
      );
    });
    expect(readPrompt(editor)).toBe("see ");
    expect(textbox.querySelector("[data-composer-mention-chip]")).toBeNull();
  });

  it("copies the prompt-string form and pastes plain text back into chips", async () => {
    const { editor, textbox } = renderComposer();
    const prompt = `a @src/app.ts ${commentedQuoteLink} $go`;
    setPrompt(editor, prompt);
    act(() => {
      editor.update(() => $selectPromptOffsets({ anchor: 0, focus: prompt.length }), {
        discrete: true,
      });
    });
    const copied = new Map<string, string>();
    const copyEvent = {
      clipboardData: { setData: (type: string, value: string) => copied.set(type, value) },
      preventDefault: vi.fn(),
    } as unknown as ClipboardEvent;
    act(() => {
      editor.dispatchCommand(COPY_COMMAND, copyEvent);
    });
    expect(copied.get("text/plain")).toBe(prompt);

    setPrompt(editor, "start  end", 6);
    const pasteEvent = {
      clipboardData: { getData: (type: string) => (type === "text/plain" ? copied.get(type) : "") },
      preventDefault: vi.fn(),
    } as unknown as ClipboardEvent;
    await act(async () => {
      editor.dispatchCommand(PASTE_COMMAND, pasteEvent);
    });
    expect(readPrompt(editor)).toBe(`start ${prompt} end`);
    expect(textbox.querySelectorAll("[data-composer-mention-chip]")).toHaveLength(1);
    expect(textbox.querySelectorAll("[data-composer-citation-chip]")).toHaveLength(1);
    expect(textbox.querySelectorAll("[data-composer-skill-chip]")).toHaveLength(1);
  });

  it("inserts prompt text at the last cursor after the editor lost focus", () => {
    const { editor, handle } = renderComposer();
    setPrompt(editor, "before after", 7);
    screen.getByRole("button", { name: "Send" }).focus();
    act(() => handle.current?.insertPromptText(`${commentedQuoteLink} `));
    expect(readPrompt(editor)).toBe(`before ${commentedQuoteLink} after`);
    // The caret ends after the inserted text, so a second insertion follows the first.
    act(() => handle.current?.insertPromptText("x"));
    expect(readPrompt(editor)).toBe(`before ${commentedQuoteLink} xafter`);
  });
});

describe("Composer sending", () => {
  it("sends on Enter and clears the editor and the saved draft", async () => {
    const { editor, textbox, onSend } = renderComposer();
    setPrompt(editor, "  hello @src/app.ts  ");
    localStorage.setItem(draftKey("thread-a"), "stale");
    pressEnter(textbox);
    await waitFor(() => expect(onSend).toHaveBeenCalledWith("hello @src/app.ts"));
    await waitFor(() => expect(readPrompt(editor)).toBe(""));
    expect(localStorage.getItem(draftKey("thread-a"))).toBeNull();
  });

  it("adds a line on Shift+Enter without sending", () => {
    const { editor, textbox, onSend } = renderComposer();
    setPrompt(editor, "line one");
    pressEnter(textbox, true);
    typeAtCaret(editor, "line two");
    expect(readPrompt(editor)).toBe("line one\nline two");
    expect(onSend).not.toHaveBeenCalled();
  });

  it("does nothing for a blank prompt", () => {
    const { editor, textbox, onSend } = renderComposer();
    setPrompt(editor, "  \n ");
    pressEnter(textbox);
    fireEvent.click(screen.getByRole("button", { name: "Send" }));
    expect(onSend).not.toHaveBeenCalled();
    expect(screen.queryByRole("alert")).toBeNull();
  });

  it("blocks an over-limit prompt, keeps the draft editable and says how far over it is", () => {
    const { editor, onSend } = renderComposer();
    const prompt = `${"x".repeat(120_000)} @a`;
    setPrompt(editor, prompt);
    fireEvent.click(screen.getByRole("button", { name: "Send" }));
    expect(onSend).not.toHaveBeenCalled();
    expect(screen.getByRole("alert")).toHaveTextContent(
      "This message is 3 characters over the 120,000-character limit.",
    );
    expect(readPrompt(editor)).toBe(prompt);
    typeAtCaret(editor, "!");
    expect(readPrompt(editor)).toBe(`${prompt}!`);
  });

  it("keeps the draft and shows the error when sending fails", async () => {
    const onSend = vi.fn(async () => {
      throw Object.assign(new Error("The server is unreachable."), {
        status: 0,
        code: "network_error",
      });
    });
    const { editor } = renderComposer({ onSend });
    setPrompt(editor, "keep me");
    fireEvent.click(screen.getByRole("button", { name: "Send" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("The server is unreachable.");
    expect(readPrompt(editor)).toBe("keep me");
  });

  it("ignores a second send while one is in flight and keeps text typed meanwhile", async () => {
    let resolve: () => void = () => {};
    const onSend = vi.fn(() => new Promise<void>((done) => (resolve = done)));
    const { editor, textbox } = renderComposer({ onSend });
    setPrompt(editor, "first");
    pressEnter(textbox);
    pressEnter(textbox);
    expect(onSend).toHaveBeenCalledTimes(1);
    expect(screen.getByRole("button", { name: "Send" })).toBeDisabled();
    typeAtCaret(editor, " more");
    await act(async () => resolve());
    expect(readPrompt(editor)).toBe("more");
    expect(screen.getByRole("button", { name: "Send" })).toBeEnabled();
  });
});
