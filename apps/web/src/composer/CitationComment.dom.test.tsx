/** Citing into the composer: insertCitation, and when the comment editor opens. */
import { act, fireEvent, screen } from "@testing-library/react";
import { PASTE_COMMAND, REDO_COMMAND, UNDO_COMMAND } from "lexical";
import { describe, expect, it, vi } from "vitest";
import { draftKey } from "./composerStorage.ts";
import { commentedQuoteLink, quote, quoteLink, setUpComposerTests } from "./composerTestSetup.ts";
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

describe("insertCitation", () => {
  it("inserts at the last cursor after the editor lost focus, as a separate token", () => {
    const { editor, handle, textbox } = renderComposer();
    setPrompt(editor, "before after", 7);
    screen.getByRole("button", { name: "Send" }).focus();
    act(() => handle.current?.insertCitation(quote));
    expect(readPrompt(editor)).toBe(`before ${quoteLink} after`);
    expect(textbox.querySelectorAll("[data-composer-citation-chip]")).toHaveLength(1);
    expect(chipFace(textbox)).toHaveTextContent("The cache is invalidated on write");
  });

  it("adds a space only where the neighbours are not whitespace", () => {
    const { editor, handle } = renderComposer();
    const cases: [string, number, string][] = [
      ["abcdef", 3, `abc ${quoteLink} def`],
      ["end", 3, `end ${quoteLink} `],
      ["", 0, `${quoteLink} `],
      ["line\nnext", 4, `line ${quoteLink}\nnext`],
    ];
    for (const [prompt, caret, expected] of cases) {
      setPrompt(editor, prompt, caret);
      act(() => handle.current?.insertCitation(quote));
      expect(readPrompt(editor)).toBe(expected);
      act(() => fireEvent.keyDown(commentBox()!, { key: "Escape" }));
    }
  });

  it("replaces a selected range, like typing would", () => {
    const { editor, handle } = renderComposer();
    setPrompt(editor, "keep REPLACE keep");
    act(() => {
      editor.update(() => $selectPromptOffsets({ anchor: 5, focus: 12 }), { discrete: true });
    });
    act(() => handle.current?.insertCitation(quote));
    expect(readPrompt(editor)).toBe(`keep ${quoteLink} keep`);
  });

  it("rejects an invalid citation with a clear error and leaves the editor unchanged", () => {
    const { editor, handle } = renderComposer();
    setPrompt(editor, "untouched");
    expect(() => handle.current?.insertCitation({ ...quote, text: "  " })).toThrow(/text/);
    expect(readPrompt(editor)).toBe("untouched");
    expect(commentBox()).toBeNull();
  });
});

describe("comment editor opening", () => {
  it("opens once for the inserted citation with an empty, focused textbox", () => {
    const { editor, handle } = renderComposer();
    setPrompt(editor, "see ");
    act(() => handle.current?.insertCitation(quote));
    const box = commentBox();
    expect(box).not.toBeNull();
    expect(box).toHaveValue("");
    expect(box).toHaveFocus();
    expect(screen.getByRole("dialog", { name: "Edit quote comment" })).toHaveTextContent(
      "The cache is invalidated on write",
    );
    act(() => fireEvent.keyDown(box!, { key: "Escape" }));
    expect(commentBox()).toBeNull();
    // The request was one-shot: later edits and rebuilds do not bring the editor back.
    act(() => handle.current?.insertPromptText("more "));
    setPrompt(editor, readPrompt(editor));
    expect(commentBox()).toBeNull();
  });

  it("focuses the textbox only once the editor is placed (hidden elements cannot take focus)", () => {
    const visibilityAtFocus: string[] = [];
    const focus = HTMLTextAreaElement.prototype.focus;
    vi.spyOn(HTMLTextAreaElement.prototype, "focus").mockImplementation(function (
      this: HTMLTextAreaElement,
      options?: FocusOptions,
    ) {
      visibilityAtFocus.push(this.closest<HTMLElement>("[role='dialog']")?.style.visibility ?? "");
      focus.call(this, options);
    });
    const { editor, handle } = renderComposer();
    setPrompt(editor, "");
    act(() => handle.current?.insertCitation(quote));
    expect(visibilityAtFocus).toEqual([""]);
    expect(commentBox()).toHaveFocus();
  });

  it("does not open for a pasted citation", async () => {
    const { editor, textbox } = renderComposer();
    setPrompt(editor, "x ");
    const paste = {
      clipboardData: {
        getData: (type: string) => (type === "text/plain" ? commentedQuoteLink : ""),
      },
      preventDefault: vi.fn(),
    } as unknown as ClipboardEvent;
    await run(() => editor.dispatchCommand(PASTE_COMMAND, paste));
    expect(readPrompt(editor)).toBe(`x ${commentedQuoteLink}`);
    expect(textbox.querySelectorAll("[data-composer-citation-chip]")).toHaveLength(1);
    expect(commentBox()).toBeNull();
  });

  it("does not open when a draft or a stash is restored", () => {
    localStorage.setItem(draftKey("thread-a"), `draft ${commentedQuoteLink}`);
    const { editor, textbox } = renderComposer();
    expect(readPrompt(editor)).toBe(`draft ${commentedQuoteLink}`);
    expect(textbox.querySelector("[data-composer-citation-chip]")).not.toBeNull();
    expect(commentBox()).toBeNull();

    fireEvent.click(screen.getByRole("button", { name: "Stash draft" }));
    fireEvent.click(screen.getByRole("button", { name: "Restore" }));
    expect(readPrompt(editor)).toBe(`draft ${commentedQuoteLink}`);
    expect(commentBox()).toBeNull();
  });

  it("does not open on undo or redo of an insertion", async () => {
    const { editor, handle } = renderComposer();
    setPrompt(editor, "a ");
    act(() => handle.current?.insertCitation(quote));
    act(() => fireEvent.keyDown(commentBox()!, { key: "Escape" }));
    await run(() => editor.dispatchCommand(UNDO_COMMAND, undefined));
    expect(readPrompt(editor)).toBe("a ");
    await run(() => editor.dispatchCommand(REDO_COMMAND, undefined));
    expect(readPrompt(editor)).toBe(`a ${quoteLink} `);
    expect(commentBox()).toBeNull();
  });

  it("opens for an existing chip on click, and on Enter without sending", () => {
    const { editor, textbox, onSend } = renderComposer();
    setPrompt(editor, `look ${commentedQuoteLink}`);
    fireEvent.click(chipFace(textbox));
    expect(commentBox()).toHaveValue("Is this still true?");
    act(() => fireEvent.keyDown(commentBox()!, { key: "Escape" }));
    expect(commentBox()).toBeNull();

    chipFace(textbox).focus();
    act(() => fireEvent.keyDown(chipFace(textbox), { key: "Enter" }));
    expect(commentBox()).toHaveValue("Is this still true?");
    expect(onSend).not.toHaveBeenCalled();
  });

  it("gives chips a button role, the label as name, and the quote and comment as tooltip", () => {
    const { editor } = renderComposer();
    setPrompt(editor, `${commentedQuoteLink} ${quoteLink}`);
    const withComment = screen.getByRole("button", { name: "Is this still true?" });
    expect(withComment).toHaveAttribute("aria-haspopup", "dialog");
    expect(withComment).toHaveAttribute("tabindex", "0");
    expect(withComment).toHaveAttribute(
      "title",
      "The cache is\n  invalidated on write\n\nComment: Is this still true?",
    );
    const plain = screen.getByRole("button", { name: "The cache is invalidated on write" });
    expect(plain).toHaveAttribute("title", quote.text);
    expect(plain.closest("[data-composer-citation-chip]")).toHaveAttribute(
      "contenteditable",
      "false",
    );
  });
});
