import { ASSISTANT_CITATION_MAX_TEXT_LENGTH, type AssistantCitation } from "@app/citations";
import { act, fireEvent, render, screen } from "@testing-library/react";
import { useRef } from "react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  AssistantSelectionToolbar,
  type AssistantSelectionToolbarState,
} from "./AssistantSelectionToolbar.tsx";
import type { AssistantTextSelectionCapture } from "./assistantTextSelection.ts";
import { placeSelectionToolbar } from "./selectionToolbarPlacement.ts";
import { useAssistantSelectionToolbar } from "./useAssistantSelectionToolbar.tsx";

function citation(text: string): AssistantCitation {
  return {
    version: 1,
    environmentId: "env",
    threadId: "thread",
    messageId: "m1",
    text,
    start: 0,
    end: text.length,
    prefix: "",
    suffix: "",
  };
}

function stateFor(text: string, anchor = { x: 300, y: 200 }): AssistantSelectionToolbarState {
  const capture: AssistantTextSelectionCapture = {
    citation: citation(text),
    range: document.createRange(),
    source: document.body,
    overLimit: text.length > ASSISTANT_CITATION_MAX_TEXT_LENGTH,
  };
  return { anchor, capture };
}

afterEach(() => {
  window.getSelection()?.removeAllRanges();
});

describe("AssistantSelectionToolbar", () => {
  it("offers Cite in composer at the anchor and cites the captured quote", () => {
    const onCite = vi.fn();
    const state = stateFor("quoted words");
    const { container } = render(<AssistantSelectionToolbar state={state} onCite={onCite} />);
    const toolbar = screen.getByRole("toolbar");
    // Portalled out of the render container, into <body>.
    expect(container.contains(toolbar)).toBe(false);
    expect(toolbar.parentElement).toBe(document.body);
    expect(toolbar.style.left).toBe("300px");
    expect(toolbar.style.top).toBe("208px");
    const button = screen.getByRole("button", { name: "Cite in composer" });
    expect(button).toBeEnabled();
    expect(button).not.toHaveAccessibleDescription();
    fireEvent.click(button);
    expect(onCite).toHaveBeenCalledWith(state.capture.citation, state.capture);
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
    expect(screen.getByText(/over the 8,000-character limit/)).toBeVisible();
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

  it("stays inside the viewport", () => {
    const measured = vi
      .spyOn(HTMLElement.prototype, "getBoundingClientRect")
      .mockReturnValue(new DOMRect(0, 0, 180, 40));
    try {
      render(
        <AssistantSelectionToolbar
          state={stateFor("q", { x: window.innerWidth - 5, y: window.innerHeight - 5 })}
          onCite={() => {}}
        />,
      );
      const toolbar = screen.getByRole("toolbar");
      expect(toolbar.style.left).toBe(`${window.innerWidth - 180 - 8}px`);
      // No room below: flipped above the line the pointer is on.
      expect(toolbar.style.top).toBe(`${window.innerHeight - 5 - 20 - 8 - 40}px`);
    } finally {
      measured.mockRestore();
    }
  });
});

describe("placeSelectionToolbar", () => {
  const viewport = { width: 800, height: 600 };
  const size = { width: 160, height: 40 };

  it("centres below the anchor", () => {
    expect(placeSelectionToolbar({ x: 400, y: 100 }, size, viewport)).toEqual({ x: 320, y: 108 });
  });

  it("clamps to the left, right and top margins and flips near the bottom", () => {
    expect(placeSelectionToolbar({ x: 10, y: 100 }, size, viewport).x).toBe(8);
    expect(placeSelectionToolbar({ x: 795, y: 100 }, size, viewport).x).toBe(632);
    expect(placeSelectionToolbar({ x: 400, y: 590 }, size, viewport).y).toBe(522);
    expect(placeSelectionToolbar({ x: 400, y: -50 }, size, viewport).y).toBe(8);
  });

  it("pins an oversized toolbar to the top-left margin and survives bad numbers", () => {
    expect(placeSelectionToolbar({ x: 50, y: 50 }, { width: 900, height: 700 }, viewport)).toEqual({
      x: 8,
      y: 8,
    });
    expect(
      placeSelectionToolbar({ x: Number.NaN, y: Number.POSITIVE_INFINITY }, size, viewport),
    ).toEqual({ x: 8, y: 8 });
  });
});

/** A surface with two responses and some text outside them, plus the hook's toolbar. */
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
        <div data-assistant-citation-source="m1">
          <p>Alpha beta gamma.</p>
        </div>
        <div data-assistant-citation-source="m2">
          <p>Delta epsilon.</p>
        </div>
      </div>
      <p>Outside text.</p>
      {toolbar}
    </>
  );
}

describe("useAssistantSelectionToolbar", () => {
  const textOf = (needle: string) => screen.getByText(needle).firstChild as Text;

  function selectAndRelease(anchor: Text, a: number, focus: Text, b: number) {
    const paragraph = anchor.parentElement!;
    fireEvent.pointerDown(paragraph, { button: 0, isPrimary: true });
    window.getSelection()!.setBaseAndExtent(anchor, a, focus, b);
    fireEvent.pointerUp(paragraph, { button: 0, clientX: 50, clientY: 60 });
  }

  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("opens after the repeat-click window and cites the selected quote", () => {
    const onCite = vi.fn();
    render(<Harness onCite={onCite} />);
    const alpha = textOf("Alpha beta gamma.");
    selectAndRelease(alpha, 6, alpha, 10);
    expect(screen.queryByRole("toolbar")).toBeNull();
    act(() => vi.advanceTimersByTime(500));
    const button = screen.getByRole("button", { name: "Cite in composer" });
    // Using the toolbar neither dismisses it nor replaces the captured quote.
    fireEvent.pointerDown(button, { button: 0, isPrimary: true });
    window.getSelection()!.setBaseAndExtent(alpha, 0, alpha, 5);
    fireEvent.pointerUp(button, { button: 0 });
    act(() => vi.advanceTimersByTime(1000));
    fireEvent.click(screen.getByRole("button", { name: "Cite in composer" }));
    expect(onCite).toHaveBeenCalledTimes(1);
    expect(onCite.mock.calls[0]![0]).toMatchObject({
      environmentId: "env-1",
      threadId: "thread-1",
      messageId: "m1",
      text: "beta",
      prefix: "Alpha ",
      suffix: " gamma.",
    });
    expect(screen.queryByRole("toolbar")).toBeNull();
  });

  it("opens nothing for a selection across two responses or outside them", () => {
    render(<Harness onCite={() => {}} />);
    selectAndRelease(textOf("Alpha beta gamma."), 6, textOf("Delta epsilon."), 5);
    act(() => vi.advanceTimersByTime(500));
    expect(screen.queryByRole("toolbar")).toBeNull();
    const outside = textOf("Outside text.");
    selectAndRelease(outside, 0, outside, 7);
    act(() => vi.advanceTimersByTime(500));
    expect(screen.queryByRole("toolbar")).toBeNull();
  });

  it("closes on Escape and when the thread changes", () => {
    const { rerender } = render(<Harness onCite={() => {}} />);
    const delta = textOf("Delta epsilon.");
    selectAndRelease(delta, 0, delta, 5);
    act(() => vi.advanceTimersByTime(500));
    expect(screen.getByRole("toolbar")).toBeInTheDocument();
    fireEvent.keyDown(document.body, { key: "Escape" });
    expect(screen.queryByRole("toolbar")).toBeNull();

    selectAndRelease(delta, 0, delta, 5);
    act(() => vi.advanceTimersByTime(500));
    expect(screen.getByRole("toolbar")).toBeInTheDocument();
    rerender(<Harness onCite={() => {}} threadId="thread-2" />);
    expect(screen.queryByRole("toolbar")).toBeNull();
  });

  it("picks up a surface that mounts after the first render", () => {
    const onCite = vi.fn();
    const { rerender } = render(<Harness onCite={onCite} loaded={false} />);
    rerender(<Harness onCite={onCite} />);
    const alpha = textOf("Alpha beta gamma.");
    selectAndRelease(alpha, 0, alpha, 5);
    act(() => vi.advanceTimersByTime(500));
    fireEvent.click(screen.getByRole("button", { name: "Cite in composer" }));
    expect(onCite.mock.calls[0]![0]).toMatchObject({ messageId: "m1", text: "Alpha" });
  });
});
