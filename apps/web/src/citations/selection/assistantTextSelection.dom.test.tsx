import {
  ASSISTANT_CITATION_MAX_TEXT_LENGTH,
  type AssistantCitation,
  collectAssistantCitations,
  isAssistantCitation,
  normalizeRenderedText,
  serializeAssistantCitation,
} from "@app/citations";
import { render } from "@testing-library/react";
import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import { ChatMarkdown } from "../../markdown/ChatMarkdown.tsx";
import { buildRenderedTextStream } from "../../renderedText/renderedTextStream.ts";
import { resolveAssistantCitationRange } from "../navigation/resolveAssistantCitationRange.ts";
import {
  type AssistantTextSelectionCapture,
  type AssistantTextSelectionResult,
  captureAssistantTextSelection,
} from "./assistantTextSelection.ts";
import { narrowRangeToSelectedText } from "./narrowRangeToSelectedText.ts";

const ids = { environmentId: "env-1", threadId: "thread-1" };

/** A timeline fragment shaped like the app's: message rows with bodies and action bars. */
function mountTimeline(messages: { id: string; role: "assistant" | "user"; html: string }[]) {
  document.body.innerHTML = `<div data-timeline>${messages
    .map(
      (m) =>
        `<article data-message-id="${m.id}" data-role="${m.role}"><div class="message__body"${
          m.role === "assistant" ? ` data-assistant-citation-source="${m.id}"` : ""
        }><div class="chat-markdown">${m.html}</div></div>` +
        `<div class="message__actions" data-text-stream="skip"><button type="button">Copy message</button></div></article>`,
    )
    .join("")}</div>`;
  return (id: string) => document.querySelector(`[data-message-id="${id}"] .message__body`)!;
}

/** The `index`-th text node under `root` whose data includes `needle`. */
function textNode(root: ParentNode, needle: string, index = 0): Text {
  const walker = document.createTreeWalker(root as Node, NodeFilter.SHOW_TEXT);
  const found: Text[] = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if ((node as Text).data.includes(needle)) found.push(node as Text);
  }
  const node = found[index];
  if (!node) throw new Error(`no text node with ${JSON.stringify(needle)}`);
  return node;
}

/** Selects like a user would: from (anchor) to (focus), which may be backward. */
function select(anchor: Node, anchorOffset: number, focus: Node, focusOffset: number): Selection {
  const selection = window.getSelection()!;
  selection.setBaseAndExtent(anchor, anchorOffset, focus, focusOffset);
  return selection;
}

function captured(result: AssistantTextSelectionResult): AssistantTextSelectionCapture {
  if (result.citation === null) throw new Error(`rejected: ${result.reason}: ${result.message}`);
  return result;
}

function sameRange(a: Range, b: Range): boolean {
  return (
    a.compareBoundaryPoints(Range.START_TO_START, b) === 0 &&
    a.compareBoundaryPoints(Range.END_TO_END, b) === 0
  );
}

afterEach(() => {
  window.getSelection()?.removeAllRanges();
  document.body.innerHTML = "";
});

const TWO_PARAGRAPHS = "<p>First paragraph here.</p>\n<p>Second <strong>bold</strong> line.</p>";

describe("captureAssistantTextSelection", () => {
  it("captures a forward selection with offsets and context", () => {
    const body = mountTimeline([{ id: "m1", role: "assistant", html: TWO_PARAGRAPHS }]);
    const node = textNode(body("m1"), "First");
    const result = captured(captureAssistantTextSelection(select(node, 6, node, 15), ids));
    expect(result.citation).toEqual({
      version: 1,
      environmentId: "env-1",
      threadId: "thread-1",
      messageId: "m1",
      text: "paragraph",
      start: 6,
      end: 15,
      prefix: "First ",
      suffix: " here. Second bold line.",
    });
    expect(result.overLimit).toBe(false);
    expect(result.source).toBe(body("m1"));
    expect(result.range.toString()).toBe("paragraph");
    expect(isAssistantCitation(result.citation)).toBe(true);
  });

  it("captures a backward selection the same way", () => {
    const body = mountTimeline([{ id: "m1", role: "assistant", html: TWO_PARAGRAPHS }]);
    const first = textNode(body("m1"), "First");
    const bold = textNode(body("m1"), "bold");
    const forward = captured(captureAssistantTextSelection(select(first, 6, bold, 2), ids));
    const backward = captured(captureAssistantTextSelection(select(bold, 2, first, 6), ids));
    expect(window.getSelection()!.anchorNode).toBe(bold);
    expect(backward.citation).toEqual(forward.citation);
    expect(backward.citation.text).toBe("paragraph here.\nSecond bo");
  });

  it("keeps the line break between paragraphs in the quote and a space in the offsets", () => {
    const body = mountTimeline([{ id: "m1", role: "assistant", html: TWO_PARAGRAPHS }]);
    const result = captured(
      captureAssistantTextSelection(
        select(textNode(body("m1"), "First"), 0, textNode(body("m1"), " line."), 6),
        ids,
      ),
    );
    expect(result.citation.text).toBe("First paragraph here.\nSecond bold line.");
    expect(result.citation).toMatchObject({ start: 0, end: 39, prefix: "", suffix: "" });
  });

  it("narrows a triple-click selection that ends at offset 0 of the next block", () => {
    const body = mountTimeline([{ id: "m1", role: "assistant", html: TWO_PARAGRAPHS }]);
    const second = body("m1").querySelectorAll("p")[1]!;
    const result = captured(
      captureAssistantTextSelection(select(textNode(body("m1"), "First"), 0, second, 0), ids),
    );
    expect(result.citation.text).toBe("First paragraph here.");
    expect(result.range.toString()).toBe("First paragraph here.");
  });

  it("resolves a triple click on a response's last paragraph that ends in the next message", () => {
    const body = mountTimeline([
      { id: "m1", role: "assistant", html: TWO_PARAGRAPHS },
      { id: "m2", role: "assistant", html: "<p>Another reply.</p>" },
    ]);
    const last = textNode(body("m1"), "Second");
    const next = body("m2").querySelector("p")!;
    // Chrome's triple click: from the start of the paragraph to offset 0 of the next block.
    const result = captured(captureAssistantTextSelection(select(last, 0, next, 0), ids));
    expect(result.citation.messageId).toBe("m1");
    expect(result.citation.text).toBe("Second bold line.");
    // Also when the range ends at the row boundary, past the action bar's button.
    const article = document.querySelector('[data-message-id="m2"]')!;
    const range = document.createRange();
    range.setStart(last, 0);
    range.setEnd(article.parentNode!, 1);
    expect(captured(captureAssistantTextSelection(range, ids)).citation.text).toBe(
      "Second bold line.",
    );
  });

  it("rejects a selection spanning two responses", () => {
    const body = mountTimeline([
      { id: "m1", role: "assistant", html: TWO_PARAGRAPHS },
      { id: "m2", role: "assistant", html: "<p>Another reply.</p>" },
    ]);
    const result = captureAssistantTextSelection(
      select(textNode(body("m1"), "line."), 2, textNode(body("m2"), "Another"), 3),
      ids,
    );
    expect(result).toMatchObject({ citation: null, reason: "multiple-responses" });
  });

  it("rejects selections outside assistant responses", () => {
    const body = mountTimeline([
      { id: "u1", role: "user", html: "<p>My question.</p>" },
      { id: "m1", role: "assistant", html: TWO_PARAGRAPHS },
    ]);
    const question = textNode(body("u1"), "question");
    expect(captureAssistantTextSelection(select(question, 0, question, 5), ids)).toMatchObject({
      citation: null,
      reason: "outside-response",
    });
    expect(
      captureAssistantTextSelection(select(question, 3, textNode(body("m1"), "First"), 5), ids),
    ).toMatchObject({ citation: null, reason: "outside-response" });
    // The action bar's button label is not response text either.
    const button = textNode(document, "Copy message");
    expect(captureAssistantTextSelection(select(button, 0, button, 4), ids)).toMatchObject({
      citation: null,
      reason: "empty",
    });
  });

  it("rejects empty, collapsed and whitespace-only selections", () => {
    const body = mountTimeline([{ id: "m1", role: "assistant", html: "<pre>a   b</pre>" }]);
    const pre = textNode(body("m1"), "a");
    expect(captureAssistantTextSelection(select(pre, 1, pre, 1), ids)).toMatchObject({
      reason: "empty",
    });
    window.getSelection()!.removeAllRanges();
    expect(captureAssistantTextSelection(window.getSelection()!, ids)).toMatchObject({
      reason: "empty",
    });
    expect(captureAssistantTextSelection(select(pre, 1, pre, 4), ids)).toMatchObject({
      reason: "empty",
    });
  });

  it("rejects ids that cannot appear in a citation", () => {
    const body = mountTimeline([{ id: "m1", role: "assistant", html: TWO_PARAGRAPHS }]);
    const node = textNode(body("m1"), "First");
    const result = captureAssistantTextSelection(select(node, 0, node, 5), {
      environmentId: " ",
      threadId: "t",
    });
    expect(result).toMatchObject({ citation: null, reason: "invalid-source" });
    expect(result.citation === null && result.message).toMatch(/environmentId/);
  });

  it("keeps code indentation and line breaks and leaves the code header out", () => {
    const html =
      "<p>Try:</p><div class='code-block'><div class='code-block__header' data-text-stream='skip'>" +
      "<span>ts</span><button>Copy code</button></div><pre><code>if (ok) {\n    run();\n}\n</code></pre></div>";
    const body = mountTimeline([{ id: "m1", role: "assistant", html }]);
    const range = document.createRange();
    range.setStart(textNode(body("m1"), "Try"), 0);
    range.setEnd(textNode(body("m1"), "run"), "if (ok) {\n    run();\n}".length);
    const result = captured(captureAssistantTextSelection(range, ids));
    expect(result.citation.text).toBe("Try:\nif (ok) {\n    run();\n}");
    expect(result.citation.end - result.citation.start).toBe(
      normalizeRenderedText(result.citation.text).length,
    );
  });

  it("flags quotes over the length limit and still returns them", () => {
    const long = "word ".repeat(ASSISTANT_CITATION_MAX_TEXT_LENGTH / 5 + 1).trim();
    const body = mountTimeline([{ id: "m1", role: "assistant", html: `<p>${long}</p>` }]);
    const node = textNode(body("m1"), "word");
    const over = captured(captureAssistantTextSelection(select(node, 0, node, long.length), ids));
    expect(over.overLimit).toBe(true);
    expect(over.citation.text.length).toBeGreaterThan(ASSISTANT_CITATION_MAX_TEXT_LENGTH);
    expect(isAssistantCitation(over.citation)).toBe(false);
    const atLimit = captured(
      captureAssistantTextSelection(select(node, 0, node, ASSISTANT_CITATION_MAX_TEXT_LENGTH), ids),
    );
    expect(atLimit.overLimit).toBe(false);
    expect(isAssistantCitation(atLimit.citation)).toBe(true);
  });

  it("never splits a surrogate pair", () => {
    const body = mountTimeline([{ id: "m1", role: "assistant", html: "<p>a😀b😀c</p>" }]);
    const node = textNode(body("m1"), "a");
    const result = captured(captureAssistantTextSelection(select(node, 2, node, 5), ids));
    expect(result.citation.text).toBe("😀b😀");
    expect(isAssistantCitation(result.citation)).toBe(true);
  });

  it("works on the app's real Markdown rendering", () => {
    const markdown = [
      "Intro with `inline code` and a [link](https://example.com).",
      "",
      "- item one",
      "- item **two**",
      "",
      "| a | b |",
      "|---|---|",
      "| 1 | 2 |",
      "",
      "```ts",
      "const x = 1;",
      "  indented();",
      "```",
    ].join("\n");
    const { container } = render(
      <div data-assistant-citation-source="m9">
        <ChatMarkdown text={markdown} />
      </div>,
    );
    const root = container.querySelector("[data-assistant-citation-source]")!;
    expect(buildRenderedTextStream(root).text).toBe(
      "Intro with inline code and a link.\nitem one\nitem two\na\tb\n1\t2\nconst x = 1;\n  indented();\n",
    );
    const range = document.createRange();
    range.setStart(textNode(root, "inline code"), 2);
    const code = textNode(root, "indented");
    range.setEnd(code, code.data.indexOf("indented") + 2);
    const result = captured(captureAssistantTextSelection(range, ids));
    expect(result.citation.text).toBe(
      "line code and a link.\nitem one\nitem two\na\tb\n1\t2\nconst x = 1;\n  in",
    );
  });
});

describe("narrowRangeToSelectedText", () => {
  it("moves empty endpoints onto the first and last selected text", () => {
    const body = mountTimeline([{ id: "m1", role: "assistant", html: TWO_PARAGRAPHS }]);
    const paragraphs = body("m1").querySelectorAll("p");
    const range = document.createRange();
    range.setStart(textNode(body("m1"), "First"), 21);
    range.setEnd(paragraphs[1]!, 0);
    expect(narrowRangeToSelectedText(range)).toBeNull();
    range.setEnd(textNode(body("m1"), "Second"), 3);
    const narrowed = narrowRangeToSelectedText(range)!;
    expect(narrowed.startContainer).toBe(textNode(body("m1"), "Second"));
    expect(narrowed.startOffset).toBe(0);
    expect(narrowed.toString()).toBe("Sec");
  });
});

function roundTrip(result: AssistantTextSelectionCapture): AssistantCitation {
  const [link] = collectAssistantCitations(serializeAssistantCitation(result.citation));
  return link!.citation;
}

describe("resolveAssistantCitationRange", () => {
  it("finds a captured quote again after serialize and parse", () => {
    const body = mountTimeline([{ id: "m1", role: "assistant", html: TWO_PARAGRAPHS }]);
    const result = captured(
      captureAssistantTextSelection(
        select(textNode(body("m1"), "First"), 6, textNode(body("m1"), "bold"), 4),
        ids,
      ),
    );
    const parsed = roundTrip(result);
    expect(parsed).toEqual(result.citation);
    const resolved = resolveAssistantCitationRange(body("m1"), parsed);
    expect(resolved.status).toBe("found");
    if (resolved.status !== "found") return;
    expect(sameRange(resolved.range, result.range)).toBe(true);
    // The DOM keeps react-markdown's newline text node between the paragraphs.
    expect(resolved.range.toString()).toBe("paragraph here.\nSecond bold");
  });

  it("finds the quote after the text moved and reports ambiguous and missing quotes", () => {
    const body = mountTimeline([
      { id: "m1", role: "assistant", html: "<p>Intro.</p><p>Repeat this. Then repeat this.</p>" },
    ]);
    const source = body("m1");
    const node = textNode(source, "Repeat");
    const result = captured(captureAssistantTextSelection(select(node, 0, node, 12), ids));
    source.querySelector(".chat-markdown")!.insertAdjacentHTML("afterbegin", "<p>New text.</p>");
    const moved = resolveAssistantCitationRange(source, result.citation);
    expect(moved.status === "found" && moved.range.toString()).toBe("Repeat this.");

    expect(
      resolveAssistantCitationRange(source, { text: "this.", prefix: "", suffix: "" }),
    ).toEqual({ status: "ambiguous", count: 2 });
    expect(
      resolveAssistantCitationRange(source, { text: "absent", prefix: "", suffix: "" }),
    ).toEqual({ status: "missing" });
  });

  it("keeps only the whitespace the quote itself has at its edges", () => {
    const body = mountTimeline([
      { id: "m1", role: "assistant", html: "<pre><code>a {\n    b;\n}</code></pre>" },
    ]);
    const code = textNode(body("m1"), "b;");
    // Starts inside the indentation: the quote keeps two of its four spaces.
    const result = captured(captureAssistantTextSelection(select(code, 6, code, 10), ids));
    expect(result.citation.text).toBe("  b;");
    const resolved = resolveAssistantCitationRange(body("m1"), roundTrip(result));
    expect(resolved.status === "found" && sameRange(resolved.range, result.range)).toBe(true);
  });
});

type Block = { tag: "p" | "pre" | "li" | "h3"; parts: string[] };

const wordArb = fc.constantFrom("alpha", "beta", "gamma", "Δ", "😀x", "a", "b", "the");
const gapArb = fc.constantFrom(" ", "  ", "\n", " \n  ", "\t", "");
const blockArb: fc.Arbitrary<Block> = fc.record({
  tag: fc.constantFrom("p", "pre", "li", "h3"),
  parts: fc.array(
    fc.oneof(
      { weight: 4, arbitrary: fc.tuple(wordArb, gapArb).map(([w, g]) => w + g) },
      // Markup the stream treats specially: breaks, controls, hidden text, links.
      fc.constantFrom(
        "<br>",
        "<button>Copy</button>",
        "<span hidden>gone</span>",
        "<span aria-hidden='true'>icon</span>",
        "<a href='#'>link text</a>",
      ),
    ),
    { minLength: 1, maxLength: 6 },
  ),
});

function blockHtml(block: Block, index: number): string {
  // Alternate plain text and inline formatting so selections cross element boundaries.
  const inner = block.parts
    .map((part, i) =>
      i % 3 === 1 ? `<strong>${part}</strong>` : i % 3 === 2 ? `<em>${part}</em>` : part,
    )
    .join("");
  if (block.tag === "li") return `<ul>\n<li>${inner}</li>\n</ul>`;
  return `<${block.tag} data-i="${index}">${inner}</${block.tag}>`;
}

describe("capture and resolve, property-based", () => {
  it("resolves every captured selection to the same range unless it is ambiguous", () => {
    fc.assert(
      fc.property(
        fc.array(blockArb, { minLength: 1, maxLength: 5 }),
        fc.nat(),
        fc.nat(),
        fc.nat(),
        fc.nat(),
        (blocks, a, b, c, d) => {
          const body = mountTimeline([
            { id: "m1", role: "assistant", html: blocks.map(blockHtml).join("\n") },
          ]);
          const source = body("m1");
          const texts: Text[] = [];
          const walker = document.createTreeWalker(source, NodeFilter.SHOW_TEXT);
          for (let n = walker.nextNode(); n; n = walker.nextNode()) texts.push(n as Text);
          if (texts.length === 0) return;
          const first = texts[a % texts.length]!;
          const second = texts[c % texts.length]!;
          const anchorOffset = b % (first.data.length + 1);
          const focusOffset = d % (second.data.length + 1);
          const result = captureAssistantTextSelection(
            select(first, anchorOffset, second, focusOffset),
            ids,
          );
          if (result.citation === null) {
            expect(["empty", "blank"]).toContain(result.reason);
            return;
          }
          expect(isAssistantCitation(result.citation)).toBe(true);
          const stream = buildRenderedTextStream(source).text;
          expect(
            normalizeRenderedText(stream).slice(result.citation.start, result.citation.end),
          ).toBe(normalizeRenderedText(result.citation.text));
          const resolved = resolveAssistantCitationRange(source, roundTrip(result));
          if (resolved.status === "ambiguous") return;
          expect(resolved.status).toBe("found");
          if (resolved.status === "found")
            expect(sameRange(resolved.range, result.range)).toBe(true);
        },
      ),
      // jsdom's getComputedStyle is slow; 80 random documents and selections per run.
      { numRuns: 80 },
    );
  }, 60_000);
});

describe("contenteditable regions (regression against the original product)", () => {
  it("leaves text typed into an editing host inside an answer out of the quote", () => {
    const body = mountTimeline([
      {
        id: "a1",
        role: "assistant",
        html: "<p>Before <span contenteditable='true'>typed by someone</span> after.</p>",
      },
    ])("a1");
    const before = textNode(body, "Before");
    const after = textNode(body, "after.");
    const result = captured(
      captureAssistantTextSelection(select(before, 0, after, after.data.length), {
        environmentId: "env",
        threadId: "thread",
      }),
    );
    expect(result.citation.text).toBe("Before after.");
    expect(result.citation.text).not.toContain("typed");
  });
});
