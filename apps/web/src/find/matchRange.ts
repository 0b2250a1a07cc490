/**
 * From a search match (stream offsets sent by the server) to the DOM range of the words on the
 * page. The offsets index the message body's rendered-text stream (`renderedTextStream.ts`), the
 * same text the server computes from the Markdown. They are trusted only when the text at those
 * offsets is the query (case-folded unless matching case); otherwise the match's n-th
 * occurrence in the stream text is used, and when that is missing too, nothing: a wrong range is
 * never highlighted. Reads a live DOM; changes nothing.
 */
import {
  buildRenderedTextStream,
  type RenderedTextStream,
  streamRangeToDomRange,
} from "../renderedText/renderedTextStream.ts";
import type { FindMatch } from "./findState.ts";
import { type FindOptions, findOccurrences, textMatchesQuery } from "./textMatches.ts";

/** What a match is looked for with. */
export type FindQuery = { query: string; options: FindOptions };

/** The rendered body of a message (user or assistant) under `root`, when its row is mounted. */
export function messageBody(root: ParentNode, messageId: string): Element | null {
  return root.querySelector(`[data-message-id="${CSS.escape(messageId)}"] > .message__body`);
}

/** The `[start, end)` stream offsets that show `match`, or null when the text holds no such match. */
export function matchOffsets(
  text: string,
  match: Pick<FindMatch, "start" | "end" | "occurrence">,
  { query, options }: FindQuery,
): [number, number] | null {
  if (
    match.end <= text.length &&
    textMatchesQuery(text.slice(match.start, match.end), query, options)
  ) {
    return [match.start, match.end];
  }
  return findOccurrences(text, query, options)[match.occurrence] ?? null;
}

/** The DOM range of `match` in `stream` (see the module doc), or null. */
export function matchRangeInStream(
  stream: RenderedTextStream,
  match: Pick<FindMatch, "start" | "end" | "occurrence">,
  find: FindQuery,
): Range | null {
  const offsets = matchOffsets(stream.text, match, find);
  return offsets === null ? null : streamRangeToDomRange(stream, offsets[0], offsets[1]);
}

/** The DOM range of `match` in its message body `body`, or null. */
export function locateMatch(body: Element, match: FindMatch, find: FindQuery): Range | null {
  return matchRangeInStream(buildRenderedTextStream(body), match, find);
}

/** The DOM ranges of several matches of one message body (one stream built for all). */
export function locateMatches(
  body: Element,
  matches: readonly FindMatch[],
  find: FindQuery,
): Range[] {
  if (matches.length === 0) return [];
  const stream = buildRenderedTextStream(body);
  const ranges: Range[] = [];
  for (const match of matches) {
    const range = matchRangeInStream(stream, match, find);
    if (range !== null) ranges.push(range);
  }
  return ranges;
}
