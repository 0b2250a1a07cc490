import { describe, expect, it } from "vitest";
import { composeMessageCopy, composeSelectionMarkdown } from "./composeMarkdownCopy.ts";

const source = "Intro **bold**.\n\n- one\n- two\n\n```js\nx()\n```";
// Offsets: paragraph 0-15, list 17-28 (items 17-22, 23-28), code 30-43.

describe("composeSelectionMarkdown", () => {
  it("returns null when only text runs are selected, so the browser keeps plain text", () => {
    expect(
      composeSelectionMarkdown([
        { source, pieces: [{ kind: "text", text: "bold", start: 0, end: 15 }] },
      ]),
    ).toBeNull();
    expect(composeSelectionMarkdown([])).toBeNull();
  });

  it("copies whole blocks as their source, joined by the source's own separators", () => {
    const md = composeSelectionMarkdown([
      {
        source,
        pieces: [
          { kind: "source", start: 0, end: 15 },
          { kind: "source", start: 17, end: 28 },
          { kind: "source", start: 30, end: 43 },
        ],
      },
    ]);
    expect(md).toBe(source);
  });

  it("keeps list markers for whole list items", () => {
    const md = composeMessageCopy({
      source,
      pieces: [
        { kind: "source", start: 17, end: 22 },
        { kind: "source", start: 23, end: 28 },
      ],
    });
    expect(md).toBe("- one\n- two");
  });

  it("mixes a partially selected block's text with following whole blocks", () => {
    const md = composeSelectionMarkdown([
      {
        source,
        pieces: [
          { kind: "text", text: "bold.", start: 0, end: 15 },
          { kind: "source", start: 17, end: 28 },
        ],
      },
    ]);
    expect(md).toBe("bold.\n\n- one\n- two");
  });

  it("joins text runs from one block without a separator and nested blocks with a newline", () => {
    expect(
      composeMessageCopy({
        source: "- parent\n  - child",
        pieces: [
          { kind: "text", text: "parent", start: 0, end: 18 },
          { kind: "source", start: 11, end: 18 },
        ],
      }),
    ).toBe("parent\n- child");
  });

  it("falls back to a blank line when the source gap is not whitespace", () => {
    expect(
      composeMessageCopy({
        source: "> a\n>\n> b",
        pieces: [
          { kind: "source", start: 2, end: 3 },
          { kind: "source", start: 8, end: 9 },
        ],
      }),
    ).toBe("a\n\nb");
  });

  it("joins several messages with a blank line", () => {
    expect(
      composeSelectionMarkdown([
        { source: "# A", pieces: [{ kind: "source", start: 0, end: 3 }] },
        { source: "b *c*", pieces: [{ kind: "text", text: "b c", start: 0, end: 5 }] },
      ]),
    ).toBe("# A\n\nb c");
  });
});
