import {
  isRenderedWhitespaceCode,
  normalizedLengthOf,
  normalizeRenderedText,
} from "./normalize.ts";
import type { AssistantCitationSelector } from "./selector.ts";

/**
 * Outcome of looking a quote up in a rendered text. `start`/`end` are offsets in
 * `normalizeRenderedText(rendered)`; `count` is how many occurrences competed.
 */
export type AssistantCitationTextMatch =
  | { status: "found"; start: number; end: number }
  | { status: "ambiguous"; count: number }
  | { status: "missing" };

const MISSING: AssistantCitationTextMatch = Object.freeze({ status: "missing" });

/**
 * Finds a cited quote in the rendered text of its source message.
 *
 * The document, quote and context are normalized the same way (each whitespace run becomes one
 * space) and compared case-sensitively; occurrences may overlap. An occurrence is
 * context-matching when the normalized text directly before it equals the prefix and the text
 * directly after it equals the suffix (an empty side always matches). The result is:
 * - exactly one context-matching occurrence: `found` there;
 * - none context-matching but exactly one occurrence: `found` there (the context changed);
 * - several context-matching occurrences: `ambiguous` with their count, even if one sits at the
 *   saved offsets (the saved offsets never break a tie, so they are not consulted at all);
 * - several occurrences and none context-matching: `ambiguous` with the number of occurrences;
 * - no occurrence (or a blank quote): `missing`.
 *
 * Accepts any object with the selector fields (an `AssistantCitation` too) and never throws.
 * Runs in linear time for ordinary quotes: `indexOf` finds candidates in the raw text and context
 * is compared in place, without building the normalized document or slicing.
 */
export function findAssistantCitationText(
  rendered: string,
  selector: Pick<AssistantCitationSelector, "text" | "prefix" | "suffix"> &
    Partial<Pick<AssistantCitationSelector, "start" | "end">>,
): AssistantCitationTextMatch {
  if (typeof rendered !== "string" || selector === null || typeof selector !== "object") {
    return MISSING;
  }
  if (typeof selector.text !== "string") return MISSING;
  const quote = normalizeRenderedText(selector.text);
  if (!/\S/.test(quote)) return MISSING;

  // Each side is compared literally with the normalized document, so a prefix ending in a
  // space never matches before a quote starting with one (the document has no double spaces).
  const prefix = typeof selector.prefix === "string" ? normalizeRenderedText(selector.prefix) : "";
  const suffix = typeof selector.suffix === "string" ? normalizeRenderedText(selector.suffix) : "";

  return (
    findInRawText(rendered, quote, prefix, suffix) ??
    findInNormalizedText(normalizeRenderedText(rendered), quote, prefix, suffix)
  );
}

/** Tallies occurrences as they are found and turns them into the result. */
class OccurrenceTally {
  occurrences = 0;
  firstOccurrence = -1;
  contextMatches = 0;
  firstContextMatch = -1;

  add(at: number, contextMatches: boolean): void {
    this.occurrences++;
    if (this.firstOccurrence === -1) this.firstOccurrence = at;
    if (contextMatches) {
      this.contextMatches++;
      if (this.firstContextMatch === -1) this.firstContextMatch = at;
    }
  }

  /** The decision of DESIGN.md section 4; `toNormalized` maps a recorded position to an offset. */
  result(quoteLength: number, toNormalized: (at: number) => number): AssistantCitationTextMatch {
    if (this.contextMatches === 1) return found(toNormalized(this.firstContextMatch), quoteLength);
    if (this.contextMatches > 1) return { status: "ambiguous", count: this.contextMatches };
    if (this.occurrences === 1) return found(toNormalized(this.firstOccurrence), quoteLength);
    if (this.occurrences > 1) return { status: "ambiguous", count: this.occurrences };
    return MISSING;
  }
}

/**
 * Searches the raw text directly, so the (large) normalized document is never built. The
 * quote's longest space-free token is the anchor: it contains no whitespace, so `indexOf` finds
 * it in the raw text exactly where it appears in the normalized text, and each occurrence of
 * the quote holds exactly one anchor hit. Around each hit the rest of the quote and its context
 * are compared in place, a space standing for a whole whitespace run. Only the chosen
 * occurrence's raw offset is converted to a normalized offset.
 *
 * Returns `null` (the caller then searches the normalized text) when the anchor hits are so
 * frequent that checking them would cost more than a few passes over the text.
 */
function findInRawText(
  raw: string,
  quote: string,
  prefix: string,
  suffix: string,
): AssistantCitationTextMatch | null {
  const [anchorOffset, anchorLength] = longestToken(quote);
  const anchor = quote.slice(anchorOffset, anchorOffset + anchorLength);
  const head = quote.slice(0, anchorOffset);
  const tail = quote.slice(anchorOffset + anchorLength);
  const budget = 8 * raw.length + 65_536;
  let work = 0;
  const tally = new OccurrenceTally();

  for (let hit = raw.indexOf(anchor); hit !== -1; hit = raw.indexOf(anchor, hit + 1)) {
    const end = walkForward(raw, hit + anchorLength, tail);
    work += (end < 0 ? ~end : end) - hit;
    if (work > budget) return null;
    if (end < 0) continue;
    const start = walkBackward(raw, hit, head);
    work += hit - (start < 0 ? ~start : start);
    if (start < 0) continue;
    const prefixMatches = prefix === "" || walkBackward(raw, start, prefix) >= 0;
    const suffixMatches = suffix === "" || walkForward(raw, end, suffix) >= 0;
    work += prefix.length + suffix.length;
    tally.add(start, prefixMatches && suffixMatches);
  }
  // Occurrences start on a non-whitespace unit or at the first unit of a whitespace run, so the
  // normalized length of the raw text before them is their normalized offset.
  return tally.result(quote.length, (rawStart) => normalizedLengthOf(raw, rawStart));
}

/*
 * The walks below match a normalized pattern (single spaces, no other whitespace, never two
 * spaces in a row) against the raw text, a space standing for a whole whitespace run. They first
 * try a plain `startsWith`: in the raw text a literal match can only put a single space where a
 * space is, between two non-whitespace units, so it is a real match once a space at the
 * pattern's far edge is widened to its whole run. Otherwise they compare unit by unit. Each
 * returns the raw far end of the match, or the bitwise complement (a negative number) of where
 * it failed. A context side is walked from a quote edge that already took in its whole
 * whitespace run, so a side starting (or ending) with a space next to a quote edge space finds
 * no whitespace there and fails, exactly as in the normalized document.
 */

/** Matches all of `pattern` against `raw` starting at `at`; returns the raw end. */
function walkForward(raw: string, at: number, pattern: string): number {
  const length = raw.length;
  let i = at;
  if (raw.startsWith(pattern, at)) {
    i += pattern.length;
    if (pattern.endsWith(" "))
      while (i < length && isRenderedWhitespaceCode(raw.charCodeAt(i))) i++;
    return i;
  }
  for (let j = 0; j < pattern.length; j++) {
    const code = pattern.charCodeAt(j);
    if (code === 32) {
      if (i >= length || !isRenderedWhitespaceCode(raw.charCodeAt(i))) return ~i;
      i++;
      while (i < length && isRenderedWhitespaceCode(raw.charCodeAt(i))) i++;
    } else {
      if (i >= length || raw.charCodeAt(i) !== code) return ~i;
      i++;
    }
  }
  return i;
}

/** Matches all of `pattern` against `raw` ending just before `at`; returns the raw start. */
function walkBackward(raw: string, at: number, pattern: string): number {
  let i = at - pattern.length;
  if (i >= 0 && raw.startsWith(pattern, i)) {
    if (pattern.startsWith(" "))
      while (i > 0 && isRenderedWhitespaceCode(raw.charCodeAt(i - 1))) i--;
    return i;
  }
  i = at;
  for (let j = pattern.length - 1; j >= 0; j--) {
    const code = pattern.charCodeAt(j);
    if (code === 32) {
      if (i <= 0 || !isRenderedWhitespaceCode(raw.charCodeAt(i - 1))) return ~i;
      i--;
      while (i > 0 && isRenderedWhitespaceCode(raw.charCodeAt(i - 1))) i--;
    } else {
      if (i <= 0 || raw.charCodeAt(i - 1) !== code) return ~i;
      i--;
    }
  }
  return i;
}

/** `[offset, length]` of the first longest run of non-space units in a normalized string. */
function longestToken(normalized: string): [number, number] {
  let bestOffset = 0;
  let bestLength = 0;
  let runStart = 0;
  for (let i = 0; i <= normalized.length; i++) {
    if (i === normalized.length || normalized.charCodeAt(i) === 32) {
      if (i - runStart > bestLength) {
        bestOffset = runStart;
        bestLength = i - runStart;
      }
      runStart = i + 1;
    }
  }
  return [bestOffset, bestLength];
}

/**
 * The fallback search over the normalized document: `indexOf` for candidates (stepping by the
 * quote's smallest period so overlapping occurrences are all seen) and in-place context checks.
 */
function findInNormalizedText(
  document: string,
  quote: string,
  prefix: string,
  suffix: string,
): AssistantCitationTextMatch {
  const quoteLength = quote.length;
  const prefixLength = prefix.length;
  const period = smallestPeriod(quote);
  const periodTail = quote.slice(quoteLength - period);
  const tally = new OccurrenceTally();

  let at = document.indexOf(quote);
  while (at !== -1) {
    const prefixMatches =
      prefixLength === 0 || (at >= prefixLength && document.startsWith(prefix, at - prefixLength));
    const suffixMatches = suffix === "" || document.startsWith(suffix, at + quoteLength);
    tally.add(at, prefixMatches && suffixMatches);
    at = nextOccurrence(document, quote, at, period, periodTail);
  }
  return tally.result(quoteLength, (at) => at);
}

function found(start: number, length: number): AssistantCitationTextMatch {
  return { status: "found", start, end: start + length };
}

/**
 * The next occurrence of `quote` after the one at `at`. Two occurrences can only be closer than
 * `quote.length` when their distance is a period of the quote; at the smallest period `p` the
 * overlap is already known to match, so only the last `p` units need checking. This keeps
 * self-overlapping quotes ("aaa" in "aaaa…") linear instead of re-comparing the whole quote.
 */
function nextOccurrence(
  document: string,
  quote: string,
  at: number,
  period: number,
  periodTail: string,
): number {
  if (period === quote.length) return document.indexOf(quote, at + period);
  if (document.startsWith(periodTail, at + quote.length)) return at + period;
  return document.indexOf(quote, at + period + 1);
}

/** Smallest `p > 0` with `s[i] === s[i + p]` for all valid `i` (Knuth-Morris-Pratt border). */
function smallestPeriod(s: string): number {
  const length = s.length;
  const border = new Int32Array(length);
  let k = 0;
  for (let i = 1; i < length; i++) {
    const code = s.charCodeAt(i);
    while (k > 0 && s.charCodeAt(k) !== code) k = border[k - 1]!;
    if (s.charCodeAt(k) === code) k++;
    border[i] = k;
  }
  return length - (length === 0 ? 0 : border[length - 1]!);
}
