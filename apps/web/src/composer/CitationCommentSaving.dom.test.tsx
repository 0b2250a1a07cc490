/** The citation comment editor saving, cancelling, undoing; keys on a focused chip. */
import { collectAssistantCitations } from "@app/citations";
import { act, fireEvent, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { COPY_COMMAND, REDO_COMMAND } from "lexical";
import { describe, expect, it, vi } from "vitest";
import { draftKey } from "./composerStorage.ts";
import {
  commentedQuoteLink,
  quote,
  quoteLink,
  quoteLinkWith,
  setUpComposerTests,
} from "./composerTestSetup.ts";
import { $selectPromptOffsets } from "./promptEditorState.ts";
import {
  chipFace,
  commentBox,
  readPrompt,
  renderComposer,
  run,
  setPrompt,
} from "./renderComposer.tsx";

setUpComposerTests({ rangeRects: true });

describe("comment editor saving", () => {
  it("saves on Enter (trimmed), shows the comment as the label and returns focus", async () => {
    const user = userEvent.setup();
    const { editor, handle, textbox } = renderComposer();
    setPrompt(editor, "before after", 7);
    act(() => handle.current?.insertCitation(quote));
    await user.type(commentBox()!, "  Still valid?  {Enter}");
    expect(commentBox()).toBeNull();
    const saved = quoteLinkWith("Still valid?");
    expect(readPrompt(editor)).toBe(`before ${saved} after`);
    expect(chipFace(textbox)).toHaveTextContent("Still valid?");
    expect(chipFace(textbox)).toHaveAttribute("title", `${quote.text}\n\nComment: Still valid?`);
    // Focus is back in the composer, caret after the chip and its space.
    await waitFor(() => expect(textbox).toHaveFocus());
    act(() => handle.current?.insertPromptText("x"));
    expect(readPrompt(editor)).toBe(`before ${saved} xafter`);
  });

  it("adds a line on Shift+Enter instead of saving", async () => {
    const user = userEvent.setup();
    const { editor, handle } = renderComposer();
    setPrompt(editor, "");
    act(() => handle.current?.insertCitation(quote));
    await user.type(commentBox()!, "first{Shift>}{Enter}{/Shift}second");
    expect(commentBox()).toHaveValue("first\nsecond");
    await user.keyboard("{Enter}");
    expect(readPrompt(editor)).toBe(`${quoteLinkWith("first\nsecond")} `);
  });

  it("cancels on Escape, keeping the comment and returning focus to the composer", async () => {
    const user = userEvent.setup();
    const { editor, textbox } = renderComposer();
    setPrompt(editor, `${commentedQuoteLink} tail`);
    fireEvent.click(chipFace(textbox));
    await user.type(commentBox()!, " edited");
    await user.keyboard("{Escape}");
    expect(commentBox()).toBeNull();
    expect(readPrompt(editor)).toBe(`${commentedQuoteLink} tail`);
    expect(chipFace(textbox)).toHaveTextContent("Is this still true?");
    await waitFor(() => expect(textbox).toHaveFocus());
  });

  it("removes the comment key when saved blank, restoring the original link bytes", async () => {
    const user = userEvent.setup();
    const { editor, textbox } = renderComposer();
    setPrompt(editor, `q ${quoteLink}`);
    fireEvent.click(chipFace(textbox));
    await user.type(commentBox()!, "temporary{Enter}");
    expect(readPrompt(editor)).toBe(`q ${quoteLinkWith("temporary")}`);
    fireEvent.click(chipFace(textbox));
    await user.clear(commentBox()!);
    await user.type(commentBox()!, "   {Enter}");
    expect(readPrompt(editor)).toBe(`q ${quoteLink}`);
    expect(readPrompt(editor)).not.toContain("comment=");
    expect(chipFace(textbox)).toHaveTextContent("The cache is invalidated on write");
  });

  it("restores non-canonical original bytes after adding and clearing a comment", async () => {
    const user = userEvent.setup();
    const { editor, textbox } = renderComposer();
    // Leading zeros are valid, but not how links are written.
    const odd = quoteLink.replace("start=10&", "start=0010&");
    expect(odd).not.toBe(quoteLink);
    expect(collectAssistantCitations(odd)[0]?.citation).toEqual(quote);
    setPrompt(editor, odd);
    fireEvent.click(chipFace(textbox));
    await user.type(commentBox()!, "note{Enter}");
    expect(readPrompt(editor)).toBe(quoteLinkWith("note"));
    fireEvent.click(chipFace(textbox));
    await user.clear(commentBox()!);
    await user.keyboard("{Enter}");
    expect(readPrompt(editor)).toBe(odd);
  });

  it("keeps the link bytes when the comment is saved unchanged", async () => {
    const user = userEvent.setup();
    const { editor, textbox } = renderComposer();
    // An explicit empty comment is valid and kept byte for byte.
    const empty = quoteLinkWith("");
    setPrompt(editor, empty);
    fireEvent.click(chipFace(textbox));
    await user.keyboard("{Enter}");
    expect(readPrompt(editor)).toBe(empty);
  });

  it("undoes a comment edit in one step, and redo brings it back", async () => {
    const user = userEvent.setup();
    const { editor, textbox } = renderComposer();
    setPrompt(editor, `a ${commentedQuoteLink}`);
    fireEvent.click(chipFace(textbox));
    await user.clear(commentBox()!);
    await user.type(commentBox()!, "Confirmed{Enter}");
    const confirmed = `a ${quoteLinkWith("Confirmed")}`;
    expect(readPrompt(editor)).toBe(confirmed);
    await run(() => {
      fireEvent.keyDown(textbox, { key: "z", code: "KeyZ", ctrlKey: true });
    });
    expect(readPrompt(editor)).toBe(`a ${commentedQuoteLink}`);
    expect(chipFace(textbox)).toHaveTextContent("Is this still true?");
    await run(() => editor.dispatchCommand(REDO_COMMAND, undefined));
    expect(readPrompt(editor)).toBe(confirmed);
    expect(chipFace(textbox)).toHaveTextContent("Confirmed");
    expect(commentBox()).toBeNull();
  });

  it("saves what was typed when the user presses outside the editor", async () => {
    const user = userEvent.setup();
    const { editor, handle } = renderComposer();
    setPrompt(editor, "");
    act(() => handle.current?.insertCitation(quote));
    await user.type(commentBox()!, "kept");
    act(() => {
      fireEvent.pointerDown(screen.getByRole("button", { name: "Send" }));
    });
    expect(commentBox()).toBeNull();
    expect(readPrompt(editor)).toBe(`${quoteLinkWith("kept")} `);
  });

  it("saves the edited link in the draft, and a remount restores it without opening the editor", async () => {
    const user = userEvent.setup();
    const first = renderComposer();
    setPrompt(first.editor, `draft ${quoteLink}`);
    fireEvent.click(chipFace(first.textbox));
    await user.type(commentBox()!, "persisted{Enter}");
    const saved = `draft ${quoteLinkWith("persisted")}`;
    act(() => {
      window.dispatchEvent(new Event("pagehide"));
    });
    expect(localStorage.getItem(draftKey("thread-a"))).toBe(saved);
    first.unmount();
    const second = renderComposer();
    expect(readPrompt(second.editor)).toBe(saved);
    expect(chipFace(second.textbox)).toHaveTextContent("persisted");
    expect(commentBox()).toBeNull();
  });

  it("shows why a comment cannot be saved and stays open", async () => {
    const { editor, textbox } = renderComposer();
    setPrompt(editor, quoteLink);
    fireEvent.click(chipFace(textbox));
    const box = commentBox()!;
    fireEvent.change(box, { target: { value: "x".repeat(8_001) } });
    act(() => fireEvent.keyDown(box, { key: "Enter" }));
    expect(commentBox()).toHaveAttribute("aria-invalid", "true");
    expect(screen.getByText(/This comment cannot be saved/)).toBeInTheDocument();
    expect(readPrompt(editor)).toBe(quoteLink);
  });

  it("copies a commented chip as its serialized link", async () => {
    const user = userEvent.setup();
    const { editor, textbox } = renderComposer();
    setPrompt(editor, `x ${quoteLink} y`);
    fireEvent.click(chipFace(textbox));
    await user.type(commentBox()!, "why?{Enter}");
    const saved = quoteLinkWith("why?");
    act(() => {
      editor.update(() => $selectPromptOffsets({ anchor: 2, focus: 2 + saved.length }), {
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
    expect(copied.get("text/plain")).toBe(saved);
  });
});

describe("keys on a focused chip", () => {
  it("Backspace removes the chip and puts the caret where it was", async () => {
    const { editor, textbox, handle } = renderComposer();
    setPrompt(editor, `one ${quoteLink} two`);
    chipFace(textbox).focus();
    act(() => fireEvent.keyDown(chipFace(textbox), { key: "Backspace" }));
    expect(readPrompt(editor)).toBe("one  two");
    expect(textbox).toHaveFocus();
    act(() => handle.current?.insertPromptText("X"));
    expect(readPrompt(editor)).toBe("one X two");
  });

  it("ArrowLeft and ArrowRight move the caret beside the chip and focus the composer", () => {
    const { editor, textbox, handle } = renderComposer();
    setPrompt(editor, `one ${quoteLink} two`, 0);
    chipFace(textbox).focus();
    act(() => fireEvent.keyDown(chipFace(textbox), { key: "ArrowRight" }));
    expect(textbox).toHaveFocus();
    act(() => handle.current?.insertPromptText("R"));
    expect(readPrompt(editor)).toBe(`one ${quoteLink} Rtwo`);
    chipFace(textbox).focus();
    act(() => fireEvent.keyDown(chipFace(textbox), { key: "ArrowLeft" }));
    act(() => handle.current?.insertPromptText("L"));
    expect(readPrompt(editor)).toBe(`one L${quoteLink} Rtwo`);
    expect(commentBox()).toBeNull();
  });
});
