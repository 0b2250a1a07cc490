import { type AssistantCitation, serializeAssistantCitation } from "@app/citations";
import type { UserInputRequest } from "@app/protocol";
import { act, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import {
  $getSelection,
  $isRangeSelection,
  COPY_COMMAND,
  getNearestEditorFromDOMNode,
  KEY_BACKSPACE_COMMAND,
  type LexicalEditor,
  PASTE_COMMAND,
} from "lexical";
import { createRef, StrictMode } from "react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { Composer, type ComposerHandle, type ComposerProps } from "./Composer.tsx";
import { draftKey, loadStashes } from "./composerStorage.ts";
import {
  $getPromptText,
  $selectPromptOffsets,
  $setPromptText,
  PROMPT_REBUILD_TAG,
} from "./promptEditorState.ts";

const citation: AssistantCitation = {
  version: 1,
  environmentId: "env",
  threadId: "thread-a",
  messageId: "m1",
  text: "The cache is\n  invalidated on write",
  start: 10,
  end: 45,
  prefix: "As noted, ",
  suffix: ".",
  comment: "Is this still true?",
};
const link = serializeAssistantCitation(citation);

function setup(overrides: Partial<ComposerProps> = {}) {
  const onSend = vi.fn<ComposerProps["onSend"]>(async () => {});
  const onAnswer = vi.fn<ComposerProps["onAnswer"]>(async () => {});
  const searchFiles = vi.fn(async (query: string) =>
    ["src/app.ts", "src/api/client.ts", "README.md"].filter((file) => file.includes(query)),
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

function setPrompt(editor: LexicalEditor, prompt: string, caret?: number): void {
  act(() => {
    editor.update(() => $setPromptText(prompt, caret), { discrete: true, tag: PROMPT_REBUILD_TAG });
  });
}

function readPrompt(editor: LexicalEditor): string {
  return editor.getEditorState().read($getPromptText);
}

/** Types at the caret like a user (an ordinary update, so typed-token rules apply). */
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

function pressEnter(textbox: HTMLElement, shiftKey = false): void {
  act(() => {
    fireEvent.keyDown(textbox, { key: "Enter", code: "Enter", shiftKey });
  });
}

beforeEach(() => {
  localStorage.clear();
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe("Composer editor", () => {
  it("exposes a textbox named Message and a Send button, enabled once there is something to send", () => {
    const { editor } = setup();
    expect(screen.getByRole("textbox", { name: "Message" })).toHaveAttribute(
      "contenteditable",
      "true",
    );
    const send = screen.getByRole("button", { name: "Send" });
    expect(send).toBeDisabled();
    setPrompt(editor, "");
    type(editor, "h");
    expect(send).toBeEnabled();
    setPrompt(editor, "");
    expect(send).toBeDisabled();
    setPrompt(editor, link);
    expect(send).toBeEnabled();
  });

  it("round-trips a prompt string with mention, skill and citation chips", () => {
    const { editor, textbox } = setup();
    const prompt = `Check @src/app.ts with $review\nQuote: ${link} thanks`;
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
    const { editor, textbox } = setup();
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
    const { editor, textbox } = setup();
    const prompt = `a @src/app.ts ${link} $go`;
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
    const { editor, handle } = setup();
    setPrompt(editor, "before after", 7);
    screen.getByRole("button", { name: "Send" }).focus();
    act(() => handle.current?.insertPromptText(`${link} `));
    expect(readPrompt(editor)).toBe(`before ${link} after`);
    // The caret ends after the inserted text, so a second insertion follows the first.
    act(() => handle.current?.insertPromptText("x"));
    expect(readPrompt(editor)).toBe(`before ${link} xafter`);
  });
});

describe("Composer sending", () => {
  it("sends on Enter and clears the editor and the saved draft", async () => {
    const { editor, textbox, onSend } = setup();
    setPrompt(editor, "  hello @src/app.ts  ");
    localStorage.setItem(draftKey("thread-a"), "stale");
    pressEnter(textbox);
    await waitFor(() => expect(onSend).toHaveBeenCalledWith("hello @src/app.ts"));
    await waitFor(() => expect(readPrompt(editor)).toBe(""));
    expect(localStorage.getItem(draftKey("thread-a"))).toBeNull();
  });

  it("adds a line on Shift+Enter without sending", () => {
    const { editor, textbox, onSend } = setup();
    setPrompt(editor, "line one");
    pressEnter(textbox, true);
    type(editor, "line two");
    expect(readPrompt(editor)).toBe("line one\nline two");
    expect(onSend).not.toHaveBeenCalled();
  });

  it("does nothing for a blank prompt", () => {
    const { editor, textbox, onSend } = setup();
    setPrompt(editor, "  \n ");
    pressEnter(textbox);
    fireEvent.click(screen.getByRole("button", { name: "Send" }));
    expect(onSend).not.toHaveBeenCalled();
    expect(screen.queryByRole("alert")).toBeNull();
  });

  it("blocks an over-limit prompt, keeps the draft editable and says how far over it is", () => {
    const { editor, onSend } = setup();
    const prompt = `${"x".repeat(120_000)} @a`;
    setPrompt(editor, prompt);
    fireEvent.click(screen.getByRole("button", { name: "Send" }));
    expect(onSend).not.toHaveBeenCalled();
    expect(screen.getByRole("alert")).toHaveTextContent(
      "This message is 3 characters over the 120,000-character limit.",
    );
    expect(readPrompt(editor)).toBe(prompt);
    type(editor, "!");
    expect(readPrompt(editor)).toBe(`${prompt}!`);
  });

  it("keeps the draft and shows the error when sending fails", async () => {
    const onSend = vi.fn(async () => {
      throw Object.assign(new Error("The server is unreachable."), {
        status: 0,
        code: "network_error",
      });
    });
    const { editor } = setup({ onSend });
    setPrompt(editor, "keep me");
    fireEvent.click(screen.getByRole("button", { name: "Send" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("The server is unreachable.");
    expect(readPrompt(editor)).toBe("keep me");
  });

  it("ignores a second send while one is in flight and keeps text typed meanwhile", async () => {
    let resolve: () => void = () => {};
    const onSend = vi.fn(() => new Promise<void>((done) => (resolve = done)));
    const { editor, textbox } = setup({ onSend });
    setPrompt(editor, "first");
    pressEnter(textbox);
    pressEnter(textbox);
    expect(onSend).toHaveBeenCalledTimes(1);
    expect(screen.getByRole("button", { name: "Send" })).toBeDisabled();
    type(editor, " more");
    await act(async () => resolve());
    expect(readPrompt(editor)).toBe("more");
    expect(screen.getByRole("button", { name: "Send" })).toBeEnabled();
  });
});

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
    const first = setup();
    const prompt = `draft @src/app.ts and ${link}.`;
    setPrompt(first.editor, prompt);
    // Unmounting flushes the pending (debounced) save.
    first.unmount();
    expect(localStorage.getItem(draftKey("thread-a"))).toBe(prompt);
    const second = setup();
    expect(readPrompt(second.editor)).toBe(prompt);
    expect(second.textbox.querySelector("[data-composer-mention-chip]")).not.toBeNull();
    expect(second.textbox.querySelector("[data-composer-citation-chip]")).not.toBeNull();
  });

  it("saves the draft after a short pause and on pagehide", async () => {
    const { editor } = setup();
    setPrompt(editor, "typed");
    await waitFor(() => expect(localStorage.getItem(draftKey("thread-a"))).toBe("typed"));
    setPrompt(editor, "typed more");
    act(() => {
      window.dispatchEvent(new Event("pagehide"));
    });
    expect(localStorage.getItem(draftKey("thread-a"))).toBe("typed more");
  });

  it("warns when storage is full and keeps the text in the editor", () => {
    const { editor } = setup();
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
    const { editor, textbox } = setup();
    const prompt = `Look at @src/app.ts\n${link} then $ship`;
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
    const { editor } = setup();
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

describe("Composer typeahead", () => {
  it("lists files for @partial and inserts the picked file as a chip", async () => {
    const { editor, textbox, searchFiles, onSend } = setup();
    setPrompt(editor, "");
    type(editor, "see @src/a");
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
    const { editor, textbox } = setup();
    setPrompt(editor, "see now", 4);
    type(editor, "@READ");
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
    const { editor } = setup({ searchFiles });
    setPrompt(editor, "");
    type(editor, "@a");
    await waitFor(() => expect(pending.has("a")).toBe(true));
    type(editor, "b");
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
    const { editor, textbox, onSend } = setup();
    setPrompt(editor, "");
    type(editor, "see @READ");
    await screen.findByRole("listbox");
    pressEnter(textbox, true);
    type(editor, "next");
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
    const { editor, textbox } = setup();
    setPrompt(editor, "");
    type(editor, "@READ");
    await screen.findByRole("listbox");
    act(() => {
      fireEvent.keyDown(textbox, { key: "Escape", code: "Escape" });
    });
    expect(screen.queryByRole("listbox")).toBeNull();
  });
});

describe("Composer pending user input", () => {
  const request: UserInputRequest = {
    id: "req-1",
    threadId: "thread-a",
    turnId: "turn-1",
    questions: [{ id: "q1", prompt: "Which option should I use?", options: ["Fast", "Safe"] }],
    createdAt: "2026-12-02T10:00:00.000Z",
  };

  it("shows the question and answers with the raw composer text", async () => {
    const { editor, textbox, onAnswer, onSend } = setup({ pendingUserInput: request });
    expect(screen.getByRole("group", { name: "Which option should I use?" })).toBeInTheDocument();
    expect(screen.getByText("Answering: Which option should I use?")).toBeInTheDocument();
    const raw = `  use ${link} as is `;
    setPrompt(editor, raw);
    pressEnter(textbox);
    await waitFor(() => expect(onAnswer).toHaveBeenCalledWith("req-1", { q1: raw }));
    expect(onSend).not.toHaveBeenCalled();
    await waitFor(() => expect(readPrompt(editor)).toBe(""));
  });

  it("answers with an option button", async () => {
    const { onAnswer } = setup({ pendingUserInput: request });
    const group = screen.getByRole("group", { name: "Which option should I use?" });
    fireEvent.click(within(group).getByRole("button", { name: "Safe" }));
    await waitFor(() => expect(onAnswer).toHaveBeenCalledWith("req-1", { q1: "Safe" }));
  });

  it("answers several questions from option buttons and the composer text", async () => {
    const twoQuestions: UserInputRequest = {
      ...request,
      questions: [
        { id: "mode", prompt: "Which mode?", options: ["Fast", "Safe"] },
        { id: "name", prompt: "What name?" },
      ],
    };
    const { editor, textbox, onAnswer } = setup({ pendingUserInput: twoQuestions });
    const mode = screen.getByRole("group", { name: "Which mode?" });
    fireEvent.click(within(mode).getByRole("button", { name: "Safe" }));
    expect(within(mode).getByRole("button", { name: "Safe" })).toHaveAttribute(
      "aria-pressed",
      "true",
    );
    expect(onAnswer).not.toHaveBeenCalled();
    expect(screen.getByText("Answering: What name?")).toBeInTheDocument();
    setPrompt(editor, "report-2");
    pressEnter(textbox);
    await waitFor(() =>
      expect(onAnswer).toHaveBeenCalledWith("req-1", { mode: "Safe", name: "report-2" }),
    );
  });

  it("answers without the provider limit", async () => {
    const { editor, onAnswer } = setup({ pendingUserInput: request });
    const long = "y".repeat(120_010);
    setPrompt(editor, long);
    fireEvent.click(screen.getByRole("button", { name: "Send" }));
    await waitFor(() => expect(onAnswer).toHaveBeenCalledWith("req-1", { q1: long }));
    expect(screen.queryByRole("alert")).toBeNull();
  });
});
