import { ASSISTANT_CITATION_MAX_TEXT_LENGTH } from "@app/citations";
import { citationFixture } from "@app/citations/testing";
import { act, fireEvent, render, screen } from "@testing-library/react";
import { useRef } from "react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  AssistantSelectionToolbar,
  type AssistantSelectionToolbarState,
} from "./AssistantSelectionToolbar.tsx";
import type { AssistantTextSelectionCapture } from "./assistantTextSelection.ts";
import { SELECTION_SETTLE_MS } from "./selectionActions.ts";
import { useAssistantSelectionToolbar } from "./useAssistantSelectionToolbar.tsx";

function stateFor(text: string, anchor = { x: 300, y: 200 }): AssistantSelectionToolbarState {
  const open = { anchor, input: "mouse" as const };
  const capture: AssistantTextSelectionCapture = {
    citation: citationFixture({ text }),
    range: document.createRange(),
    source: document.body,
    overLimit: text.length > ASSISTANT_CITATION_MAX_TEXT_LENGTH,
  };
  return { open, capture };
}

afterEach(() => {
  window.getSelection()?.removeAllRanges();
});

describe("AssistantSelectionToolbar", () => {
  it("offers Cite in composer with its shortcut, and cites the captured quote", () => {
    const onCite = vi.fn();
    const state = stateFor("quoted words");
    const { container } = render(<AssistantSelectionToolbar state={state} onCite={onCite} />);
    const toolbar = screen.getByRole("toolbar", { name: "Selection actions" });
    // Portalled out of the render container, into <body>.
    expect(container.contains(toolbar)).toBe(false);
    expect(toolbar.parentElement).toBe(document.body);
    const button = screen.getByRole("button", { name: "Cite in composer" });
    expect(button).toBeEnabled();
    expect(button).toHaveAttribute("aria-keyshortcuts", "Alt+Shift+Q");
    expect(button).toHaveAttribute("title", "Cite in composer (Alt+Shift+Q)");
    expect(button).toHaveAccessibleDescription("Cite in composer (Alt+Shift+Q)");
    // A mouse click (detail 1) and a keyboard activation (detail 0) say how the user cited.
    fireEvent.click(button, { detail: 1 });
    expect(onCite).toHaveBeenLastCalledWith(state.capture.citation, state.capture, "pointer");
    fireEvent.click(button, { detail: 0 });
    expect(onCite).toHaveBeenLastCalledWith(state.capture.citation, state.capture, "keyboard");
  });

  it("disables citing over the quote limit and says why", () => {
    const onCite = vi.fn();
    render(
      <AssistantSelectionToolbar
        state={stateFor("x".repeat(ASSISTANT_CITATION_MAX_TEXT_LENGTH + 1))}
        onCite={onCite}
      />,
    );
    const button = screen.getByRole("button", { name: "Cite in composer" });
    expect(button).toBeDisabled();
    expect(button).toHaveAccessibleDescription(
      "Quote is over the 8,000-character limit (8,001 characters selected).",
    );
    expect(button).toHaveAttribute("title", expect.stringContaining("8,000-character limit"));
    expect(screen.getByRole("status")).toHaveTextContent(/over the 8,000-character limit/);
    fireEvent.click(button);
    expect(onCite).not.toHaveBeenCalled();
  });

  it("registers its element and unregisters it on unmount", () => {
    const unregister = vi.fn();
    const registerElement = vi.fn(() => unregister);
    const { unmount } = render(
      <AssistantSelectionToolbar
        state={stateFor("q")}
        onCite={() => {}}
        registerElement={registerElement}
      />,
    );
    expect(registerElement).toHaveBeenCalledWith(screen.getByRole("toolbar"));
    unmount();
    expect(unregister).toHaveBeenCalledTimes(1);
  });

  it("keeps the selection when pressed", () => {
    render(<AssistantSelectionToolbar state={stateFor("q")} onCite={() => {}} />);
    const pressed = fireEvent.mouseDown(screen.getByRole("button", { name: "Cite in composer" }));
    expect(pressed).toBe(false);
  });

  it("takes focus only for a new focus request, and hands Escape to its owner", () => {
    const onEscape = vi.fn();
    const state = stateFor("q");
    const { rerender } = render(
      <AssistantSelectionToolbar
        state={state}
        onCite={() => {}}
        onEscape={onEscape}
        focusRequest={3}
      />,
    );
    const button = screen.getByRole("button", { name: "Cite in composer" });
    // A request made before this toolbar opened does not count.
    expect(button).not.toHaveFocus();
    rerender(
      <AssistantSelectionToolbar
        state={state}
        onCite={() => {}}
        onEscape={onEscape}
        focusRequest={4}
      />,
    );
    expect(button).toHaveFocus();
    fireEvent.keyDown(button, { key: "Escape" });
    expect(onEscape).toHaveBeenCalledTimes(1);
  });
});

/** A surface with two responses, a user message and some text outside them, plus the hook. */
function Harness({
  onCite,
  threadId = "thread-1",
  loaded = true,
}: {
  onCite: () => void;
  threadId?: string;
  /** False renders a placeholder instead of the surface, as while a thread loads. */
  loaded?: boolean;
}) {
  const surfaceRef = useRef<HTMLDivElement>(null);
  const toolbar = useAssistantSelectionToolbar({
    surfaceRef,
    environmentId: "env-1",
    threadId,
    onCite,
  });
  if (!loaded) return <p>Loading…</p>;
  return (
    <>
      <div ref={surfaceRef} data-testid="surface">
        <article data-message-id="m1" data-role="assistant">
          <div data-assistant-citation-source="m1">
            <p>Alpha beta gamma.</p>
          </div>
        </article>
        <article data-message-id="u1" data-role="user">
          <p>My own words.</p>
        </article>
        <article data-message-id="m2" data-role="assistant">
          <div data-assistant-citation-source="m2">
            <p>Delta epsilon.</p>
          </div>
        </article>
      </div>
      <p>Outside text.</p>
      {toolbar}
    </>
  );
}

describe("useAssistantSelectionToolbar", () => {
  const textOf = (needle: string) => screen.getByText(needle).firstChild as Text;

  /** A mouse drag that leaves the given selection. */
  function drag(anchor: Text, a: number, focus: Text, b: number) {
    const paragraph = anchor.parentElement!;
    fireEvent.pointerDown(paragraph, { button: 0, isPrimary: true, clientX: 0, clientY: 0 });
    window.getSelection()!.setBaseAndExtent(anchor, a, focus, b);
    fireEvent.pointerUp(paragraph, { button: 0, clientX: 50, clientY: 60 });
  }

  /** A selection made without any pointer (script, caret browsing, a screen reader). */
  function select(anchor: Text, a: number, focus: Text, b: number) {
    window.getSelection()!.setBaseAndExtent(anchor, a, focus, b);
    document.dispatchEvent(new Event("selectionchange"));
  }

  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("opens right after a drag and cites the selected quote", () => {
    const onCite = vi.fn();
    render(<Harness onCite={onCite} />);
    const alpha = textOf("Alpha beta gamma.");
    drag(alpha, 6, alpha, 10);
    const button = screen.getByRole("button", { name: "Cite in composer" });
    // Using the toolbar neither dismisses it nor replaces the captured quote.
    fireEvent.pointerDown(button, { button: 0, isPrimary: true });
    fireEvent.pointerUp(button, { button: 0 });
    fireEvent.keyDown(button, { key: "Enter" });
    act(() => vi.advanceTimersByTime(1000));
    fireEvent.click(screen.getByRole("button", { name: "Cite in composer" }), { detail: 1 });
    expect(onCite).toHaveBeenCalledTimes(1);
    expect(onCite.mock.calls[0]![0]).toMatchObject({
      environmentId: "env-1",
      threadId: "thread-1",
      messageId: "m1",
      text: "beta",
      prefix: "Alpha ",
      suffix: " gamma.",
    });
    expect(onCite.mock.calls[0]![2]).toBe("pointer");
    expect(screen.queryByRole("toolbar")).toBeNull();
    // A polite confirmation, in a live region that is not a role=status (warnings go there).
    const live = document.querySelector("[data-cite-announcement]")!;
    expect(live).toHaveAttribute("aria-live", "polite");
    expect(live).toHaveTextContent("Quote added to the composer.");
    expect(screen.queryByRole("status")).toBeNull();
  });

  it("cites with Alt+Shift+Q from a selection made without any pointer", () => {
    const onCite = vi.fn();
    render(<Harness onCite={onCite} />);
    const delta = textOf("Delta epsilon.");
    window.getSelection()!.setBaseAndExtent(delta, 6, delta, 13);
    const event = fireEvent.keyDown(document.body, {
      key: "Q",
      code: "KeyQ",
      altKey: true,
      shiftKey: true,
    });
    expect(event).toBe(false);
    expect(onCite).toHaveBeenCalledTimes(1);
    expect(onCite.mock.calls[0]![0]).toMatchObject({ messageId: "m2", text: "epsilon" });
    expect(onCite.mock.calls[0]![2]).toBe("keyboard");
    expect(document.querySelector("[data-cite-announcement]")).toHaveTextContent(
      "Quote added to the composer.",
    );
    // Outside the surface the shortcut is left alone.
    const outside = textOf("Outside text.");
    window.getSelection()!.setBaseAndExtent(outside, 0, outside, 7);
    expect(fireEvent.keyDown(document.body, { key: "Q", altKey: true, shiftKey: true })).toBe(true);
    expect(onCite).toHaveBeenCalledTimes(1);
  });

  it("opens for a keyboard or scripted selection once it settles; Tab and Alt+F10 focus it", () => {
    render(<Harness onCite={() => {}} />);
    const alpha = textOf("Alpha beta gamma.");
    select(alpha, 0, alpha, 5);
    expect(screen.queryByRole("toolbar")).toBeNull();
    act(() => vi.advanceTimersByTime(SELECTION_SETTLE_MS));
    const button = screen.getByRole("button", { name: "Cite in composer" });
    expect(button).not.toHaveFocus();
    fireEvent.keyDown(document.body, { key: "Tab" });
    expect(button).toHaveFocus();
    // Escape closes it and gives focus back to the page, the selection untouched.
    fireEvent.keyDown(button, { key: "Escape" });
    expect(screen.queryByRole("toolbar")).toBeNull();
    expect(document.activeElement).toBe(document.body);
    expect(window.getSelection()!.toString()).toBe("Alpha");

    select(alpha, 0, alpha, 10);
    act(() => vi.advanceTimersByTime(SELECTION_SETTLE_MS));
    fireEvent.keyDown(document.body, { key: "F10", altKey: true });
    expect(screen.getByRole("button", { name: "Cite in composer" })).toHaveFocus();
  });

  it("opens again from Alt+F10 or Tab after Escape, while the text is still selected", () => {
    render(<Harness onCite={() => {}} />);
    const alpha = textOf("Alpha beta gamma.");
    select(alpha, 0, alpha, 5);
    act(() => vi.advanceTimersByTime(SELECTION_SETTLE_MS));
    fireEvent.keyDown(document.body, { key: "F10", altKey: true });
    fireEvent.keyDown(screen.getByRole("button", { name: "Cite in composer" }), { key: "Escape" });
    expect(screen.queryByRole("toolbar")).toBeNull();
    expect(window.getSelection()!.toString()).toBe("Alpha");

    // Issue 21: neither key reached the toolbar again.
    expect(fireEvent.keyDown(document.body, { key: "F10", altKey: true })).toBe(false);
    expect(screen.getByRole("button", { name: "Cite in composer" })).toHaveFocus();
    fireEvent.keyDown(screen.getByRole("button", { name: "Cite in composer" }), { key: "Escape" });
    expect(screen.queryByRole("toolbar")).toBeNull();
    expect(fireEvent.keyDown(document.body, { key: "Tab" })).toBe(false);
    expect(screen.getByRole("button", { name: "Cite in composer" })).toHaveFocus();
    fireEvent.keyDown(screen.getByRole("button", { name: "Cite in composer" }), { key: "Escape" });

    // Tab from a message focused by script (tabindex -1) goes to the toolbar as well.
    const message = document.querySelector<HTMLElement>('[data-message-id="m1"]')!;
    message.tabIndex = -1;
    message.focus();
    select(alpha, 0, alpha, 5);
    act(() => vi.advanceTimersByTime(SELECTION_SETTLE_MS));
    fireEvent.keyDown(message, { key: "Tab" });
    expect(screen.getByRole("button", { name: "Cite in composer" })).toHaveFocus();

    // A selection that cannot be cited leaves Tab alone.
    fireEvent.keyDown(screen.getByRole("button", { name: "Cite in composer" }), { key: "Escape" });
    const own = textOf("My own words.");
    window.getSelection()!.setBaseAndExtent(own, 0, own, 6);
    expect(fireEvent.keyDown(document.body, { key: "Tab" })).toBe(true);
    expect(screen.queryByRole("toolbar")).toBeNull();
  });

  it("says why the shortcut refuses, whatever the popover shows: across answers, over the limit", () => {
    const onCite = vi.fn();
    render(<Harness onCite={onCite} />);
    const live = () => document.querySelector("[data-cite-announcement]")!;
    const shortcut = () =>
      fireEvent.keyDown(document.body, { key: "Q", code: "KeyQ", altKey: true, shiftKey: true });
    window
      .getSelection()!
      .setBaseAndExtent(textOf("Alpha beta gamma."), 0, textOf("Delta epsilon."), 5);
    shortcut();
    expect(live()).toHaveTextContent("Select text within one answer to cite it.");

    const delta = textOf("Delta epsilon.");
    const long = "word ".repeat(ASSISTANT_CITATION_MAX_TEXT_LENGTH / 4);
    delta.data = long;
    window.getSelection()!.setBaseAndExtent(delta, 0, delta, long.length - 1);
    shortcut();
    expect(live()).toHaveTextContent(/^Quote is over the 8,000-character limit/);
    expect(onCite).not.toHaveBeenCalled();
  });

  it("shows a hint, not the toolbar, for a selection that cannot be cited", () => {
    render(<Harness onCite={() => {}} />);
    drag(textOf("Alpha beta gamma."), 6, textOf("Delta epsilon."), 5);
    expect(screen.queryByRole("toolbar")).toBeNull();
    expect(screen.getByRole("status")).toHaveTextContent(
      "Select text within one answer to cite it.",
    );
    const own = textOf("My own words.");
    drag(own, 0, own, 6);
    expect(screen.getByRole("status")).toHaveTextContent(
      "Only the assistant's answers can be cited.",
    );
    // The hint never takes focus, and goes with the selection.
    expect(document.activeElement).toBe(document.body);
    act(() => {
      window.getSelection()!.removeAllRanges();
      document.dispatchEvent(new Event("selectionchange"));
    });
    expect(screen.queryByRole("status")).toBeNull();
    // Text outside any message gets neither.
    const outside = textOf("Outside text.");
    drag(outside, 0, outside, 7);
    expect(screen.queryByRole("toolbar")).toBeNull();
    expect(screen.queryByRole("status")).toBeNull();
  });

  it("closes on Escape and when the thread changes", () => {
    const { rerender } = render(<Harness onCite={() => {}} />);
    const delta = textOf("Delta epsilon.");
    drag(delta, 0, delta, 5);
    expect(screen.getByRole("toolbar")).toBeInTheDocument();
    fireEvent.keyDown(document.body, { key: "Escape" });
    expect(screen.queryByRole("toolbar")).toBeNull();

    drag(delta, 0, delta, 5);
    expect(screen.getByRole("toolbar")).toBeInTheDocument();
    rerender(<Harness onCite={() => {}} threadId="thread-2" />);
    expect(screen.queryByRole("toolbar")).toBeNull();
  });

  it("picks up a surface that mounts after the first render", () => {
    const onCite = vi.fn();
    const { rerender } = render(<Harness onCite={onCite} loaded={false} />);
    rerender(<Harness onCite={onCite} />);
    const alpha = textOf("Alpha beta gamma.");
    drag(alpha, 0, alpha, 5);
    fireEvent.click(screen.getByRole("button", { name: "Cite in composer" }));
    expect(onCite.mock.calls[0]![0]).toMatchObject({ messageId: "m1", text: "Alpha" });
  });
});
