/**
 * Finding a query in a message's rendered text the way the search endpoint does
 * (CONTRACT: literal text, spaces count; a simple per-code-point case fold that keeps UTF-16
 * length, so offsets stay exact; whole words = no letter, digit, underscore or combining mark
 * right before or after; occurrences taken left to right, never overlapping). Pure: no DOM.
 *
 * The client uses it only as a check and a fallback: the server's offsets are verified against
 * the text the browser shows, and when they disagree the n-th occurrence is located here.
 */

/** The search options the find bar offers (`case=1`, `word=1` on the wire). */
export type FindOptions = { matchCase: boolean; wholeWords: boolean };

/** Case-insensitive, anywhere (the endpoint's defaults). */
export const DEFAULT_FIND_OPTIONS: FindOptions = { matchCase: false, wholeWords: false };

const WORD_CHARACTER = /[\p{L}\p{N}\p{M}_]/u;

/**
 * Lower-cases `text` one code point at a time, keeping any code point whose lower case would
 * change its UTF-16 length (e.g. U+0130 "İ"), so an offset in the result is an offset in `text`.
 */
export function foldCase(text: string): string {
  let folded = "";
  let changed = false;
  for (const character of text) {
    const lower = character.toLowerCase();
    if (lower.length === character.length && lower !== character) {
      folded += lower;
      changed = true;
    } else {
      folded += character;
    }
  }
  return changed ? folded : text;
}

/** The code point ending right before `offset` (a whole surrogate pair), or "". */
function characterBefore(text: string, offset: number): string {
  if (offset <= 0) return "";
  const low = text.charCodeAt(offset - 1);
  if (low >= 0xdc00 && low <= 0xdfff && offset >= 2) {
    const high = text.charCodeAt(offset - 2);
    if (high >= 0xd800 && high <= 0xdbff) return text.slice(offset - 2, offset);
  }
  return text.slice(offset - 1, offset);
}

/** The code point starting at `offset`, or "". */
function characterAt(text: string, offset: number): string {
  const code = text.codePointAt(offset);
  return code === undefined ? "" : String.fromCodePoint(code);
}

/** True when `[start, end)` of `text` is a whole word (nothing word-like touches either end). */
export function isWholeWordAt(text: string, start: number, end: number): boolean {
  return (
    !WORD_CHARACTER.test(characterBefore(text, start)) &&
    !WORD_CHARACTER.test(characterAt(text, end))
  );
}

/** Every occurrence of `query` in `text` as `[start, end)`, left to right, non-overlapping. */
export function findOccurrences(
  text: string,
  query: string,
  options: FindOptions,
): Array<[number, number]> {
  if (query === "" || query.length > text.length) return [];
  const haystack = options.matchCase ? text : foldCase(text);
  const needle = options.matchCase ? query : foldCase(query);
  const found: Array<[number, number]> = [];
  let from = 0;
  for (;;) {
    const start = haystack.indexOf(needle, from);
    if (start === -1) return found;
    const end = start + needle.length;
    if (options.wholeWords && !isWholeWordAt(text, start, end)) {
      from = start + 1;
      continue;
    }
    found.push([start, end]);
    from = end;
  }
}

/** True when `shown` (text on the page) is what `query` matches under `options`. */
export function textMatchesQuery(shown: string, query: string, options: FindOptions): boolean {
  return options.matchCase ? shown === query : foldCase(shown) === foldCase(query);
}
