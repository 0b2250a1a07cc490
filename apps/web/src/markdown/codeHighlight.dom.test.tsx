import { createAssistantCitationSelector, normalizeRenderedText } from "@app/citations";
import { act, render } from "@testing-library/react";
import fc from "fast-check";
import type { ElementContent } from "hast";
import { beforeAll, describe, expect, it } from "vitest";
import { resolveAssistantCitationRange } from "../citations/navigation/resolveAssistantCitationRange.ts";
import { buildRenderedTextStream } from "../renderedText/renderedTextStream.ts";
import { ChatMarkdown } from "./ChatMarkdown.tsx";
import {
  HIGHLIGHT_LANGUAGES,
  highlightCode,
  highlightLanguageOf,
  isHighlightLanguageReady,
  loadHighlightLanguage,
  MAX_HIGHLIGHT_CHARS,
} from "./codeHighlight.ts";

function textOf(nodes: readonly ElementContent[]): string {
  return nodes
    .map((node) =>
      node.type === "text" ? node.value : node.type === "element" ? textOf(node.children) : "",
    )
    .join("");
}

const SAMPLES: Record<string, string> = {
  typescript:
    // biome-ignore lint/suspicious/noTemplateCurlyInString: TypeScript source that holds a template literal.
    "function add(a: number, b: number): number {\n  return a + b; // sum\n}\nconst s = `x ${add(1, 2)}`;\n",
  python: "def total(values):\n    return sum(v for v in values if v > 0)  # <&>\n",
  bash: 'git switch -c demo-branch\ngit commit -m "Try the demo provider"\n',
  xml: '<a href="x">&amp; <b>bold</b></a>\n',
};

describe("highlightLanguageOf", () => {
  it("maps fence names and aliases to the grammar, case-insensitively", () => {
    expect(highlightLanguageOf("ts")).toBe("typescript");
    expect(highlightLanguageOf("TSX")).toBe("typescript");
    expect(highlightLanguageOf("py")).toBe("python");
    expect(highlightLanguageOf("sh")).toBe("bash");
    expect(highlightLanguageOf("html")).toBe("xml");
    expect(highlightLanguageOf("rust")).toBe("rust");
  });

  it("leaves unknown or missing languages plain (no auto-detection)", () => {
    expect(highlightLanguageOf("text")).toBeNull();
    expect(highlightLanguageOf("brainfuck")).toBeNull();
    expect(highlightLanguageOf("constructor")).toBeNull();
    expect(highlightLanguageOf("")).toBeNull();
    expect(highlightLanguageOf(null)).toBeNull();
  });
});

describe("highlightCode", () => {
  beforeAll(async () => {
    await Promise.all(HIGHLIGHT_LANGUAGES.map((language) => loadHighlightLanguage(language)));
  });

  it("is null until a grammar is loaded, and for code too long to highlight", () => {
    expect(highlightCode("cobol", "MOVE 1 TO X.")).toBeNull();
    expect(highlightCode("typescript", "x".repeat(MAX_HIGHLIGHT_CHARS + 1))).toBeNull();
  });

  it("wraps tokens in hljs spans and keeps the text byte for byte", () => {
    for (const [language, code] of Object.entries(SAMPLES)) {
      const children = highlightCode(language, code);
      expect(children, language).not.toBeNull();
      expect(textOf(children!)).toBe(code);
      expect(JSON.stringify(children)).toContain("hljs-");
    }
  });

  it("keeps any text byte for byte in every grammar we ship (property)", () => {
    const codeLike = fc.string({
      unit: fc.constantFrom(
        ..."abcxyz019 \t\n\r{}()[]<>&;:'\"`$#@/\\*-+=.,!?|%^~_".split(""),
        "é",
        "😀",
        "\u00a0",
        "if",
        "return",
        "def",
        "//",
        "/*",
        "*/",
        "<!--",
        '"""',
      ),
      maxLength: 120,
    });
    fc.assert(
      fc.property(fc.constantFrom(...HIGHLIGHT_LANGUAGES), codeLike, (language, code) => {
        expect(isHighlightLanguageReady(language)).toBe(true);
        const children = highlightCode(language, code);
        // null: left plain, because the grammar would have changed the text.
        if (children !== null) expect(textOf(children)).toBe(code);
      }),
      { numRuns: 400 },
    );
  });

  it("leaves code plain when a grammar would change its text (scss adds a line feed after '[')", () => {
    expect(highlightCode("scss", "a[")).toBeNull();
    expect(textOf(highlightCode("scss", "a[b] { color: red; }")!)).toBe("a[b] { color: red; }");
  });
});

describe("CodeBlock highlighting in a message", () => {
  const markdown = [
    "Before the code.",
    "",
    "```ts",
    "function add(a: number, b: number): number {",
    "  return a + b;",
    "}",
    "```",
    "",
    "After the code.",
  ].join("\n");

  it("highlights once the grammar is loaded, with the same rendered text, and a quote in the code still resolves", async () => {
    await loadHighlightLanguage("typescript");
    const { container } = render(
      <div data-assistant-citation-source="m1">
        <ChatMarkdown text={markdown} />
      </div>,
    );
    const body = container.querySelector("[data-assistant-citation-source]")!;
    const code = body.querySelector("pre code")!;
    expect(code.hasAttribute("data-highlighted")).toBe(true);
    expect(code.querySelector(".hljs-keyword")?.textContent).toBe("function");
    expect(code.textContent).toBe(
      "function add(a: number, b: number): number {\n  return a + b;\n}\n",
    );

    // The same Markdown without a grammar (plain code) gives the same rendered-text stream.
    const plain = render(
      <div data-assistant-citation-source="m2">
        <ChatMarkdown text={markdown.replace("```ts", "```text")} />
      </div>,
    ).container.querySelector("[data-assistant-citation-source]")!;
    expect(plain.querySelector("pre code span")).toBeNull();
    expect(buildRenderedTextStream(body).text).toBe(buildRenderedTextStream(plain).text);

    // A quote spanning highlighted tokens and a line break resolves to exactly that text.
    const stream = buildRenderedTextStream(body).text;
    const quote = "number {\n  return a";
    const start = stream.indexOf(quote);
    const selector = createAssistantCitationSelector(stream, start, start + quote.length)!;
    const resolved = resolveAssistantCitationRange(body, selector);
    expect(resolved.status).toBe("found");
    if (resolved.status === "found") {
      expect(normalizeRenderedText(resolved.range.toString())).toBe(normalizeRenderedText(quote));
      expect(resolved.range.toString()).toBe(quote);
    }
  });

  it("shows plain code first and highlights it in place when the grammar arrives", async () => {
    const { container } = render(
      <div data-assistant-citation-source="m3">
        <ChatMarkdown text={"```rust\nfn main() { let x = 1; }\n```"} />
      </div>,
    );
    const before = container.querySelector("pre code")!;
    if (!isHighlightLanguageReady("rust")) {
      expect(before.querySelector("span")).toBeNull();
      await act(() => loadHighlightLanguage("rust"));
    }
    const after = container.querySelector("pre code")!;
    expect(after).toBe(before); // updated in place, not remounted
    expect(after.querySelector(".hljs-keyword")?.textContent).toBe("fn");
    expect(after.textContent).toBe("fn main() { let x = 1; }\n");
  });
});
