import type { CitedRange } from "@app/protocol";
import { render } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { ChatMarkdown } from "../../markdown/ChatMarkdown.tsx";
import { resolveCitedRanges } from "./citedMarks.ts";

/** A rendered answer body, as the timeline renders it. */
function body(text: string): Element {
  const { container } = render(
    <div className="message__body" data-assistant-citation-source="m1">
      <ChatMarkdown text={text} streaming={false} flavor="assistant" />
    </div>,
  );
  return container.querySelector("[data-assistant-citation-source]")!;
}

const range = (text: string, start: number, prefix = "", suffix = ""): CitedRange => ({
  text,
  start,
  end: start + text.length,
  prefix,
  suffix,
});

describe("resolveCitedRanges", () => {
  it("marks each cited range on the very words it quotes", () => {
    const root = body("Answer one looks at **SQLite indexes** from a practical angle.");
    const ranges = resolveCitedRanges(root, [
      range("SQLite indexes", 20, "Answer one looks at ", " from a practical angle."),
      range("practical angle", 42, "SQLite indexes from a ", "."),
    ]);
    expect(ranges.map((r) => r.toString())).toEqual(["SQLite indexes", "practical angle"]);
  });

  it("skips ranges whose text changed, and ambiguous ones it cannot place, keeping the rest", () => {
    const root = body("Keep the hot path small. Keep the hot path small. Measure p50 first.");
    const ranges = resolveCitedRanges(root, [
      // No longer in the text.
      range("keep an index", 0, "", " for every query"),
      // Twice in the text, and the context no longer tells which one.
      range("Keep the hot path small.", 100, "changed context ", " other context"),
      // Still there, once.
      range("Measure p50 first.", 50, "hot path small. ", ""),
    ]);
    expect(ranges.map((r) => r.toString())).toEqual(["Measure p50 first."]);
  });
});
