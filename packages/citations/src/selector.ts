import { ASSISTANT_CITATION_CONTEXT_LENGTH as CONTEXT_LENGTH } from "./constants.ts";
import { isRenderedWhitespaceCode, normalizeRenderedText } from "./normalize.ts";

/**
 * Where a quote sits in a rendered text: the exact raw excerpt plus its position and context in
 * the normalized text. An `AssistantCitation` has every one of these fields.
 */
export interface AssistantCitationSelector {
  /** The exact raw excerpt, line breaks and indentation included. */
  text: string;
  /** Start offset, in UTF-16 units of `normalizeRenderedText(rendered)`. */
  start: number;
  /** End offset (exclusive) in the same units; `normalized.slice(start, end)` is the normalized quote. */
  end: number;
  /** Up to 32 units of normalized text directly before `start`. */
  prefix: string;
  /** Up to 32 units of normalized text directly after `end`. */
  suffix: string;
}

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;
const isLowSurrogate = (code: number) => code >= 0xdc00 && code <= 0xdfff;

/**
 * Builds the selector for the raw selection `[rawStart, rawEnd)` of `rendered`.
 *
 * `text` is `rendered.slice(rawStart, rawEnd)`. A selection that starts inside a whitespace run
 * starts at that run's single space, so `normalized.slice(start, end)` always equals
 * `normalizeRenderedText(text)`. Context windows never split a surrogate pair: a window that
 * would loses that one unit. Returns `null` for a blank (whitespace-only or empty) selection and
 * for reversed, out-of-range or non-integer offsets. The quote length is not checked here.
 */
export function createAssistantCitationSelector(
  rendered: string,
  rawStart: number,
  rawEnd: number,
): AssistantCitationSelector | null {
  if (typeof rendered !== "string") return null;
  if (!Number.isSafeInteger(rawStart) || !Number.isSafeInteger(rawEnd)) return null;
  if (rawStart < 0 || rawEnd > rendered.length || rawEnd <= rawStart) return null;

  const text = rendered.slice(rawStart, rawEnd);
  if (!/\S/.test(text)) return null;

  const normalized = normalizeRenderedText(rendered);
  // rawStart < rawEnd <= length, so charCodeAt(rawStart) is a real unit.
  const startsInsideRun =
    rawStart > 0 &&
    isRenderedWhitespaceCode(rendered.charCodeAt(rawStart - 1)) &&
    isRenderedWhitespaceCode(rendered.charCodeAt(rawStart));
  // Normalizing the text before the selection ends with the run's space when the selection starts
  // inside that run; step back onto it so the quote's own leading space is that space.
  const start =
    normalizeRenderedText(rendered.slice(0, rawStart)).length - (startsInsideRun ? 1 : 0);
  const end = start + normalizeRenderedText(text).length;

  let prefixStart = Math.max(0, start - CONTEXT_LENGTH);
  if (
    prefixStart > 0 &&
    isLowSurrogate(normalized.charCodeAt(prefixStart)) &&
    isHighSurrogate(normalized.charCodeAt(prefixStart - 1))
  ) {
    prefixStart++;
  }
  let suffixEnd = Math.min(normalized.length, end + CONTEXT_LENGTH);
  if (
    suffixEnd < normalized.length &&
    isHighSurrogate(normalized.charCodeAt(suffixEnd - 1)) &&
    isLowSurrogate(normalized.charCodeAt(suffixEnd))
  ) {
    suffixEnd--;
  }

  return {
    text,
    start,
    end,
    prefix: normalized.slice(prefixStart, start),
    suffix: normalized.slice(end, suffixEnd),
  };
}
