/**
 * How many lines a plain prompt takes in its bubble, predicted from text widths alone, so the
 * virtual list can estimate a short prompt's height exactly (see `rowSizeClass`). A prompt of
 * ~75 characters wraps to a second line or not depending on its words; estimating it at the
 * average of both moves every row on screen when it is measured.
 *
 * Only text that renders as one plain paragraph is predicted; anything Markdown or a chip
 * could change (`isPlainParagraph`) is left to the caller's rough estimate.
 */

/** Width in px of a run of text in the bubble's font. */
export type TextWidth = (text: string) => number;

/** How prompts are laid out now: read off a mounted prompt by `readPromptMetrics`. */
export type PromptMetrics = {
  /** Changes whenever the font or the width does (cache key for classes computed with it). */
  key: string;
  /** Width in px the bubble's text may take before it wraps. */
  maxWidth: number;
  widthOf: TextWidth;
};

/**
 * Characters that Markdown, GFM or the prompt tokenizer could turn into something other than
 * plain text of the same width: emphasis, code, links, headings, quotes, tables, HTML,
 * entities, escapes, mentions and skills.
 */
const MARKUP = /[`*_#>[\]|<~\\&@$]|https?:|www\./;
/** Lines that start a list, a thematic break or a setext underline. */
const BLOCK_START = /^\s*(?:[-+=]|\d{1,9}[.)](?:\s|$))/m;

/** Whether `text` renders as plain paragraph text (possibly with kept line breaks). */
export function isPlainParagraph(text: string): boolean {
  return (
    text.trim() !== "" && !/\n\s*\n/.test(text) && !MARKUP.test(text) && !BLOCK_START.test(text)
  );
}

/**
 * Lines `text` wraps to at `maxWidth` px, the way the bubble lays it out (`white-space:
 * pre-line`: line breaks kept, runs of spaces collapsed, breaks between words, and a word wider
 * than the line broken anywhere). Greedy, as browsers wrap.
 */
export function countWrappedLines(text: string, maxWidth: number, widthOf: TextWidth): number {
  if (!(maxWidth > 0)) return 1;
  const space = widthOf(" ");
  let lines = 0;
  for (const line of text.split("\n")) {
    lines += 1;
    let used = 0;
    for (const word of line.split(/[ \t]+/)) {
      if (word === "") continue;
      const width = widthOf(word);
      if (used > 0 && used + space + width <= maxWidth) {
        used += space + width;
        continue;
      }
      if (used > 0) lines += 1;
      // A word wider than a line fills whole lines and leaves its remainder on the last one.
      const whole = width > maxWidth ? Math.ceil(width / maxWidth) - 1 : 0;
      lines += whole;
      used = width - whole * maxWidth;
    }
  }
  return lines;
}
