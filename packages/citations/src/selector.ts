import { ASSISTANT_CITATION_CONTEXT_LENGTH as CONTEXT_LENGTH } from "./constants.ts";
import {
  isRenderedWhitespaceCode,
  normalizedLengthOf,
  normalizeRenderedText,
} from "./normalize.ts";
import { truncateText, truncateTextStart } from "./truncate.ts";

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

/**
 * Builds the selector for the raw selection `[rawStart, rawEnd)` of `rendered`.
 *
 * `text` is `rendered.slice(rawStart, rawEnd)`. A selection that starts inside a whitespace run
 * starts at that run's single space (and one that ends inside a run ends just after it), so
 * `normalized.slice(start, end)` always equals `normalizeRenderedText(text)`. `prefix`/`suffix`
 * hold up to 32 normalized units; a window whose far edge would split a surrogate pair loses
 * that one unit. Returns `null` for a blank (whitespace-only or empty) selection and for
 * reversed, out-of-range or non-integer offsets. The quote length is not checked here.
 * Linear time, without building the whole normalized text.
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

  // Work from normalized-unit boundaries in the raw text: a whitespace run is one unit, so a
  // selection starting inside a run starts at the run's first unit (its single space), and one
  // ending inside a run ends after the whole run.
  const startsInsideRun =
    rawStart > 0 && isWhitespaceAt(rendered, rawStart - 1) && isWhitespaceAt(rendered, rawStart);
  const quoteStart = startsInsideRun ? skipWhitespaceBackward(rendered, rawStart) : rawStart;
  const endsInsideRun =
    isWhitespaceAt(rendered, rawEnd - 1) &&
    rawEnd < rendered.length &&
    isWhitespaceAt(rendered, rawEnd);
  const quoteEnd = endsInsideRun ? skipWhitespaceForward(rendered, rawEnd) : rawEnd;

  const start = normalizedLengthOf(rendered, quoteStart);
  const end = start + normalizedLengthOf(text);

  // One unit more than the window, to see whether its far edge would split a surrogate pair.
  const before = normalizeRenderedText(
    rendered.slice(unitsBackward(rendered, quoteStart, CONTEXT_LENGTH + 1), quoteStart),
  );
  const after = normalizeRenderedText(
    rendered.slice(quoteEnd, unitsForward(rendered, quoteEnd, CONTEXT_LENGTH + 1)),
  );

  return {
    text,
    start,
    end,
    prefix: truncateTextStart(before, CONTEXT_LENGTH),
    suffix: truncateText(after, CONTEXT_LENGTH),
  };
}

const isWhitespaceAt = (text: string, index: number) =>
  isRenderedWhitespaceCode(text.charCodeAt(index));

function skipWhitespaceBackward(text: string, at: number): number {
  let i = at;
  while (i > 0 && isWhitespaceAt(text, i - 1)) i--;
  return i;
}

function skipWhitespaceForward(text: string, at: number): number {
  let i = at;
  while (i < text.length && isWhitespaceAt(text, i)) i++;
  return i;
}

/** Raw start of the `units` normalized units that end at the unit boundary `at`. */
function unitsBackward(text: string, at: number, units: number): number {
  let i = at;
  for (let n = 0; n < units && i > 0; n++) {
    i = isWhitespaceAt(text, i - 1) ? skipWhitespaceBackward(text, i) : i - 1;
  }
  return i;
}

/** Raw end of the `units` normalized units that start at the unit boundary `at`. */
function unitsForward(text: string, at: number, units: number): number {
  let i = at;
  for (let n = 0; n < units && i < text.length; n++) {
    i = isWhitespaceAt(text, i) ? skipWhitespaceForward(text, i) : i + 1;
  }
  return i;
}
