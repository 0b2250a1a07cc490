/**
 * Rendered-text normalization shared by selection and resolution (DESIGN.md section 4).
 *
 * Every run of JavaScript whitespace (`/\s+/`: spaces, tabs, CR, LF, NBSP, U+2028, U+FEFF, ...)
 * collapses to one U+0020 space. Nothing is trimmed. All offsets are UTF-16 code units.
 */

// Only runs that actually change are matched: a lone U+0020 is left alone, which keeps the
// number of replacements (and so the cost) low on ordinary prose. Equivalent to /\s+/g -> " ".
const CHANGING_WHITESPACE_RUN = /[^\S ]\s*| \s+/g;

/**
 * Collapses each run of JavaScript whitespace (`/\s+/`) to a single space, without trimming.
 * Linear time.
 */
export function normalizeRenderedText(text: string): string {
  return text.replace(CHANGING_WHITESPACE_RUN, " ");
}

// Runs of two or more units are the only places where the normalized text is shorter.
const COLLAPSING_RUN = /\s\s+/g;

/**
 * `normalizeRenderedText(text.slice(0, rawEnd)).length`, computed without building the string:
 * only runs of two or more whitespace units shorten the text. `rawEnd` defaults to the whole
 * text and is clamped to it. Linear time.
 */
export function normalizedLengthOf(text: string, rawEnd: number = text.length): number {
  const end = Math.min(Math.max(Math.trunc(rawEnd) || 0, 0), text.length);
  // Scanning only the head also shortens a run cut by `end` to its part before `end`.
  const head = end === text.length ? text : text.slice(0, end);
  let collapsed = 0;
  COLLAPSING_RUN.lastIndex = 0;
  for (let run = COLLAPSING_RUN.exec(head); run !== null; run = COLLAPSING_RUN.exec(head)) {
    collapsed += run[0].length - 1;
  }
  return end - collapsed;
}

/**
 * Whether one UTF-16 code unit is JavaScript whitespace, exactly as `/\s/` decides.
 * Every `\s` character is in the BMP, so a single unit is always enough.
 */
export function isRenderedWhitespaceCode(code: number): boolean {
  if (code > 32 && code < 0xa0) return false;
  if (code === 32 || (code >= 9 && code <= 13) || code === 0xa0) return true;
  if (code < 0x1680) return false;
  return (
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff
  );
}

/**
 * A rendered text together with its normalized form and the offset maps between them.
 *
 * Each raw unit belongs to exactly one normalized unit (a whitespace run to its single space,
 * any other unit to its copy), and each normalized unit covers a contiguous raw range.
 */
export interface NormalizedRenderedText {
  /** The text as rendered. */
  readonly raw: string;
  /** `normalizeRenderedText(raw)`. */
  readonly normalized: string;
  /** Length `raw.length`: index of the normalized unit that raw unit `i` collapsed into. */
  readonly rawToNormalized: Uint32Array;
  /**
   * Length `normalized.length + 1`: raw index where normalized unit `k` begins; the last entry
   * is `raw.length`. Normalized unit `k` covers raw `[normalizedToRaw[k], normalizedToRaw[k + 1])`.
   */
  readonly normalizedToRaw: Uint32Array;
}

/** Normalizes `raw` and records both offset maps in one linear pass. */
export function buildNormalizedRenderedText(raw: string): NormalizedRenderedText {
  const length = raw.length;
  const rawToNormalized = new Uint32Array(length);
  // Upper bound; trimmed with subarray once the normalized length is known.
  const starts = new Uint32Array(length + 1);
  let k = 0;
  let i = 0;
  while (i < length) {
    starts[k] = i;
    if (isRenderedWhitespaceCode(raw.charCodeAt(i))) {
      while (i < length && isRenderedWhitespaceCode(raw.charCodeAt(i))) rawToNormalized[i++] = k;
    } else {
      rawToNormalized[i++] = k;
    }
    k++;
  }
  starts[k] = length;
  return {
    raw,
    normalized: normalizeRenderedText(raw),
    rawToNormalized,
    normalizedToRaw: starts.subarray(0, k + 1),
  };
}

/**
 * Maps a raw boundary offset (0..raw.length) to a normalized boundary offset.
 *
 * Inside a whitespace run the two affinities differ: `"start"` gives the run's single space
 * (a selection starting there starts at that space), `"end"` gives the offset just after it
 * (a selection ending there includes that space). Elsewhere they agree.
 * Out-of-range offsets are clamped.
 */
export function rawOffsetToNormalized(
  map: NormalizedRenderedText,
  rawOffset: number,
  affinity: "start" | "end",
): number {
  const length = map.raw.length;
  const offset = Math.min(Math.max(Math.trunc(rawOffset) || 0, 0), length);
  if (affinity === "start") {
    return offset === length ? map.normalized.length : map.rawToNormalized[offset]!;
  }
  return offset === 0 ? 0 : map.rawToNormalized[offset - 1]! + 1;
}

/**
 * Maps a normalized range `[start, end)` back to the raw range it covers. A collapsed space
 * stands for its whole whitespace run, so a range edge on a space takes in the full run.
 * Out-of-range offsets are clamped.
 */
export function normalizedRangeToRaw(
  map: NormalizedRenderedText,
  start: number,
  end: number,
): { start: number; end: number } {
  const length = map.normalized.length;
  const clamp = (value: number) => Math.min(Math.max(Math.trunc(value) || 0, 0), length);
  const from = clamp(start);
  const to = Math.max(from, clamp(end));
  return { start: map.normalizedToRaw[from]!, end: map.normalizedToRaw[to]! };
}
