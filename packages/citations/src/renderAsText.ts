import { collectAssistantCitations } from "./collect.ts";
import { type AssistantCitation, hasNonWhitespace } from "./schema.ts";

const HTML_ENTITIES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;" };

/**
 * Characters that can start inline Markdown anywhere in a line (emphasis, code, links, tables,
 * strikethrough, math) get a backslash; `& < >` become entities so no HTML or entity survives.
 */
const INLINE_SPECIAL = /[\\`*_[\]|~$^&<>]/g;

/** Markers that only matter at the start of a line: headings, lists, setext underlines. */
const LINE_START_MARKER = /^([#+\-=])/;
/** Ordered list markers: `1.` or `1)` at the start of a line. */
const ORDERED_MARKER = /^(\d+)([.)])/;

function escapeInline(text: string): string {
  return text.replace(INLINE_SPECIAL, (char) => HTML_ENTITIES[char] ?? `\\${char}`);
}

/**
 * Escapes one line so it is read as plain paragraph text. Leading spaces and tabs become
 * no-break spaces: they keep the indentation visible but cannot start an indented code block.
 */
function escapeLine(line: string): string {
  if (!hasNonWhitespace(line)) return "";
  const indentLength = line.length - line.replace(/^[ \t]+/, "").length;
  const indent = line.slice(0, indentLength).replace(/\t/g, "    ").replace(/ /g, "\u00a0");
  const body = escapeInline(line.slice(indentLength))
    .replace(LINE_START_MARKER, "\\$1")
    .replace(ORDERED_MARKER, "$1\\$2");
  return indent + body;
}

const splitLines = (text: string): string[] => text.split(/\r\n|\r|\n/);

const isBlank = (char: string | undefined): boolean =>
  char === " " || char === "\t" || char === "\r";

/**
 * Padding that puts a block starting at `start` on its own line after a blank line. Looks back
 * no further than `floor` (where the text after the previous link resumes, or 0), so the total work stays linear.
 * Reaching a previous link counts as a blank line: its own padding already ended in one.
 */
function paddingBefore(text: string, start: number, floor: number, afterLink: boolean): string {
  let breaks = 0;
  let index = start - 1;
  for (; index >= floor && breaks < 2; index--) {
    const char = text[index];
    if (char === "\n") breaks++;
    else if (!isBlank(char)) break;
  }
  if (breaks < 2 && index < floor && (afterLink || start === floor)) breaks = 2;
  const padding = "\n".repeat(2 - breaks);
  // Spaces right before the block would indent it (four make a code block): end their line.
  return padding === "" && start > floor && isBlank(text[start - 1]) ? "\n" : padding;
}

/**
 * Renders one citation: the quote as a blockquote, then the comment (when not blank) as its own
 * paragraph.
 */
function renderCitationBlock(citation: AssistantCitation): string {
  let block = splitLines(citation.text)
    .map((line) => `> ${escapeLine(line)}`)
    .join("\n");
  if (citation.comment !== undefined && hasNonWhitespace(citation.comment)) {
    block += `\n\n${splitLines(citation.comment.trim()).map(escapeLine).join("\n")}`;
  }
  return block;
}

/**
 * Readable Markdown for clients that cannot show citation chips. Each valid link becomes a
 * blockquote (every quote line starts with `> `) on its own, set off by blank lines, with the
 * comment (when not blank) below it as a separate paragraph. Quote and comment are escaped so
 * they cannot inject Markdown structure or HTML. Invalid links and all other text stay as they
 * are, except that spaces between a link and the rest of its line are dropped (the rest starts
 * a new paragraph, where they would indent it). Linear time.
 */
export function renderAssistantCitationsAsText(text: string): string {
  if (typeof text !== "string") return "";
  const links = collectAssistantCitations(text);
  if (links.length === 0) return text;
  const parts: string[] = [];
  let cursor = 0;
  links.forEach((link, index) => {
    parts.push(
      text.slice(cursor, link.start),
      paddingBefore(text, link.start, cursor, index > 0),
      renderCitationBlock(link.citation),
    );
    cursor = link.end;
    let next = cursor;
    while (next < text.length && (text[next] === " " || text[next] === "\t")) next++;
    if (next === text.length) return;
    if (text[next] === "\n" || text[next] === "\r") {
      // The line ends right after the link: make sure a blank line follows it.
      const breaks = text.startsWith("\n", next)
        ? text.startsWith("\n", next + 1) || text.startsWith("\r\n", next + 1)
          ? 2
          : 1
        : text.startsWith("\r\n\r\n", next) || text.startsWith("\r\n\n", next)
          ? 2
          : 1;
      if (breaks < 2) parts.push("\n");
    } else {
      // More text on the link's line: it becomes a new paragraph below the block.
      parts.push("\n\n");
      cursor = next;
    }
  });
  parts.push(text.slice(cursor));
  return parts.join("");
}
