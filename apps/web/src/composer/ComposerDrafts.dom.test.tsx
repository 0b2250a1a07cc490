/** The composer keeps drafts (per thread, through remounts and storage faults) and stashes. */
import { act, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { getNearestEditorFromDOMNode, type LexicalEditor } from "lexical";
import { StrictMode } from "react";
import { describe, expect, it, vi } from "vitest";
import { Composer } from "./Composer.tsx";
import { draftKey, loadStashes } from "./composerStorage.ts";
import { commentedQuoteLink, setUpComposerTests } from "./composerTestSetup.ts";
import { readPrompt, renderComposer, setPrompt } from "./renderComposer.tsx";

setUpComposerTests();

describe("Composer drafts and stash", () => {
  it("restores the draft under StrictMode (effects run twice)", () => {
    localStorage.setItem(draftKey("thread-a"), "strict @src/app.ts draft");
    const view = render(
      <StrictMode>
        <Composer
          threadId="thread-a"
          pendingUserInput={null}
          onSend={async () => {}}
          onAnswer={async () => {}}
          searchFiles={async () => []}
        />
      </StrictMode>,
    );
    const textbox = view.getByRole("textbox", { name: "Message" });
    const editor = getNearestEditorFromDOMNode(textbox) as LexicalEditor;
    expect(readPrompt(editor)).toBe("strict @src/app.ts draft");
    expect(textbox.querySelectorAll("[data-composer-mention-chip]")).toHaveLength(1);
  });

  it("restores the draft with its chips after a remount", () => {
    const first = renderComposer();
    const prompt = `draft @src/app.ts and ${commentedQuoteLink}.`;
    setPrompt(first.editor, prompt);
    // Unmounting flushes the pending (debounced) save.
    first.unmount();
    expect(localStorage.getItem(draftKey("thread-a"))).toBe(prompt);
    const second = renderComposer();
    expect(readPrompt(second.editor)).toBe(prompt);
    expect(second.textbox.querySelector("[data-composer-mention-chip]")).not.toBeNull();
    expect(second.textbox.querySelector("[data-composer-citation-chip]")).not.toBeNull();
  });

  it("saves the draft after a short pause and on pagehide", async () => {
    const { editor } = renderComposer();
    setPrompt(editor, "typed");
    await waitFor(() => expect(localStorage.getItem(draftKey("thread-a"))).toBe("typed"));
    setPrompt(editor, "typed more");
    act(() => {
      window.dispatchEvent(new Event("pagehide"));
    });
    expect(localStorage.getItem(draftKey("thread-a"))).toBe("typed more");
  });

  it("warns when storage is full and keeps the text in the editor", () => {
    const { editor } = renderComposer();
    vi.spyOn(Storage.prototype, "setItem").mockImplementation(() => {
      throw new DOMException("full", "QuotaExceededError");
    });
    setPrompt(editor, "precious words");
    act(() => {
      window.dispatchEvent(new Event("pagehide"));
    });
    expect(screen.getByText(/Browser storage is full/)).toBeInTheDocument();
    expect(readPrompt(editor)).toBe("precious words");
  });

  it("stashes a draft, previews it, and restores every chip from the stored string", () => {
    const { editor, textbox } = renderComposer();
    const prompt = `Look at @src/app.ts\n${commentedQuoteLink} then $ship`;
    setPrompt(editor, prompt);
    fireEvent.click(screen.getByRole("button", { name: "Stash draft" }));
    expect(readPrompt(editor)).toBe("");
    expect(loadStashes().map((stash) => stash.text)).toEqual([prompt]);
    const list = screen.getByRole("list", { name: "Stashed drafts" });
    const item = within(list).getByRole("listitem");
    // Citations read as their quote; whitespace collapses; long previews are cut with "…".
    expect(item).toHaveTextContent(
      "Look at @src/app.ts The cache is invalidated on write Comment: Is this still tru…",
    );

    fireEvent.click(within(item).getByRole("button", { name: "Restore" }));
    expect(readPrompt(editor)).toBe(prompt);
    expect(textbox.querySelectorAll("[data-composer-mention-chip]")).toHaveLength(1);
    expect(textbox.querySelectorAll("[data-composer-citation-chip]")).toHaveLength(1);
    expect(textbox.querySelectorAll("[data-composer-skill-chip]")).toHaveLength(1);
    expect(loadStashes()).toEqual([]);
  });

  it("stashes the current draft before restoring another, and deletes stashes", () => {
    const { editor } = renderComposer();
    setPrompt(editor, "older");
    fireEvent.click(screen.getByRole("button", { name: "Stash draft" }));
    setPrompt(editor, "current");
    fireEvent.click(screen.getByRole("button", { name: "Restore" }));
    expect(readPrompt(editor)).toBe("older");
    expect(loadStashes().map((stash) => stash.text)).toEqual(["current"]);
    fireEvent.click(screen.getByRole("button", { name: "Delete" }));
    expect(loadStashes()).toEqual([]);
    expect(screen.queryByRole("list", { name: "Stashed drafts" })).toBeNull();
  });
});
