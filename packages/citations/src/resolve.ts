import { normalizeRenderedText } from "./normalize.ts";
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
 * Because normalization is applied as if prefix, quote and suffix were one string, a context
 * side ending in a space next to a quote edge that is a space counts that space once.
 *
 * Accepts any object with the selector fields (an `AssistantCitation` too) and never throws.
 * Runs in linear time for ordinary quotes: `indexOf` finds candidates, and context is compared
 * in place without slicing.
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

  let prefix = typeof selector.prefix === "string" ? normalizeRenderedText(selector.prefix) : "";
  let suffix = typeof selector.suffix === "string" ? normalizeRenderedText(selector.suffix) : "";
  // In one normalized string the boundary between context and quote cannot hold two spaces.
  if (quote.startsWith(" ") && prefix.endsWith(" ")) prefix = prefix.slice(0, -1);
  if (quote.endsWith(" ") && suffix.startsWith(" ")) suffix = suffix.slice(1);

  const document = normalizeRenderedText(rendered);
  const quoteLength = quote.length;
  const prefixLength = prefix.length;
  const period = smallestPeriod(quote);
  const periodTail = quote.slice(quoteLength - period);

  let occurrences = 0;
  let firstOccurrence = -1;
  let contextMatches = 0;
  let firstContextMatch = -1;

  let at = document.indexOf(quote);
  while (at !== -1) {
    occurrences++;
    if (firstOccurrence === -1) firstOccurrence = at;
    const prefixMatches =
      prefixLength === 0 || (at >= prefixLength && document.startsWith(prefix, at - prefixLength));
    if (prefixMatches && (suffix === "" || document.startsWith(suffix, at + quoteLength))) {
      contextMatches++;
      if (firstContextMatch === -1) firstContextMatch = at;
    }
    at = nextOccurrence(document, quote, at, period, periodTail);
  }

  if (contextMatches === 1) return found(firstContextMatch, quoteLength);
  if (contextMatches > 1) return { status: "ambiguous", count: contextMatches };
  if (occurrences === 1) return found(firstOccurrence, quoteLength);
  if (occurrences > 1) return { status: "ambiguous", count: occurrences };
  return MISSING;
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
