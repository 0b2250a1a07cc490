/**
 * Find-in-thread matching over a message's rendered text (issue 23): where a literal query
 * occurs, as half-open UTF-16 ranges. Pure; the server's stores run it on their candidates and
 * the web may run it on messages it has loaded, so both agree on every offset.
 *
 * - Case-insensitive matching compares {@link foldCase} of both sides: a simple per-code-point
 *   case fold that never changes a string's UTF-16 length, so offsets in the folded text are
 *   offsets in the text. The stores index the same folded text, so their candidates agree.
 * - Whole words: no letter, digit, mark or underscore (`\p{L}\p{N}\p{M}_`) directly before or
 *   after the match.
 * - Occurrences are taken left to right, without overlap.
 */

/** A message reports at most this many ranges (then `truncated`). */
export const MAX_RANGES_PER_MESSAGE = 1000;

/** Options of {@link findTextMatches}. */
export type TextMatchOptions = {
  /** Match case exactly (default: case-insensitive). */
  caseSensitive?: boolean;
  /** Whole words only. */
  wholeWord?: boolean;
  /** Most ranges to report (default {@link MAX_RANGES_PER_MESSAGE}). */
  limit?: number;
};

/** What {@link findTextMatches} found. */
export type TextMatches = {
  ranges: [number, number][];
  /** More occurrences exist past `limit`. */
  truncated: boolean;
};

const ASCII = /^[\u0000-\u007f]*$/;
const foldCache = new Map<number, string>();

function sameLength(a: string, b: string): boolean {
  return a.length === b.length;
}

/** Simple case folding of one code point, where it keeps the UTF-16 length; else itself. */
function foldCodePoint(code: number): string {
  let folded = foldCache.get(code);
  if (folded === undefined) {
    const char = String.fromCodePoint(code);
    // Lowercase of the uppercase: "ς" and "σ" (and "ſ" and "s") fold together, as Unicode's
    // simple case folding does; where that changes the length ("ß" uppercases to "SS"), the
    // lowercase alone; where that does too ("İ"), the code point itself: offsets must not move.
    const upper = char.toUpperCase();
    const viaUpper = sameLength(upper, char) ? upper.toLowerCase() : "";
    const lower = char.toLowerCase();
    if (viaUpper !== "" && sameLength(viaUpper, char)) folded = viaUpper;
    else folded = sameLength(lower, char) ? lower : char;
    foldCache.set(code, folded);
  }
  return folded;
}

/**
 * `text` case-folded code point by code point (see {@link foldCodePoint}): never changes the
 * UTF-16 length, and context-free (a capital sigma always folds to "σ", so does a final "ς").
 */
export function foldCase(text: string): string {
  if (ASCII.test(text)) return text.toLowerCase();
  let out = "";
  for (const char of text) out += foldCodePoint(char.codePointAt(0)!);
  return out;
}

const WORD_CHAR = /[\p{L}\p{N}\p{M}_]/u;

function codePointBefore(text: string, at: number): string {
  if (at <= 0) return "";
  const low = text.charCodeAt(at - 1);
  if (low >= 0xdc00 && low <= 0xdfff && at >= 2) {
    const high = text.charCodeAt(at - 2);
    if (high >= 0xd800 && high <= 0xdbff) return text.slice(at - 2, at);
  }
  return text.slice(at - 1, at);
}

function codePointAt(text: string, at: number): string {
  if (at >= text.length) return "";
  return String.fromCodePoint(text.codePointAt(at)!);
}

function isWholeWord(text: string, start: number, end: number): boolean {
  return !WORD_CHAR.test(codePointBefore(text, start)) && !WORD_CHAR.test(codePointAt(text, end));
}

/** The ranges of `query` in `text` (an empty query matches nothing). */
export function findTextMatches(
  text: string,
  query: string,
  options: TextMatchOptions = {},
): TextMatches {
  const limit = options.limit ?? MAX_RANGES_PER_MESSAGE;
  const ranges: [number, number][] = [];
  if (query === "" || query.length > text.length) return { ranges, truncated: false };
  const haystack = options.caseSensitive ? text : foldCase(text);
  const needle = options.caseSensitive ? query : foldCase(query);
  let from = 0;
  for (;;) {
    const at = haystack.indexOf(needle, from);
    if (at < 0) return { ranges, truncated: false };
    const end = at + needle.length;
    if (options.wholeWord && !isWholeWord(text, at, end)) {
      from = at + 1;
      continue;
    }
    if (ranges.length === limit) return { ranges, truncated: true };
    ranges.push([at, end]);
    from = end;
  }
}
