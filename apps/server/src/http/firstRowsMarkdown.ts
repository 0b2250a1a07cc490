/**
 * A message's Markdown as static HTML for the server-rendered first rows (firstRows.ts): the
 * same safe tree the web renders (`parseSafeMarkdown` of `@app/markdown`, block by block as
 * `splitMarkdownBlocks` cuts it), with the web's element overrides mirrored in markup only
 * (apps/web/src/markdown/chatMarkdownComponents.tsx, CodeBlock.tsx, MarkdownLink.tsx), so the
 * rows keep their size when the app replaces them. Nothing here is interactive.
 *
 * Safety (model output never becomes HTML or script): raw HTML in the source is already text in
 * the tree, every URL has passed the link policy, and `hast-util-to-html` escapes every text
 * and attribute. A citation link never becomes a chip here: in a user's message it becomes an
 * inert label (`span.citation-chip`, no `data-assistant-citation-chip`, no link), in model
 * output its Markdown source as text, as the web shows it.
 */
import {
  type AssistantCitation,
  getAssistantCitationChipLabel,
  hasNonWhitespace,
  looksLikeAssistantCitationLink,
  parseAssistantCitationLink,
  truncateText,
} from "@app/citations";
import {
  classifyHref,
  type MarkdownFlavor,
  parseSafeMarkdown,
  splitMarkdownBlocks,
} from "@app/markdown";
import type { Element, ElementContent, Root } from "hast";

const text = (value: string): ElementContent => ({ type: "text", value });

function element(
  tagName: string,
  properties: Element["properties"],
  children: ElementContent[],
): Element {
  return { type: "element", tagName, properties, children };
}

/** The web's `Copy` button (ui/CopyButton.tsx) as a same-size placeholder: no name, no focus, no action. */
export function inertCopyButton(): Element {
  return element(
    "button",
    { type: "button", className: ["copy-button"], tabIndex: -1, ariaHidden: "true" },
    [text("Copy")],
  );
}

function languageOf(code: Element | undefined): string | null {
  const className = code?.properties.className;
  if (!Array.isArray(className)) return null;
  for (const name of className) {
    if (typeof name === "string" && name.startsWith("language-"))
      return name.slice("language-".length);
  }
  return null;
}

/** The Markdown source of a node (its position in the block), as the web's MarkdownLink reads it. */
function sourceOf(node: Element, source: string): string | null {
  const start = node.position?.start.offset;
  const end = node.position?.end.offset;
  return start === undefined || end === undefined ? null : source.slice(start, end);
}

function rewrite(node: ElementContent, source: string, flavor: MarkdownFlavor): ElementContent {
  if (node.type !== "element") return node;
  const children = () => node.children.map((child) => rewrite(child, source, flavor));
  switch (node.tagName) {
    case "a":
      return rewriteLink(node, source, flavor, children);
    case "pre": {
      const code = node.children.find(
        (child): child is Element => child.type === "element" && child.tagName === "code",
      );
      // The header as CodeBlock draws it; the copy button is a same-size inert label.
      return element("div", { className: ["code-block"] }, [
        element("div", { className: ["code-block__header"], dataTextStream: "skip" }, [
          element("span", { className: ["code-block__language"] }, [
            text(languageOf(code) ?? "text"),
          ]),
          inertCopyButton(),
        ]),
        { ...node, children: children() },
      ]);
    }
    case "table":
      return element("div", { className: ["md-table-scroll"] }, [
        { ...node, children: children() },
      ]);
    case "img": {
      const alt = typeof node.properties.alt === "string" ? node.properties.alt.trim() : "";
      return element("span", { className: ["md-image-link"] }, [
        text(`Image: ${alt || "untitled"}`),
      ]);
    }
    default:
      return { ...node, children: children() };
  }
}

/** Longest quote preview beside a comment (the web's `CHIP_QUOTE_PREVIEW_LENGTH`). */
const CHIP_QUOTE_PREVIEW_LENGTH = 40;

/**
 * A sent chip's look without being one (apps/web/src/citations/AssistantCitationChip.tsx): its
 * label and quote preview, no link, no `data-assistant-citation-chip`, a hidden inert disclosure.
 */
function inertChip(citation: AssistantCitation): Element {
  const comment =
    citation.comment !== undefined && hasNonWhitespace(citation.comment) ? citation.comment : null;
  const preview =
    comment === null
      ? null
      : truncateText(citation.text.replace(/\s+/g, " ").trim(), CHIP_QUOTE_PREVIEW_LENGTH, "…");
  return element("span", { className: ["citation-chip-group"] }, [
    element("span", { className: ["citation-chip"] }, [
      element("span", { className: ["citation-chip__kind"], ariaHidden: "true" }, [text("❝")]),
      element("span", { className: ["citation-chip__label"] }, [
        text(getAssistantCitationChipLabel(citation)),
      ]),
      ...(preview === null
        ? []
        : [
            element("span", { className: ["citation-chip__quote"], ariaHidden: "true" }, [
              text(preview),
            ]),
          ]),
    ]),
    element(
      "button",
      { type: "button", className: ["citation-chip__more"], tabIndex: -1, ariaHidden: "true" },
      [element("span", { ariaHidden: "true" }, [text("▾")])],
    ),
  ]);
}

function rewriteLink(
  node: Element,
  source: string,
  flavor: MarkdownFlavor,
  children: () => ElementContent[],
): ElementContent {
  // As the web's MarkdownLink decides, on the link's Markdown source.
  const href = typeof node.properties.href === "string" ? node.properties.href : undefined;
  const written = sourceOf(node, source);
  const kind = classifyHref(href);
  if (kind === "citation" || (written !== null && looksLikeAssistantCitationLink(written))) {
    const parsed =
      written === null || flavor !== "user" ? null : parseAssistantCitationLink(written);
    if (parsed) {
      return inertChip(parsed.citation);
    }
    return element(
      "span",
      { className: ["md-link-text"] },
      written === null ? children() : [text(written)],
    );
  }
  if (kind === "safe") {
    return element("a", { href, target: "_blank", rel: ["noopener", "noreferrer"] }, children());
  }
  return element("span", { className: ["md-link-text"] }, children());
}

/** The `div.chat-markdown` of one message, as a static tree (serialize it with `hast-util-to-html`). */
export function markdownToStaticTree(markdown: string, flavor: MarkdownFlavor): Element {
  const blocks: ElementContent[] = [];
  for (const block of splitMarkdownBlocks(markdown)) {
    const tree: Root = parseSafeMarkdown(block.source, flavor);
    for (const child of tree.children) {
      if (child.type === "doctype") continue;
      blocks.push(rewrite(child, block.source, flavor));
    }
  }
  return element("div", { className: ["chat-markdown"] }, blocks);
}
