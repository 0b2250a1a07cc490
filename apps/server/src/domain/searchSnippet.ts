/**
 * The snippet of a search-all-threads match (issue 31, `GET /api/search`): a short excerpt of a
 * message's rendered text around its first match, built here once for both stores (each store
 * only hands the domain candidate texts; `crossThreadSearch.ts` calls {@link snippetOf}).
 *
 * Rules, in this order:
 * - The first match is kept whole. Around it go at most {@link SNIPPET_BEFORE} UTF-16 units
 *   before it and {@link SNIPPET_AFTER} after it, each "…" counted in its side.
 * - A side cut short of the text's own start or end shows "…" there, and only there.
 * - A cut falls between words: preferably where whitespace separates them (the whitespace left
 *   out), else at any word boundary (never between two letters, digits, marks or `_`: the word
 *   characters of whole-word matching, `findTextMatches`). A word longer than the room of its
 *   side (a URL, a hash) is the one exception: it is cut inside, still with "…".
 * - A cut never splits a surrogate pair, and never falls before a combining mark or an emoji
 *   modifier or next to a zero-width joiner.
 * - Line breaks and tabs become spaces (the snippet is one line) and `text` keeps the rendered
 *   text's UTF-16 length otherwise, so `ranges` (the matches inside the snippet, clipped to it)
 *   index `text` exactly: `text.slice(from, to)` is the matched text.
 */
import type { AllThreadsSearchMatch, SearchRange } from "@app/protocol";

/** Most UTF-16 units of context before the first match, a leading "…" included. */
export const SNIPPET_BEFORE = 40;
/** Most UTF-16 units of context after the first match, a trailing "…" included. */
export const SNIPPET_AFTER = 80;
/** Shown where the snippet cuts the text (one UTF-16 unit). */
export const SNIPPET_ELLIPSIS = "…";

export type SearchSnippet = AllThreadsSearchMatch["snippet"];

/**
 * The snippet of `text` around the first of `ranges` (sorted, half-open, UTF-16 offsets into
 * `text`). `start` is the offset in `text` of the first character shown after a leading "…"
 * (there is one exactly when `start > 0`); `ranges` index the snippet's own `text`, "…"
 * included.
 */
export function snippetOf(text: string, ranges: readonly SearchRange[]): SearchSnippet {
  const [first] = ranges;
  if (!first) return { text: "", start: 0, ranges: [] };
  const from = clamp(first[0], 0, text.length);
  const to = clamp(first[1], from, text.length);
  const start = cutBefore(text, from);
  const end = cutAfter(text, to);
  const lead = start > 0 ? SNIPPET_ELLIPSIS : "";
  const tail = end < text.length ? SNIPPET_ELLIPSIS : "";
  const inside: SearchRange[] = [];
  for (const [s, e] of ranges) {
    if (s >= end) break;
    if (e <= start || e <= s) continue;
    inside.push([Math.max(s, start) - start + lead.length, Math.min(e, end) - start + lead.length]);
  }
  return {
    text: lead + text.slice(start, end).replace(/[\r\n\t]/g, " ") + tail,
    start,
    ranges: inside,
  };
}

/** Where the snippet starts: 0, or a cut at most `SNIPPET_BEFORE - 1` units before `from`. */
function cutBefore(text: string, from: number): number {
  if (from <= SNIPPET_BEFORE) return 0;
  const earliest = from - (SNIPPET_BEFORE - SNIPPET_ELLIPSIS.length);
  // Where a word follows whitespace (the whitespace left out), or the match follows it.
  for (let p = earliest; p <= from; p++) {
    if (isSpace(text, p - 1) && (p === from || !isSpace(text, p)) && canCut(text, p)) return p;
  }
  // At a word boundary.
  for (let p = earliest; p <= from; p++) {
    if (canCut(text, p) && isWordBoundary(text, p)) return p;
  }
  // Inside a word longer than the room: the first cut that splits no character.
  for (let p = earliest; p <= from; p++) if (canCut(text, p)) return p;
  return isInsidePair(text, from) ? from - 1 : from;
}

/** Where the snippet ends: `text.length`, or a cut at most `SNIPPET_AFTER - 1` units after `to`. */
function cutAfter(text: string, to: number): number {
  if (text.length - to <= SNIPPET_AFTER) return text.length;
  const latest = to + (SNIPPET_AFTER - SNIPPET_ELLIPSIS.length);
  // Where whitespace follows a word (the whitespace left out), or follows the match.
  for (let q = latest; q >= to; q--) {
    if (isSpace(text, q) && (q === to || !isSpace(text, q - 1)) && canCut(text, q)) return q;
  }
  // At a word boundary.
  for (let q = latest; q >= to; q--) {
    if (canCut(text, q) && isWordBoundary(text, q)) return q;
  }
  // Inside a word longer than the room: the last cut that splits no character.
  for (let q = latest; q >= to; q--) if (canCut(text, q)) return q;
  return isInsidePair(text, to) ? to + 1 : to;
}

const WORD_CHAR = /[\p{L}\p{N}\p{M}_]/u;
/** Characters that belong to the one before them: a cut never falls right before one. */
const JOINS_PREVIOUS = /^[\p{M}\p{Emoji_Modifier}\u200d]/u;
const ZWJ = 0x200d;

function isSpace(text: string, at: number): boolean {
  if (at < 0 || at >= text.length) return false;
  return /\s/.test(text[at]!);
}

function isInsidePair(text: string, at: number): boolean {
  return (
    at > 0 &&
    at < text.length &&
    isHighSurrogate(text.charCodeAt(at - 1)) &&
    isLowSurrogate(text.charCodeAt(at))
  );
}

/**
 * `at` splits no character: no surrogate pair, no mark or modifier from its base, no ZWJ from
 * what it joins.
 */
function canCut(text: string, at: number): boolean {
  if (at <= 0 || at >= text.length) return true;
  if (isInsidePair(text, at)) return false;
  if (text.charCodeAt(at - 1) === ZWJ && !isSpace(text, at)) return false;
  return !JOINS_PREVIOUS.test(String.fromCodePoint(text.codePointAt(at)!));
}

/** Not between two word characters (letters, digits, marks, `_`). */
function isWordBoundary(text: string, at: number): boolean {
  return !(WORD_CHAR.test(codePointBefore(text, at)) && WORD_CHAR.test(codePointAt(text, at)));
}

function codePointBefore(text: string, at: number): string {
  if (at <= 0) return "";
  if (at >= 2 && isInsidePair(text, at - 1)) return text.slice(at - 2, at);
  return text.slice(at - 1, at);
}

function codePointAt(text: string, at: number): string {
  return at >= text.length ? "" : String.fromCodePoint(text.codePointAt(at)!);
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}
