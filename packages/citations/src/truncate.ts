/**
 * Cutting text to a length in UTF-16 units without splitting a surrogate pair: the one rule for
 * chip labels, previews, context windows and capped stored text, so no caller re-codes it.
 */

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;
const isLowSurrogate = (code: number) => code >= 0xdc00 && code <= 0xdfff;

/**
 * `text` when it has at most `max` UTF-16 units; otherwise its first `max` units, one fewer when
 * the cut would fall between the halves of a surrogate pair. With `ellipsis`, a cut text also
 * loses its trailing whitespace and ends with `ellipsis` (which comes on top of `max`).
 */
export function truncateText(text: string, max: number, ellipsis = ""): string {
  if (text.length <= max) return text;
  if (max <= 0) return ellipsis;
  const splitsPair =
    isHighSurrogate(text.charCodeAt(max - 1)) && isLowSurrogate(text.charCodeAt(max));
  const kept = text.slice(0, splitsPair ? max - 1 : max);
  return ellipsis === "" ? kept : `${kept.trimEnd()}${ellipsis}`;
}

/** The last `max` UTF-16 units of `text`, one fewer when the cut would split a surrogate pair. */
export function truncateTextStart(text: string, max: number): string {
  if (text.length <= max) return text;
  if (max <= 0) return "";
  const start = text.length - max;
  const splitsPair =
    isLowSurrogate(text.charCodeAt(start)) && isHighSurrogate(text.charCodeAt(start - 1));
  return text.slice(splitsPair ? start + 1 : start);
}
