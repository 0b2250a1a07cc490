/** The comment editor beside the cited source text: placement, highlight, fallbacks. */
import { act, fireEvent, screen, waitFor } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { ASSISTANT_CITATION_EDITING_HIGHLIGHT } from "./citationEditingHighlight.ts";
import { quote, quoteLink, setUpComposerTests } from "./composerTestSetup.ts";
import { commentBox, readPrompt, renderComposer, setPrompt } from "./renderComposer.tsx";

setUpComposerTests({ rangeRects: true });

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
    const { editor, handle } = renderComposer();
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
    expect(readPrompt(editor)).toBe(`${quoteLink} `);
    element.remove();
  });

  it("falls back to the chip and paints nothing when the range's nodes are detached", () => {
    const registry = stubHighlights();
    const { range, element } = sourceText();
    // The row re-rendered: its text was replaced.
    element.textContent = "re-rendered";
    const { editor, handle } = renderComposer();
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
    const { editor, handle } = renderComposer();
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
    const { editor, handle } = renderComposer();
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
    const { editor, handle } = renderComposer();
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
    const { editor, handle } = renderComposer();
    setPrompt(editor, "");
    act(() => handle.current?.insertCitation(quote, { sourceRange: range }));
    expect(commentBox()).not.toBeNull();
    element.remove();
  });
});
