import {
  type AssistantCitation,
  collectAssistantCitations,
  serializeAssistantCitation,
} from "@app/citations";
import { act, fireEvent, render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import {
  COPY_COMMAND,
  getNearestEditorFromDOMNode,
  type LexicalEditor,
  PASTE_COMMAND,
  REDO_COMMAND,
  UNDO_COMMAND,
} from "lexical";
import { createRef } from "react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { COMMENT_ON_QUOTE_LABEL } from "./CitationCommentEditor.tsx";
import { Composer, type ComposerHandle, type ComposerProps } from "./Composer.tsx";
import { ASSISTANT_CITATION_EDITING_HIGHLIGHT } from "./citationEditingHighlight.ts";
import { draftKey } from "./composerStorage.ts";
import {
  $getPromptText,
  $selectPromptOffsets,
  $setPromptText,
  PROMPT_REBUILD_TAG,
} from "./promptEditorState.ts";

const quote: AssistantCitation = {
  version: 1,
  environmentId: "env",
  threadId: "thread-a",
  messageId: "m1",
  text: "The cache is\n  invalidated on write",
  start: 10,
  end: 45,
  prefix: "As noted, ",
  suffix: ".",
};
const link = serializeAssistantCitation(quote);
const commented = { ...quote, comment: "Is this still true?" };
const commentedLink = serializeAssistantCitation(commented);

function setup(overrides: Partial<ComposerProps> = {}) {
  const onSend = vi.fn<ComposerProps["onSend"]>(async () => {});
  const handle = createRef<ComposerHandle>();
  const view = render(
    <Composer
      threadId="thread-a"
      pendingUserInput={null}
      onSend={onSend}
      onAnswer={async () => {}}
      searchFiles={async () => []}
      ref={handle}
      {...overrides}
    />,
  );
  const textbox = screen.getByRole("textbox", { name: "Message" });
  const editor = getNearestEditorFromDOMNode(textbox) as LexicalEditor;
  return { ...view, handle, textbox, editor, onSend };
}

function setPrompt(editor: LexicalEditor, prompt: string, caret?: number): void {
  act(() => {
    editor.update(() => $setPromptText(prompt, caret), { discrete: true, tag: PROMPT_REBUILD_TAG });
  });
}

function readPrompt(editor: LexicalEditor): string {
  return editor.getEditorState().read($getPromptText);
}

function commentBox(): HTMLTextAreaElement | null {
  return screen.queryByRole("textbox", { name: COMMENT_ON_QUOTE_LABEL }) as HTMLTextAreaElement;
}

/** The focusable face of the only citation chip. */
function chipFace(textbox: HTMLElement): HTMLElement {
  const face = textbox.querySelector<HTMLElement>("[data-composer-citation-chip] [role='button']");
  if (face === null) throw new Error("no citation chip");
  return face;
}

async function run(command: () => void): Promise<void> {
  // Lexical commands commit in a microtask; the async act flushes it.
  await act(async () => command());
}

// jsdom cannot measure ranges; Lexical scrolls the caret into view once the composer has focus.
const zeroRect = { x: 0, y: 0, left: 0, top: 0, right: 0, bottom: 0, width: 0, height: 0 };
beforeEach(() => {
  localStorage.clear();
  Range.prototype.getBoundingClientRect = () => ({ ...zeroRect, toJSON: () => zeroRect });
  Range.prototype.getClientRects = () => [] as unknown as DOMRectList;
});
afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  delete (Range.prototype as Partial<Range>).getBoundingClientRect;
  delete (Range.prototype as Partial<Range>).getClientRects;
});

describe("insertCitation", () => {
  it("inserts at the last cursor after the editor lost focus, as a separate token", () => {
    const { editor, handle, textbox } = setup();
    setPrompt(editor, "before after", 7);
    screen.getByRole("button", { name: "Send" }).focus();
    act(() => handle.current?.insertCitation(quote));
    expect(readPrompt(editor)).toBe(`before ${link} after`);
    expect(textbox.querySelectorAll("[data-composer-citation-chip]")).toHaveLength(1);
    expect(chipFace(textbox)).toHaveTextContent("The cache is invalidated on write");
  });

  it("adds a space only where the neighbours are not whitespace", () => {
    const { editor, handle } = setup();
    const cases: [string, number, string][] = [
      ["abcdef", 3, `abc ${link} def`],
      ["end", 3, `end ${link} `],
      ["", 0, `${link} `],
      ["line\nnext", 4, `line ${link}\nnext`],
    ];
    for (const [prompt, caret, expected] of cases) {
      setPrompt(editor, prompt, caret);
      act(() => handle.current?.insertCitation(quote));
      expect(readPrompt(editor)).toBe(expected);
      act(() => fireEvent.keyDown(commentBox()!, { key: "Escape" }));
    }
  });

  it("replaces a selected range, like typing would", () => {
    const { editor, handle } = setup();
    setPrompt(editor, "keep REPLACE keep");
    act(() => {
      editor.update(() => $selectPromptOffsets({ anchor: 5, focus: 12 }), { discrete: true });
    });
    act(() => handle.current?.insertCitation(quote));
    expect(readPrompt(editor)).toBe(`keep ${link} keep`);
  });

  it("rejects an invalid citation with a clear error and leaves the editor unchanged", () => {
    const { editor, handle } = setup();
    setPrompt(editor, "untouched");
    expect(() => handle.current?.insertCitation({ ...quote, text: "  " })).toThrow(/text/);
    expect(readPrompt(editor)).toBe("untouched");
    expect(commentBox()).toBeNull();
  });
});

describe("comment editor opening", () => {
  it("opens once for the inserted citation with an empty, focused textbox", () => {
    const { editor, handle } = setup();
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
    const { editor, handle } = setup();
    setPrompt(editor, "");
    act(() => handle.current?.insertCitation(quote));
    expect(visibilityAtFocus).toEqual([""]);
    expect(commentBox()).toHaveFocus();
  });

  it("does not open for a pasted citation", async () => {
    const { editor, textbox } = setup();
    setPrompt(editor, "x ");
    const paste = {
      clipboardData: { getData: (type: string) => (type === "text/plain" ? commentedLink : "") },
      preventDefault: vi.fn(),
    } as unknown as ClipboardEvent;
    await run(() => editor.dispatchCommand(PASTE_COMMAND, paste));
    expect(readPrompt(editor)).toBe(`x ${commentedLink}`);
    expect(textbox.querySelectorAll("[data-composer-citation-chip]")).toHaveLength(1);
    expect(commentBox()).toBeNull();
  });

  it("does not open when a draft or a stash is restored", () => {
    localStorage.setItem(draftKey("thread-a"), `draft ${commentedLink}`);
    const { editor, textbox } = setup();
    expect(readPrompt(editor)).toBe(`draft ${commentedLink}`);
    expect(textbox.querySelector("[data-composer-citation-chip]")).not.toBeNull();
    expect(commentBox()).toBeNull();

    fireEvent.click(screen.getByRole("button", { name: "Stash draft" }));
    fireEvent.click(screen.getByRole("button", { name: "Restore" }));
    expect(readPrompt(editor)).toBe(`draft ${commentedLink}`);
    expect(commentBox()).toBeNull();
  });

  it("does not open on undo or redo of an insertion", async () => {
    const { editor, handle } = setup();
    setPrompt(editor, "a ");
    act(() => handle.current?.insertCitation(quote));
    act(() => fireEvent.keyDown(commentBox()!, { key: "Escape" }));
    await run(() => editor.dispatchCommand(UNDO_COMMAND, undefined));
    expect(readPrompt(editor)).toBe("a ");
    await run(() => editor.dispatchCommand(REDO_COMMAND, undefined));
    expect(readPrompt(editor)).toBe(`a ${link} `);
    expect(commentBox()).toBeNull();
  });

  it("opens for an existing chip on click, and on Enter without sending", () => {
    const { editor, textbox, onSend } = setup();
    setPrompt(editor, `look ${commentedLink}`);
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
    const { editor } = setup();
    setPrompt(editor, `${commentedLink} ${link}`);
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

describe("comment editor saving", () => {
  it("saves on Enter (trimmed), shows the comment as the label and returns focus", async () => {
    const user = userEvent.setup();
    const { editor, handle, textbox } = setup();
    setPrompt(editor, "before after", 7);
    act(() => handle.current?.insertCitation(quote));
    await user.type(commentBox()!, "  Still valid?  {Enter}");
    expect(commentBox()).toBeNull();
    const saved = serializeAssistantCitation({ ...quote, comment: "Still valid?" });
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
    const { editor, handle } = setup();
    setPrompt(editor, "");
    act(() => handle.current?.insertCitation(quote));
    await user.type(commentBox()!, "first{Shift>}{Enter}{/Shift}second");
    expect(commentBox()).toHaveValue("first\nsecond");
    await user.keyboard("{Enter}");
    expect(readPrompt(editor)).toBe(
      `${serializeAssistantCitation({ ...quote, comment: "first\nsecond" })} `,
    );
  });

  it("cancels on Escape, keeping the comment and returning focus to the composer", async () => {
    const user = userEvent.setup();
    const { editor, textbox } = setup();
    setPrompt(editor, `${commentedLink} tail`);
    fireEvent.click(chipFace(textbox));
    await user.type(commentBox()!, " edited");
    await user.keyboard("{Escape}");
    expect(commentBox()).toBeNull();
    expect(readPrompt(editor)).toBe(`${commentedLink} tail`);
    expect(chipFace(textbox)).toHaveTextContent("Is this still true?");
    await waitFor(() => expect(textbox).toHaveFocus());
  });

  it("removes the comment key when saved blank, restoring the original link bytes", async () => {
    const user = userEvent.setup();
    const { editor, textbox } = setup();
    setPrompt(editor, `q ${link}`);
    fireEvent.click(chipFace(textbox));
    await user.type(commentBox()!, "temporary{Enter}");
    expect(readPrompt(editor)).toBe(
      `q ${serializeAssistantCitation({ ...quote, comment: "temporary" })}`,
    );
    fireEvent.click(chipFace(textbox));
    await user.clear(commentBox()!);
    await user.type(commentBox()!, "   {Enter}");
    expect(readPrompt(editor)).toBe(`q ${link}`);
    expect(readPrompt(editor)).not.toContain("comment=");
    expect(chipFace(textbox)).toHaveTextContent("The cache is invalidated on write");
  });

  it("restores non-canonical original bytes after adding and clearing a comment", async () => {
    const user = userEvent.setup();
    const { editor, textbox } = setup();
    // Leading zeros are valid, but not how links are written.
    const odd = link.replace("start=10&", "start=0010&");
    expect(odd).not.toBe(link);
    expect(collectAssistantCitations(odd)[0]?.citation).toEqual(quote);
    setPrompt(editor, odd);
    fireEvent.click(chipFace(textbox));
    await user.type(commentBox()!, "note{Enter}");
    expect(readPrompt(editor)).toBe(serializeAssistantCitation({ ...quote, comment: "note" }));
    fireEvent.click(chipFace(textbox));
    await user.clear(commentBox()!);
    await user.keyboard("{Enter}");
    expect(readPrompt(editor)).toBe(odd);
  });

  it("keeps the link bytes when the comment is saved unchanged", async () => {
    const user = userEvent.setup();
    const { editor, textbox } = setup();
    // An explicit empty comment is valid and kept byte for byte.
    const empty = serializeAssistantCitation({ ...quote, comment: "" });
    setPrompt(editor, empty);
    fireEvent.click(chipFace(textbox));
    await user.keyboard("{Enter}");
    expect(readPrompt(editor)).toBe(empty);
  });

  it("undoes a comment edit in one step, and redo brings it back", async () => {
    const user = userEvent.setup();
    const { editor, textbox } = setup();
    setPrompt(editor, `a ${commentedLink}`);
    fireEvent.click(chipFace(textbox));
    await user.clear(commentBox()!);
    await user.type(commentBox()!, "Confirmed{Enter}");
    const confirmed = `a ${serializeAssistantCitation({ ...quote, comment: "Confirmed" })}`;
    expect(readPrompt(editor)).toBe(confirmed);
    await run(() => {
      fireEvent.keyDown(textbox, { key: "z", code: "KeyZ", ctrlKey: true });
    });
    expect(readPrompt(editor)).toBe(`a ${commentedLink}`);
    expect(chipFace(textbox)).toHaveTextContent("Is this still true?");
    await run(() => editor.dispatchCommand(REDO_COMMAND, undefined));
    expect(readPrompt(editor)).toBe(confirmed);
    expect(chipFace(textbox)).toHaveTextContent("Confirmed");
    expect(commentBox()).toBeNull();
  });

  it("saves what was typed when the user presses outside the editor", async () => {
    const user = userEvent.setup();
    const { editor, handle } = setup();
    setPrompt(editor, "");
    act(() => handle.current?.insertCitation(quote));
    await user.type(commentBox()!, "kept");
    act(() => {
      fireEvent.pointerDown(screen.getByRole("button", { name: "Send" }));
    });
    expect(commentBox()).toBeNull();
    expect(readPrompt(editor)).toBe(
      `${serializeAssistantCitation({ ...quote, comment: "kept" })} `,
    );
  });

  it("saves the edited link in the draft, and a remount restores it without opening the editor", async () => {
    const user = userEvent.setup();
    const first = setup();
    setPrompt(first.editor, `draft ${link}`);
    fireEvent.click(chipFace(first.textbox));
    await user.type(commentBox()!, "persisted{Enter}");
    const saved = `draft ${serializeAssistantCitation({ ...quote, comment: "persisted" })}`;
    act(() => {
      window.dispatchEvent(new Event("pagehide"));
    });
    expect(localStorage.getItem(draftKey("thread-a"))).toBe(saved);
    first.unmount();
    const second = setup();
    expect(readPrompt(second.editor)).toBe(saved);
    expect(chipFace(second.textbox)).toHaveTextContent("persisted");
    expect(commentBox()).toBeNull();
  });

  it("shows why a comment cannot be saved and stays open", async () => {
    const { editor, textbox } = setup();
    setPrompt(editor, link);
    fireEvent.click(chipFace(textbox));
    const box = commentBox()!;
    fireEvent.change(box, { target: { value: "x".repeat(8_001) } });
    act(() => fireEvent.keyDown(box, { key: "Enter" }));
    expect(commentBox()).toHaveAttribute("aria-invalid", "true");
    expect(screen.getByText(/This comment cannot be saved/)).toBeInTheDocument();
    expect(readPrompt(editor)).toBe(link);
  });

  it("copies a commented chip as its serialized link", async () => {
    const user = userEvent.setup();
    const { editor, textbox } = setup();
    setPrompt(editor, `x ${link} y`);
    fireEvent.click(chipFace(textbox));
    await user.type(commentBox()!, "why?{Enter}");
    const saved = serializeAssistantCitation({ ...quote, comment: "why?" });
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
    const { editor, textbox, handle } = setup();
    setPrompt(editor, `one ${link} two`);
    chipFace(textbox).focus();
    act(() => fireEvent.keyDown(chipFace(textbox), { key: "Backspace" }));
    expect(readPrompt(editor)).toBe("one  two");
    expect(textbox).toHaveFocus();
    act(() => handle.current?.insertPromptText("X"));
    expect(readPrompt(editor)).toBe("one X two");
  });

  it("ArrowLeft and ArrowRight move the caret beside the chip and focus the composer", () => {
    const { editor, textbox, handle } = setup();
    setPrompt(editor, `one ${link} two`, 0);
    chipFace(textbox).focus();
    act(() => fireEvent.keyDown(chipFace(textbox), { key: "ArrowRight" }));
    expect(textbox).toHaveFocus();
    act(() => handle.current?.insertPromptText("R"));
    expect(readPrompt(editor)).toBe(`one ${link} Rtwo`);
    chipFace(textbox).focus();
    act(() => fireEvent.keyDown(chipFace(textbox), { key: "ArrowLeft" }));
    act(() => handle.current?.insertPromptText("L"));
    expect(readPrompt(editor)).toBe(`one L${link} Rtwo`);
    expect(commentBox()).toBeNull();
  });
});

describe("source range", () => {
  function stubHighlights(): Map<string, unknown> {
    const registry = new Map<string, unknown>();
    vi.stubGlobal("CSS", { highlights: registry });
    vi.stubGlobal(
      "Highlight",
      class {
        ranges: Range[];
        constructor(...ranges: Range[]) {
          this.ranges = ranges;
        }
      },
    );
    return registry;
  }

  function sourceText(): { range: Range; element: HTMLElement } {
    const element = document.createElement("p");
    element.setAttribute("data-assistant-citation-source", "m1");
    element.textContent = "As noted, The cache is invalidated on write.";
    document.body.append(element);
    const range = document.createRange();
    range.setStart(element.firstChild!, 10);
    range.setEnd(element.firstChild!, 43);
    return { range, element };
  }

  it("positions beside the live source text and highlights it until the editor closes", () => {
    const registry = stubHighlights();
    const rect = { left: 40, top: 100, right: 300, bottom: 120, width: 260, height: 20 };
    Range.prototype.getBoundingClientRect = () => ({ ...rect, x: 40, y: 100, toJSON: () => rect });
    const { range, element } = sourceText();
    const { editor, handle } = setup();
    setPrompt(editor, "");
    act(() => handle.current?.insertCitation(quote, { sourceRange: range }));
    const dialog = screen.getByRole("dialog", { name: "Edit quote comment" });
    expect(dialog).toHaveAttribute("data-anchor", "source");
    expect(dialog.style.left).toBe("40px");
    expect(dialog.style.top).toBe("126px");
    const painted = registry.get(ASSISTANT_CITATION_EDITING_HIGHLIGHT) as { ranges: Range[] };
    expect(painted.ranges[0]?.toString()).toBe("The cache is invalidated on write");
    act(() => fireEvent.keyDown(commentBox()!, { key: "Escape" }));
    expect(registry.has(ASSISTANT_CITATION_EDITING_HIGHLIGHT)).toBe(false);
    // The range never reaches the citation.
    expect(readPrompt(editor)).toBe(`${link} `);
    element.remove();
  });

  it("falls back to the chip and paints nothing when the range's nodes are detached", () => {
    const registry = stubHighlights();
    const { range, element } = sourceText();
    // The row re-rendered: its text was replaced.
    element.textContent = "re-rendered";
    const { editor, handle } = setup();
    setPrompt(editor, "");
    act(() => handle.current?.insertCitation(quote, { sourceRange: range }));
    expect(screen.getByRole("dialog", { name: "Edit quote comment" })).toHaveAttribute(
      "data-anchor",
      "chip",
    );
    expect(registry.has(ASSISTANT_CITATION_EDITING_HIGHLIGHT)).toBe(false);
    element.remove();
  });

  it("moves beside the chip and drops the highlight when the row re-renders while open", async () => {
    const registry = stubHighlights();
    const rect = { left: 40, top: 100, right: 300, bottom: 120, width: 260, height: 20 };
    Range.prototype.getBoundingClientRect = () => ({ ...rect, x: 40, y: 100, toJSON: () => rect });
    const { range, element } = sourceText();
    const { editor, handle } = setup();
    setPrompt(editor, "");
    act(() => handle.current?.insertCitation(quote, { sourceRange: range }));
    const dialog = screen.getByRole("dialog", { name: "Edit quote comment" });
    expect(dialog).toHaveAttribute("data-anchor", "source");
    expect(registry.has(ASSISTANT_CITATION_EDITING_HIGHLIGHT)).toBe(true);
    element.textContent = "re-rendered";
    await waitFor(() => expect(dialog).toHaveAttribute("data-anchor", "chip"));
    expect(registry.has(ASSISTANT_CITATION_EDITING_HIGHLIGHT)).toBe(false);
    expect(commentBox()).toHaveFocus();
    element.remove();
  });

  it("uses repairSourceRange to follow re-rendered source text", () => {
    const registry = stubHighlights();
    const rect = { left: 40, top: 100, right: 300, bottom: 120, width: 260, height: 20 };
    Range.prototype.getBoundingClientRect = () => ({ ...rect, x: 40, y: 100, toJSON: () => rect });
    const stale = sourceText();
    stale.element.textContent = "gone";
    const fresh = sourceText();
    const repairSourceRange = vi.fn(() => fresh.range);
    const { editor, handle } = setup();
    setPrompt(editor, "");
    act(() =>
      handle.current?.insertCitation(quote, { sourceRange: stale.range, repairSourceRange }),
    );
    expect(repairSourceRange).toHaveBeenCalled();
    expect(screen.getByRole("dialog", { name: "Edit quote comment" })).toHaveAttribute(
      "data-anchor",
      "source",
    );
    const painted = registry.get(ASSISTANT_CITATION_EDITING_HIGHLIGHT) as { ranges: Range[] };
    expect(painted.ranges[0]?.startContainer).toBe(fresh.element.firstChild);
    stale.element.remove();
    fresh.element.remove();
  });

  it("falls back to the chip when repairSourceRange throws", () => {
    stubHighlights();
    const { range, element } = sourceText();
    element.textContent = "gone";
    const { editor, handle } = setup();
    setPrompt(editor, "");
    act(() =>
      handle.current?.insertCitation(quote, {
        sourceRange: range,
        repairSourceRange: () => {
          throw new Error("no such message");
        },
      }),
    );
    expect(screen.getByRole("dialog", { name: "Edit quote comment" })).toHaveAttribute(
      "data-anchor",
      "chip",
    );
    element.remove();
  });

  it("opens without a highlight where the Highlight API is missing", () => {
    const { range, element } = sourceText();
    const { editor, handle } = setup();
    setPrompt(editor, "");
    act(() => handle.current?.insertCitation(quote, { sourceRange: range }));
    expect(commentBox()).not.toBeNull();
    element.remove();
  });
});
