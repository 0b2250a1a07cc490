/**
 * The split pipeline (parseMarkdownBlock, then renderMarkdownTree) must
 * render exactly what react-markdown renders with the options ChatMarkdown used to pass it,
 * plus, in user messages, the step that makes chips of citation links Markdown does not see
 * (citationLinksInText.ts), run as a rehype plugin.
 */
import { citationLinkFixture } from "@app/citations/testing";
import {
  chipCitationLinksInText,
  markdownUrlTransform,
  rehypeAutoDirection,
  remarkPromptTokens,
} from "@app/markdown";
import fc from "fast-check";
import type { Root } from "hast";
import type { ReactElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import Markdown from "react-markdown";
import remarkGfm from "remark-gfm";
import { visit } from "unist-util-visit";
import { describe, expect, it } from "vitest";
import { chatMarkdownComponents } from "./chatMarkdownComponents.tsx";
import { type MarkdownFlavor, parseMarkdownBlock } from "./markdownParse.ts";
import { renderMarkdownTree } from "./markdownRender.ts";
import { rehypeSourceOffsets } from "./rehypeSourceOffsets.ts";

/** The user-message chip step as a plugin: raw HTML becomes text first, as react-markdown does. */
function rehypeCitationLinksInText() {
  return (tree: Root, file: { value: unknown }) => {
    visit(tree, "raw", (node, index, parent) => {
      if (parent && typeof index === "number") {
        parent.children[index] = { type: "text", value: (node as { value: string }).value };
      }
    });
    chipCitationLinksInText(tree, String(file.value));
  };
}

function reference(source: string, offset: number, flavor: MarkdownFlavor): string {
  return renderToStaticMarkup(
    Markdown({
      children: source,
      remarkPlugins: flavor === "user" ? [remarkGfm, remarkPromptTokens] : [remarkGfm],
      // The safe tree's one addition to react-markdown's output: dir="auto" on text blocks.
      rehypePlugins:
        flavor === "user"
          ? [rehypeAutoDirection, [rehypeSourceOffsets, { offset }], rehypeCitationLinksInText]
          : [rehypeAutoDirection, [rehypeSourceOffsets, { offset }]],
      components: chatMarkdownComponents,
      urlTransform: markdownUrlTransform,
      skipHtml: false,
    }) as ReactElement,
  );
}

function ours(source: string, offset: number, flavor: MarkdownFlavor): string {
  return renderToStaticMarkup(renderMarkdownTree(parseMarkdownBlock(source, offset, flavor)));
}

const CITATION = citationLinkFixture({ text: "quoted words" });

const CORPUS = [
  "",
  "Plain words.",
  "# Title\n\nSome **bold**, _em_, ~~gone~~ and `code`.",
  "- one\n- two\n  - nested\n\n1. first\n2. second",
  "```ts\nconst x = 1 < 2 && 3 > 2;\n```",
  "| a | b |\n| --- | ---: |\n| 1 | 2 |",
  "> quote\n> more",
  "<script>alert(1)</script> and <b>bold</b> and <!-- comment -->",
  "[safe](https://example.com) [js](javascript:alert(1)) [mail](mailto:a@b.c) [rel](/x)",
  "![img](https://example.com/a.png) ![bad](javascript:x) ![none]()",
  "www.example.com and https://auto.link/path?q=1",
  `See ${CITATION} here`,
  "Read @src/app.ts and $skill-name, but not `@code` or [@link](https://x.y)",
  "Footnote[^1]\n\n[^1]: The note.",
  "[ref]\n\n[ref]: https://example.com",
  "- [ ] task\n- [x] done",
  "Line one\nline two  \nline three\\\nfour",
  "&amp; &copy; &#x27; &notanentity;",
  "***\n\n---\n\nSetext\n===",
  "Emoji 🙂 and CJK 数据 and combining é",
];

describe("parseMarkdownBlock + renderMarkdownTree", () => {
  it.each(CORPUS.flatMap((text) => [[text, "assistant"] as const, [text, "user"] as const]))(
    "matches react-markdown for %j (%s)",
    (text, flavor) => {
      expect(ours(text, 7, flavor)).toBe(reference(text, 7, flavor));
    },
  );

  it("matches react-markdown on arbitrary Markdown-like text", () => {
    const piece = fc.constantFrom(
      "a",
      "word ",
      " ",
      "\n",
      "\n\n",
      "*",
      "_",
      "~",
      "`",
      "```",
      "#",
      "> ",
      "- ",
      "1. ",
      "|",
      "---",
      "[",
      "]",
      "(",
      ")",
      "!",
      "<",
      ">",
      "&",
      "\\",
      "https://x.y",
      "javascript:",
      "@a/b.ts",
      "$skill",
      "<b>",
      "</b>",
      "🙂",
      CITATION,
    );
    fc.assert(
      fc.property(
        fc.array(piece, { maxLength: 40 }).map((parts) => parts.join("")),
        fc.constantFrom<MarkdownFlavor>("assistant", "user"),
        fc.nat({ max: 10_000 }),
        (text, flavor, offset) => {
          expect(ours(text, offset, flavor)).toBe(reference(text, offset, flavor));
        },
      ),
      { numRuns: 300 },
    );
  });
});
