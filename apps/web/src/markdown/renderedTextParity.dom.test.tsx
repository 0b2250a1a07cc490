/**
 * The server's rendered text of a message (`renderedTextOfMarkdown` of `@app/markdown`, computed
 * from the Markdown alone) must equal what the web's rendered-text stream reads from the message
 * body the web renders: find-in-thread offsets from the server are used on the live DOM.
 *
 * The body is rendered by the real components (ChatMarkdown with its code blocks, links, chips)
 * inside the message row's classes, in a document holding the app's stylesheet, so computed
 * styles (`white-space: pre-line` of user paragraphs) apply as in the browser. One browser rule
 * jsdom does not apply itself is added: the children of a flex container (the `inline-flex`
 * citation chip) compute `display: block` (CSS Display 3, "blockification"; Chromium reports
 * `block` for the chip's label).
 */
import { readFileSync } from "node:fs";
import { serializeAssistantCitation } from "@app/citations";
import { citationFixture } from "@app/citations/testing";
import { type MarkdownFlavor, renderedTextOfMarkdown } from "@app/markdown";
import { render } from "@testing-library/react";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildRenderedTextStream } from "../renderedText/renderedTextStream.ts";
import { ChatMarkdown } from "./ChatMarkdown.tsx";

// Read from disk: Vitest hands CSS modules (`?raw` included) to jsdom tests as empty strings.
// The app-wide style files, in main.tsx's order (the cascade).
const appStyles = [
  ...readFileSync(`${import.meta.dirname}/../main.tsx`, "utf8").matchAll(
    /^import "\.\/(.+\.css)";$/gm,
  ),
]
  .map((match) => readFileSync(`${import.meta.dirname}/../${match[1]}`, "utf8"))
  .join("\n");
const FLEX_ITEMS_BLOCKIFIED = ".citation-chip > * { display: block; }";

let style: HTMLStyleElement;
beforeAll(() => {
  style = document.createElement("style");
  style.textContent = `${appStyles}\n${FLEX_ITEMS_BLOCKIFIED}`;
  document.head.append(style);
});
afterAll(() => style.remove());

/**
 * The stream text of a message body showing `text`, as the browser reads it; `folded` as a long
 * message shows before "Show more" (clipped by CSS only: its whole text is in the stream).
 */
function domText(text: string, flavor: MarkdownFlavor, folded = false): string {
  const { container, unmount } = render(
    <article className={`message message--${flavor}`}>
      <div
        className="message__body"
        {...(flavor === "assistant" ? { "data-assistant-citation-source": "m1" } : {})}
      >
        <ChatMarkdown
          text={text}
          flavor={flavor}
          {...(folded ? { className: "chat-markdown--folded" } : {})}
        />
      </div>
    </article>,
  );
  const body = container.querySelector(".message__body")!;
  const streamText = buildRenderedTextStream(body).text;
  unmount();
  return streamText;
}

const CHIP = serializeAssistantCitation(citationFixture({ text: "the quoted   words" }));
const CHIP_WITH_COMMENT = serializeAssistantCitation(
  citationFixture({ text: "a quote", comment: "  why it matters " }),
);

const CORPUS = [
  "",
  "Plain words.",
  "# Title\n\nSome **bold**, _em_, ~~gone~~ and `code`.",
  "- one\n- two\n  - nested\n\n1. first\n2. second",
  "- loose\n\n- list\n\n  second paragraph",
  "```ts\nconst p50 = 1 < 2 && 3 > 2;\n\n  indented();\n```\n\nAfter.",
  "```\n```",
  "    indented code\n    block",
  "| a | b |\n| --- | ---: |\n| 1 | 2 |\n| | x |\n| `useThread` | **bold** cell |",
  "> quote\n> more\n>> nested",
  "<script>alert(1)</script> and <b>bold</b> and <!-- comment -->",
  "<div>\nblock html\n\n  spaced  </div>",
  "[safe](https://example.com) [js](javascript:alert(1)) [mail](mailto:a@b.c) [rel](/x)",
  "![img](https://example.com/a.png) ![bad](javascript:x) ![none]() ![  spaced  alt  ](https://x.y/i.png)",
  "www.example.com and https://auto.link/path?q=1",
  `See ${CHIP} here and ${CHIP_WITH_COMMENT}.`,
  `In code: \`${CHIP}\`\n\n\`\`\`\n${CHIP}\n\`\`\``,
  `![Assistant quote](${CHIP.slice(CHIP.indexOf("(") + 1, -1)}) and \\${CHIP} and <b>${CHIP}</b>`,
  `[\\[Assistant quote](${CHIP.slice(CHIP.indexOf("(") + 1, -1)})`,
  "[Assistant quote](t3-citation://v1/broken)",
  "Read @src/app.ts and $skill-name, but not `@code` or [@link](https://x.y)",
  "Footnote[^1]\n\n[^1]: The note.",
  "[ref]\n\n[ref]: https://example.com",
  "- [ ] task\n- [x] done",
  "Line one\nline two  \nline three\\\nfour\n   five   \n\tsix",
  "&amp; &copy; &#x27; &notanentity; &nbsp;x",
  "***\n\n---\n\nSetext\n===",
  "Emoji 🙂 and CJK 数据 and combining e\u0301 and tabs\tand\u00a0nbsp",
  "para one\n\n\n\npara two\n\n- item\n\n```\ncode\n```\n\n# head",
  `${"Long line of a folded message.\n".repeat(40)}\nend`,
];

describe("renderedTextOfMarkdown equals the browser's rendered-text stream", () => {
  it.each(CORPUS.flatMap((text) => [[text, "assistant"] as const, [text, "user"] as const]))(
    "%j (%s)",
    (text, flavor) => {
      expect(renderedTextOfMarkdown(text, flavor)).toBe(domText(text, flavor));
    },
  );

  it("of a folded long message (clipped, not cut)", () => {
    const text = `${"A line of a long message.\n\n".repeat(40)}the end`;
    for (const flavor of ["assistant", "user"] as const) {
      expect(renderedTextOfMarkdown(text, flavor)).toBe(domText(text, flavor, true));
    }
  });

  // 200 renders through React and jsdom: under 1 s alone, 6 s and more on a loaded machine
  // (CI runs the suites in parallel), past the 5 s default; the runs stay, the timeout grows.
  it("on generated Markdown-like text", { timeout: 60_000 }, () => {
    const piece = fc.constantFrom(
      "a",
      "word ",
      " ",
      "  ",
      "\t",
      "\n",
      "\n\n",
      "*",
      "**",
      "_",
      "~",
      "`",
      "```",
      "    ",
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
      "[^1]",
      "🙂",
      CHIP,
    );
    fc.assert(
      fc.property(
        fc.array(piece, { maxLength: 40 }).map((parts) => parts.join("")),
        fc.constantFrom<MarkdownFlavor>("assistant", "user"),
        (text, flavor) => {
          expect(renderedTextOfMarkdown(text, flavor)).toBe(domText(text, flavor));
        },
      ),
      { numRuns: 200 },
    );
  });
});
