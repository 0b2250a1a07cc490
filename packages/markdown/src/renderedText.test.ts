/**
 * The rendered text of Markdown, pinned on the cases find-in-thread depends on. (Parity with the
 * browser's stream over the real components is apps/web/src/markdown/renderedTextParity.dom.test.tsx.)
 */
import { serializeAssistantCitation } from "@app/citations";
import { citationFixture } from "@app/citations/testing";
import { describe, expect, it } from "vitest";
import { renderedTextOfMarkdown, renderedTextSteps } from "./renderedText.ts";

describe("renderedTextOfMarkdown", () => {
  it("shows emphasis, code and links as their text, blocks on lines of their own", () => {
    expect(
      renderedTextOfMarkdown(
        "# Title\n\nSome **bold** and `useThread`, [a link](https://x.y).\n\n- one\n- two",
        "assistant",
      ),
    ).toBe("Title\nSome bold and useThread, a link.\none\ntwo");
  });

  it("keeps code blocks as written (without the header) and separates table cells by tabs", () => {
    expect(renderedTextOfMarkdown("```ts\nconst p50 =  1;\n  next();\n```", "assistant")).toBe(
      "const p50 =  1;\n  next();\n",
    );
    expect(renderedTextOfMarkdown("| a | b |\n|---|---|\n| 1 | **2** |", "assistant")).toBe(
      "a\tb\n1\t2",
    );
  });

  it("collapses whitespace outside code; user paragraphs keep their line feeds", () => {
    expect(renderedTextOfMarkdown("one   two\nthree", "assistant")).toBe("one two three");
    expect(renderedTextOfMarkdown("one   two\nthree", "user")).toBe("one two\nthree");
  });

  it("shows raw HTML as text, images as their label, and unsafe links as their label", () => {
    expect(renderedTextOfMarkdown("<b>x</b> ![a cat](https://x.y/c.png)", "assistant")).toBe(
      "<b>x</b> Image: a cat",
    );
    expect(renderedTextOfMarkdown("[click](javascript:alert(1))", "assistant")).toBe("click");
  });

  it("shows a user message's citation as its chip label on a line of its own", () => {
    const link = serializeAssistantCitation(citationFixture({ text: "the  quoted words" }));
    expect(renderedTextOfMarkdown(`See ${link} here`, "user")).toBe("See\nthe quoted words\nhere");
    // Model output never shows a chip: the link stays its Markdown source.
    expect(renderedTextOfMarkdown(`See ${link} here`, "assistant")).toBe(`See ${link} here`);
  });

  it("reads nested blockquotes and lists", () => {
    expect(renderedTextOfMarkdown(`${">".repeat(500)} deep`, "assistant")).toBe("deep");
    expect(renderedTextOfMarkdown("- a\n  - b\n    - c", "assistant")).toBe("a\nb\nc");
  });
});

describe("renderedTextSteps", () => {
  it("pauses once per top-level block and returns the same text", () => {
    const markdown =
      "# Title\n\nSome **bold** text.\n\n| a | b |\n| - | - |\n| 1 | 2 |\n\n```ts\nconst x = 1;\n```\n";
    const steps = renderedTextSteps(markdown, "assistant");
    let pauses = 0;
    let step = steps.next();
    while (!step.done) {
      pauses++;
      step = steps.next();
    }
    expect(pauses).toBe(4);
    expect(step.value).toBe(renderedTextOfMarkdown(markdown, "assistant"));
  });
});
