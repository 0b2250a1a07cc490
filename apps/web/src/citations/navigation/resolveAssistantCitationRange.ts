/**
 * Finding a citation's text again in a rendered message, as a DOM range (spec: "Selection and
 * source matching"). Uses the same rendered-text stream as capture, so offsets compare; the
 * match itself is the kernel's. Reads a live DOM and never changes it.
 */
import {
  type AssistantCitationSelector,
  buildNormalizedRenderedText,
  findAssistantCitationText,
  isRenderedWhitespaceCode,
  normalizedRangeToRaw,
} from "@app/citations";
import {
  buildRenderedTextStream,
  streamRangeToDomRange,
} from "../../renderedText/renderedTextStream.ts";

/** Where a citation's text is in a rendered message, as a DOM range. */
export type AssistantCitationRangeResolution =
  | { status: "found"; range: Range }
  | { status: "ambiguous"; count: number }
  | { status: "missing" };

/** Number of whitespace units at the start of `text` from `from` on (at most up to `limit`). */
function whitespaceRunForward(text: string, from: number, limit: number): number {
  let i = from;
  while (i < limit && isRenderedWhitespaceCode(text.charCodeAt(i))) i++;
  return i - from;
}

function whitespaceRunBackward(text: string, to: number, limit: number): number {
  let i = to;
  while (i > limit && isRenderedWhitespaceCode(text.charCodeAt(i - 1))) i--;
  return to - i;
}

/**
 * Finds `citation` in the rendered text of `root` (its message body) with the kernel's
 * `findAssistantCitationText` (same normalization, case-sensitive, context first, never
 * guessing between several matches) and maps the match to a DOM range.
 *
 * A match edge on a collapsed space covers a whole whitespace run in the raw stream; the range
 * keeps only as much of that run as the saved quote itself starts or ends with, so re-finding a
 * captured quote gives back the captured range.
 */
export function resolveAssistantCitationRange(
  root: Element,
  citation: Pick<AssistantCitationSelector, "text" | "prefix" | "suffix">,
): AssistantCitationRangeResolution {
  const stream = buildRenderedTextStream(root);
  const match = findAssistantCitationText(stream.text, citation);
  if (match.status !== "found") return match;
  const map = buildNormalizedRenderedText(stream.text);
  const raw = normalizedRangeToRaw(map, match.start, match.end);
  const quote = citation.text;
  let start = raw.start;
  let end = raw.end;
  const leading = whitespaceRunForward(quote, 0, quote.length);
  const runAtStart = whitespaceRunForward(stream.text, start, end);
  start += Math.max(0, runAtStart - leading);
  const trailing = whitespaceRunBackward(quote, quote.length, 0);
  const runAtEnd = whitespaceRunBackward(stream.text, end, start);
  end -= Math.max(0, runAtEnd - trailing);
  return { status: "found", range: streamRangeToDomRange(stream, start, end) };
}
