/**
 * Splits Markdown into top-level blocks so a streaming message re-renders only its last block.
 *
 * The splitter is deliberately conservative: it cuts only at a blank line followed by an
 * unindented line, outside fenced code, where CommonMark would end every open container
 * anyway. It never cuts between two items of a list, and it does not split documents whose
 * meaning crosses blocks (link reference definitions, footnotes, multi-paragraph HTML blocks).
 * Rendering the blocks one after another therefore gives the same output as rendering the
 * whole text; when unsure, it keeps text together.
 */

/** One top-level chunk of the source: `text.slice(start, end) === source`. */
export type MarkdownBlock = { start: number; end: number; source: string };

const FENCE = /^ {0,3}(`{3,}|~{3,})(.*)$/;
const LIST_MARKER = /^(?:[-+*]|\d{1,9}[.)])(?:\s|$)/;
// Constructs whose meaning spans blank lines or the whole document. Any raw HTML block start
// counts: a fence line right after one belongs to the HTML block, not to a fence, which the
// line-by-line fence tracking below cannot tell (property counterexample "<div>\n```\n\n```").
const NO_SPLIT =
  /^ {0,3}(?:\[[^\]\n]+\]:|\[\^[^\]\n]+\]:|<(?:[A-Za-z/]|!--|\?|![A-Za-z]|!\[CDATA\[))/im;

/** Splits `text` into consecutive blocks covering it exactly (empty text gives no blocks). */
export function splitMarkdownBlocks(text: string): MarkdownBlock[] {
  if (text === "") return [];
  if (NO_SPLIT.test(text)) return [{ start: 0, end: text.length, source: text }];

  const blocks: MarkdownBlock[] = [];
  let blockStart = 0;
  // Whether the open top-level container is (probably) a list: a later item after a blank line
  // continues it, so the text must not be cut there.
  let inList = false;
  let lastContentIndented = false;
  let blockHasContent = false;
  let fence: { char: string; length: number } | null = null;
  let previousBlank = false;
  let lineStart = 0;

  while (lineStart < text.length) {
    const newline = text.indexOf("\n", lineStart);
    const lineEnd = newline === -1 ? text.length : newline;
    const line = text.slice(lineStart, lineEnd);
    const blank = line.trim() === "";

    if (fence !== null) {
      const close = FENCE.exec(line.trimStart());
      if (
        close &&
        close[1]![0] === fence.char &&
        close[1]!.length >= fence.length &&
        close[2]!.trim() === ""
      ) {
        fence = null;
      }
    } else if (!blank) {
      const unindented = !/^\s/.test(line);
      const isListItem = LIST_MARKER.test(line);
      // An ordered item not numbered 1 after an indented line can be read as paragraph text by
      // the parser; keeping such lines together is always safe.
      const ambiguousItem =
        isListItem && (lastContentIndented || /^\d/.test(line)) && !/^0*1[.)]/.test(line);
      if (
        previousBlank &&
        unindented &&
        blockHasContent &&
        !(inList && isListItem) &&
        !ambiguousItem
      ) {
        blocks.push({
          start: blockStart,
          end: lineStart,
          source: text.slice(blockStart, lineStart),
        });
        blockStart = lineStart;
        blockHasContent = false;
      }
      if (unindented) {
        if (isListItem) inList = true;
        else if (previousBlank) inList = false;
      }
      blockHasContent = true;
      lastContentIndented = !unindented;
      // Fences may sit inside list items (indented); track them anywhere so we never cut inside one.
      const open = FENCE.exec(line.trimStart());
      if (open && !(open[1]![0] === "`" && open[2]!.includes("`"))) {
        fence = { char: open[1]![0]!, length: open[1]!.length };
      }
    }
    previousBlank = blank;
    lineStart = newline === -1 ? text.length : newline + 1;
  }
  blocks.push({ start: blockStart, end: text.length, source: text.slice(blockStart) });
  return blocks;
}
