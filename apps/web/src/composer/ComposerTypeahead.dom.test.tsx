/** The `@` file typeahead: listing, picking into a chip, stale answers, keys. */
import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { setUpComposerTests } from "./composerTestSetup.ts";
import {
  pressEnter,
  readPrompt,
  renderComposer,
  setPrompt,
  typeAtCaret,
} from "./renderComposer.tsx";

setUpComposerTests();

describe("Composer typeahead", () => {
  it("lists files for @partial and inserts the picked file as a chip", async () => {
    const { editor, textbox, searchFiles, onSend } = renderComposer();
    setPrompt(editor, "");
    typeAtCaret(editor, "see @src/a");
    const listbox = await screen.findByRole("listbox");
    expect(searchFiles).toHaveBeenLastCalledWith("src/a", expect.any(AbortSignal));
    const options = within(listbox).getAllByRole("option");
    expect(options.map((option) => option.textContent)).toEqual([
      "src/app.ts",
      "src/api/client.ts",
    ]);
    expect(options[0]).toHaveAttribute("aria-selected", "true");
    act(() => {
      fireEvent.keyDown(textbox, { key: "ArrowDown", code: "ArrowDown" });
    });
    expect(within(listbox).getAllByRole("option")[1]).toHaveAttribute("aria-selected", "true");
    await act(async () => {
      fireEvent.keyDown(textbox, { key: "Enter", code: "Enter" });
    });
    expect(onSend).not.toHaveBeenCalled();
    expect(readPrompt(editor)).toBe("see @src/api/client.ts ");
    expect(textbox.querySelector("[data-composer-mention-chip]")).toHaveAttribute(
      "data-composer-mention-chip",
      "src/api/client.ts",
    );
    await waitFor(() => expect(screen.queryByRole("listbox")).toBeNull());
  });

  it("picks with Tab in the middle of a line and keeps the text after the caret", async () => {
    const { editor, textbox } = renderComposer();
    setPrompt(editor, "see now", 4);
    typeAtCaret(editor, "@READ");
    await screen.findByRole("listbox");
    await act(async () => {
      fireEvent.keyDown(textbox, { key: "Tab", code: "Tab" });
    });
    expect(readPrompt(editor)).toBe("see @README.md now");
    expect(textbox.querySelector("[data-composer-mention-chip]")).toHaveAttribute(
      "data-composer-mention-chip",
      "README.md",
    );
  });

  it("shows only the latest request's files when answers arrive out of order", async () => {
    const pending = new Map<string, (files: string[]) => void>();
    const searchFiles = vi.fn(
      (query: string) => new Promise<string[]>((resolve) => pending.set(query, resolve)),
    );
    const { editor } = renderComposer({ searchFiles });
    setPrompt(editor, "");
    typeAtCaret(editor, "@a");
    await waitFor(() => expect(pending.has("a")).toBe(true));
    typeAtCaret(editor, "b");
    await waitFor(() => expect(pending.has("ab")).toBe(true));
    await act(async () => pending.get("ab")?.(["newer.ts"]));
    await act(async () => pending.get("a")?.(["older.ts"]));
    const listbox = await screen.findByRole("listbox");
    expect(
      within(listbox)
        .getAllByRole("option")
        .map((option) => option.textContent),
    ).toEqual(["newer.ts"]);
  });

  it("adds a line on Shift+Enter while the list is open, without picking or sending", async () => {
    const { editor, textbox, onSend } = renderComposer();
    setPrompt(editor, "");
    typeAtCaret(editor, "see @READ");
    await screen.findByRole("listbox");
    pressEnter(textbox, true);
    typeAtCaret(editor, "next");
    expect(readPrompt(editor)).toBe("see @READ\nnext");
    // What was typed stays (chipped as typed, as any `@path` is once the caret leaves it).
    expect(textbox.querySelector("[data-composer-mention-chip]")).toHaveAttribute(
      "data-composer-mention-chip",
      "READ",
    );
    expect(onSend).not.toHaveBeenCalled();
    await waitFor(() => expect(screen.queryByRole("listbox")).toBeNull());
  });

  it("closes on Escape", async () => {
    const { editor, textbox } = renderComposer();
    setPrompt(editor, "");
    typeAtCaret(editor, "@READ");
    await screen.findByRole("listbox");
    act(() => {
      fireEvent.keyDown(textbox, { key: "Escape", code: "Escape" });
    });
    expect(screen.queryByRole("listbox")).toBeNull();
  });
});
