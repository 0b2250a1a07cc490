import { cleanup, render } from "@testing-library/react";
import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import { ChatMarkdown } from "./ChatMarkdown.tsx";
import { streamingRenderableText } from "./streamingTableHold.ts";

const TABLE = "Costs:\n\n| Step | Cost |\n| --- | ---: |\n| parse | 3 ms |\n| store | 1 ms |\n";

afterEach(cleanup);

describe("streamingRenderableText", () => {
  it.each([
    ["a header arriving", "Costs:\n\n| Step | Co", "Costs:\n\n"],
    ["a header with nothing after it", "Costs:\n\n| Step | Cost |\n", "Costs:\n\n"],
    ["a delimiter row begun", "Costs:\n\n| Step | Cost |\n|", "Costs:\n\n"],
    ["a delimiter row short of cells", "Costs:\n\n| Step | Cost |\n| --- |", "Costs:\n\n"],
    ["a header at the very start", "| Step", ""],
    ["an indented header", "Text\n\n   | a | b |\n| -", "Text\n\n"],
  ])("holds back %s", (_, text, shown) => {
    expect(streamingRenderableText(text)).toBe(shown);
  });

  it.each([
    ["a complete delimiter row", "Costs:\n\n| Step | Cost |\n| --- | -"],
    ["a delimiter row with alignment", "| Step | Cost |\n| :-- | --: |"],
    ["a body row arriving", "| Step | Cost |\n| --- | --- |\n| par"],
    ["a body row arrived", "| Step | Cost |\n| --- | --- |\n| parse | 3 |\n"],
    ["a pipe line that is not a table", "| not a table\nbecause this follows"],
    ["a pipe inside a line", "a | b"],
    ["text after a blank line", "| a |\n\n"],
    ["ordinary text", "Hello **world**"],
    ["nothing", ""],
  ])("renders %s as it is", (_, text) => {
    expect(streamingRenderableText(text)).toBe(text);
  });

  it("holds back only a prefix that ends at a line start", () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom("|", "-", ":", " ", "\n", "a", "\\"), maxLength: 40 }),
        (text) => {
          const shown = streamingRenderableText(text);
          expect(text.startsWith(shown)).toBe(true);
          if (shown !== text) expect(shown === "" || shown.endsWith("\n")).toBe(true);
        },
      ),
    );
  });
});

describe("ChatMarkdown while streaming a table", () => {
  const textOf = (text: string, streaming: boolean) => {
    const root = render(<ChatMarkdown text={text} streaming={streaming} />).container;
    const html = root.innerHTML;
    cleanup();
    return html;
  };

  it("never shows a table's pipes as text, at any point of the stream", () => {
    for (let end = 0; end <= TABLE.length; end++) {
      const html = textOf(TABLE.slice(0, end), true);
      expect(html, `after ${end} characters`).not.toMatch(/<p[^>]*>\|/);
      expect(html).not.toContain("| Step");
    }
  });

  it("never shows the pipes of any table as text while it streams (property)", () => {
    const cell = fc.stringMatching(/^[a-z0-9 ]{1,6}$/);
    fc.assert(
      fc.property(
        fc
          .integer({ min: 1, max: 4 })
          .chain((n) =>
            fc.tuple(
              fc.array(cell, { minLength: n, maxLength: n }),
              fc.array(fc.constantFrom("---", ":--", "--:", ":-:"), { minLength: n, maxLength: n }),
              fc.array(fc.array(cell, { minLength: n, maxLength: n }), { maxLength: 2 }),
            ),
          ),
        ([header, align, body]) => {
          const row = (cells: string[]) => `| ${cells.join(" | ")} |\n`;
          const table = `Intro.\n\n${row(header)}${row(align)}${body.map(row).join("")}`;
          for (let end = 0; end <= table.length; end++) {
            const html = textOf(table.slice(0, end), true);
            expect(html, JSON.stringify(table.slice(0, end))).not.toMatch(/<p[^>]*>\|/);
          }
        },
      ),
      { numRuns: 6 },
    );
    // Every prefix renders through React: slow on a loaded CI machine.
  }, 30_000);

  it("shows the table once its delimiter row is complete, and every row as it arrives", () => {
    const header = TABLE.indexOf("| --- |");
    expect(textOf(TABLE.slice(0, header + "| --- |".length), true)).not.toContain("<table");
    const withDelimiter = textOf(TABLE.slice(0, header + "| --- | ---".length), true);
    expect(withDelimiter).toContain("<th");
    const halfRow = textOf(TABLE.slice(0, TABLE.indexOf("| store") + 4), true);
    expect(halfRow).toContain('<td dir="auto">st</td>');
  });

  it("shows held lines as they are when the reply ends there", () => {
    const text = "Costs:\n\n| not | a table";
    expect(textOf(text, true)).not.toContain("not");
    expect(textOf(text, false)).toContain("| not | a table");
  });
});
