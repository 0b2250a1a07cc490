/**
 * User messages: every citation link the kernel recognizes becomes a chip, also where Markdown
 * does not see a link. Recognition is lexical and identical in every consumer (DESIGN.md
 * section 3): the composer shows a chip and the server expands the link inside a code span, a
 * fenced block, after `\[`, in raw HTML or after `!`, so the sent message must show one there
 * too. (Markdown links are chips already, through `MarkdownLink`.)
 *
 * Runs on the safe hast tree of one block (raw HTML already turned into text). Each link found
 * in a text node by `collectAssistantCitations`, and found verbatim in the block's source, is
 * replaced by an `a` element positioned on that source, which `MarkdownLink` renders as a chip
 * exactly as it does a parsed link. `![Assistant quote](…)` becomes `!` and a chip, and a Markdown
 * link whose source holds citation links (without being one) becomes that source with chips.
 * Pure: no React, no DOM.
 */
import {
  ASSISTANT_CITATION_LABEL,
  collectAssistantCitations,
  parseAssistantCitationLink,
} from "@app/citations";

/** The hast fields this step reads and writes (structural, no hast types package needed). */
type Position = { start: { offset?: number }; end: { offset?: number } };
type HastNode = {
  type: string;
  tagName?: string;
  value?: string;
  properties?: Record<string, unknown>;
  position?: Position;
  children?: HastNode[];
};

/** Property holding a chip's whole link (`[Assistant quote](…)`) on elements made here. */
export const CITATION_LINK_PROPERTY = "dataCitationLink";

function chipElement(link: string, href: string, start: number): HastNode {
  return {
    type: "element",
    tagName: "a",
    properties: { href, [CITATION_LINK_PROPERTY]: link },
    position: { start: { offset: start }, end: { offset: start + link.length } },
    children: [{ type: "text", value: ASSISTANT_CITATION_LABEL }],
  };
}

/** Where in `source` to look for the links of `node`: its own start, else its parent's. */
function startOf(node: HastNode, fallback: number): number {
  return node.position?.start.offset ?? fallback;
}

function splitText(node: HastNode, source: string, from: number): HastNode[] | null {
  const value = node.value ?? "";
  const links = collectAssistantCitations(value);
  if (links.length === 0) return null;
  const out: HastNode[] = [];
  let cursor = 0;
  let searchFrom = from;
  for (const link of links) {
    const at = source.indexOf(link.source, searchFrom);
    // Not in the source verbatim (Markdown changed the text around it): leave it as text.
    if (at < 0) continue;
    searchFrom = at + link.source.length;
    if (link.start > cursor) out.push({ type: "text", value: value.slice(cursor, link.start) });
    out.push(chipElement(link.source, parseAssistantCitationLink(link.source)!.href, at));
    cursor = link.end;
  }
  if (out.length === 0) return null;
  if (cursor < value.length) out.push({ type: "text", value: value.slice(cursor) });
  return out;
}

function imageAsChip(node: HastNode, source: string): HastNode[] | null {
  const start = node.position?.start.offset;
  const end = node.position?.end.offset;
  if (start === undefined || end === undefined) return null;
  const written = source.slice(start, end);
  if (!written.startsWith("!")) return null;
  const parsed = parseAssistantCitationLink(written.slice(1));
  if (parsed === null) return null;
  return [{ type: "text", value: "!" }, chipElement(written.slice(1), parsed.href, start + 1)];
}

/**
 * A Markdown link whose source holds citation links without being one, as `[\\[Assistant
 * quote](…)` (a link labelled "[Assistant quote" to the citation's href): shown as its source
 * text with the chips, as the composer shows it.
 */
function linkAroundChips(node: HastNode, source: string): HastNode[] | null {
  const start = node.position?.start.offset;
  const end = node.position?.end.offset;
  if (start === undefined || end === undefined) return null;
  const written = source.slice(start, end);
  if (parseAssistantCitationLink(written) !== null) return null;
  return splitText({ type: "text", value: written }, source, start);
}

function walk(parent: HastNode, source: string, from: number): void {
  if (!parent.children) return;
  const next: HastNode[] = [];
  let changed = false;
  let searchFrom = startOf(parent, from);
  for (const child of parent.children) {
    let replacement: HastNode[] | null = null;
    if (child.type === "text") replacement = splitText(child, source, startOf(child, searchFrom));
    else if (child.type === "element" && child.tagName === "img") {
      replacement = imageAsChip(child, source);
    } else if (child.type === "element" && child.tagName === "a") {
      replacement = linkAroundChips(child, source);
    } else if (child.type === "element") {
      walk(child, source, searchFrom);
    }
    const end = child.position?.end.offset;
    if (end !== undefined) searchFrom = end;
    else if (replacement) {
      const last = replacement.findLast((node) => node.position !== undefined);
      if (last?.position?.end.offset !== undefined) searchFrom = last.position.end.offset;
    }
    if (replacement) {
      next.push(...replacement);
      changed = true;
    } else next.push(child);
  }
  if (changed) parent.children = next;
}

/**
 * Turns the citation links in `tree`'s text into chip links, in place. `source` is the Markdown
 * the tree was parsed from (positions are offsets into it).
 */
export function chipCitationLinksInText(tree: HastNode, source: string): void {
  if (collectAssistantCitations(source).length === 0) return;
  walk(tree, source, 0);
}
