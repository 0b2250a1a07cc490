/**
 * Pieces of a long indexed text (issue 33), pure. SQLite's FTS5 trigram insert of a whole
 * 1,000,000-character text was one statement of tens of milliseconds on the event loop, so a
 * long text is indexed as several FTS rows of at most {@link SEARCH_PIECE_CHARS} plus an overlap,
 * each written in a short transaction of its own (storage README, "Find in thread").
 *
 * Exact by construction: consecutive pieces overlap by {@link SEARCH_PIECE_OVERLAP} (the longest
 * query the API accepts, less one), so every substring a query can match lies whole inside at
 * least one piece, and a piece's trigram filter still lets every matching message through (the
 * text itself is checked afterwards, whole). Bounds never split a surrogate pair, so a piece
 * folds (`foldCase`, per code point, same length) to the same units as the whole text does.
 */

/** Longest search query, in UTF-16 units (find in thread and search all threads). */
export const SEARCH_QUERY_MAX_CHARS = 200;

/** UTF-16 units a piece starts apart: about a millisecond of FTS5 trigram insert. */
export const SEARCH_PIECE_CHARS = 65_536;

/** Units a piece reaches into the next one: any query fits whole in one piece. */
export const SEARCH_PIECE_OVERLAP = SEARCH_QUERY_MAX_CHARS - 1;

const isHigh = (unit: number) => unit >= 0xd800 && unit <= 0xdbff;
const isLow = (unit: number) => unit >= 0xdc00 && unit <= 0xdfff;

/** True when `at` falls between the two units of a surrogate pair. */
function splitsPair(text: string, at: number): boolean {
  return (
    at > 0 && at < text.length && isHigh(text.charCodeAt(at - 1)) && isLow(text.charCodeAt(at))
  );
}

/** How many pieces `text` is indexed as (at least one, for an empty text too). */
export function searchPieceCount(text: string, size = SEARCH_PIECE_CHARS): number {
  return Math.max(1, Math.ceil(text.length / size));
}

/**
 * The `[start, end)` bounds of each piece: piece `i` starts at `i * size` (one unit earlier
 * when that splits a pair) and ends `overlap` units past the next piece's start (one unit later
 * when that splits a pair), the last one at the end of the text.
 */
export function searchPieceBounds(
  text: string,
  size = SEARCH_PIECE_CHARS,
  overlap = SEARCH_PIECE_OVERLAP,
): [start: number, end: number][] {
  const count = searchPieceCount(text, size);
  const starts: number[] = [];
  for (let i = 0; i < count; i++) {
    const at = i * size;
    starts.push(splitsPair(text, at) ? at - 1 : at);
  }
  return starts.map((start, i) => {
    if (i === count - 1) return [start, text.length];
    let end = Math.min(text.length, starts[i + 1]! + overlap);
    if (splitsPair(text, end)) end++;
    return [start, end];
  });
}

/** Piece `piece` of `text` (see {@link searchPieceBounds}). */
export function searchPiece(text: string, piece: number, size = SEARCH_PIECE_CHARS): string {
  const bounds = searchPieceBounds(text, size)[piece];
  if (!bounds) throw new RangeError(`No piece ${piece} in a text of ${text.length} units.`);
  return text.slice(bounds[0], bounds[1]);
}
