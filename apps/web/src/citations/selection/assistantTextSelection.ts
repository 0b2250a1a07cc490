/**
 * Capturing a DOM selection as an assistant citation (spec: "Selection and source matching").
 * Finding a citation's text again is `resolveAssistantCitationRange.ts`; the narrowing of a range
 * to displayed text is `narrowRangeToSelectedText.ts`. The offsets and context come from the
 * pure kernel in `@app/citations`; this module only reads the DOM to build the rendered-text
 * stream (`renderedTextStream.ts`) and maps between stream offsets and DOM positions.
 *
 * Every function here reads a live DOM; none of them changes it or the document selection.
 */
import {
  ASSISTANT_CITATION_MAX_TEXT_LENGTH,
  type AssistantCitation,
  AssistantCitationSchema,
  createAssistantCitationSelector,
} from "@app/citations";
import {
  buildRenderedTextStream,
  domPointToStreamOffset,
  streamRangeToDomRange,
} from "../../renderedText/renderedTextStream.ts";
import { narrowRangeToSelectedText } from "./narrowRangeToSelectedText.ts";
import { selectionRange } from "./selectionRange.ts";

/** The attribute on each assistant message body; its value is the message id. */
export const ASSISTANT_CITATION_SOURCE_ATTRIBUTE = "data-assistant-citation-source";

const SOURCE_SELECTOR = `[${ASSISTANT_CITATION_SOURCE_ATTRIBUTE}]`;

/** The ids a captured citation needs besides the message id (which comes from the DOM). */
export type AssistantCitationContext = { environmentId: string; threadId: string };

/** A selection captured inside one assistant response. */
export type AssistantTextSelectionCapture = {
  /**
   * The citation, version 1, without a comment. When {@link overLimit} is true its `text` is
   * longer than the wire format allows: it must not be serialized (the schema rejects it).
   */
  citation: AssistantCitation;
  /** The cited text in the DOM: the selection narrowed to the displayed text it covers. */
  range: Range;
  /** The message body (`[data-assistant-citation-source]`) holding the selection. */
  source: Element;
  /** True when `citation.text` is longer than `ASSISTANT_CITATION_MAX_TEXT_LENGTH` units. */
  overLimit: boolean;
};

/** Why a selection cannot be cited. */
export type AssistantTextSelectionRejectReason =
  /**
   * No range, a collapsed range, or one that covers no displayed non-whitespace text (a double
   * click on a space, a selection of a button label, a selection of whitespace between blocks).
   */
  | "empty"
  /** An end of the selection is not inside an assistant response. */
  | "outside-response"
  /** The selection spans two or more responses. */
  | "multiple-responses"
  /** The selected stream slice is only whitespace (a safety net: narrowing reports most as `empty`). */
  | "blank"
  /** The environment, thread or message id cannot appear in a citation (blank, too long). */
  | "invalid-source";

/** A selection that cannot be cited: `citation` is null and `reason` says why. */
export type AssistantTextSelectionRejection = {
  citation: null;
  reason: AssistantTextSelectionRejectReason;
  /** A sentence for logs and tests; not meant for end users. */
  message: string;
};

/** The outcome of {@link captureAssistantTextSelection}; test `citation === null` first. */
export type AssistantTextSelectionResult =
  | AssistantTextSelectionCapture
  | AssistantTextSelectionRejection;

const reject = (
  reason: AssistantTextSelectionRejectReason,
  message: string,
): AssistantTextSelectionRejection => ({ citation: null, reason, message });

/** The range to cite: the selection's one range (see selectionRange), or the range itself. */
function rangeOf(selection: Selection | Range): Range | null {
  return "rangeCount" in selection ? selectionRange(selection) : selection;
}

function sourceOf(node: Node): Element | null {
  const element = node.nodeType === Node.ELEMENT_NODE ? (node as Element) : node.parentElement;
  return element?.closest(SOURCE_SELECTOR) ?? null;
}

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;
const isLowSurrogate = (code: number) => code >= 0xdc00 && code <= 0xdfff;

/** Whether `offset` falls between the two halves of a surrogate pair in `text`. */
function splitsSurrogatePair(text: string, offset: number): boolean {
  return (
    offset > 0 &&
    offset < text.length &&
    isHighSurrogate(text.charCodeAt(offset - 1)) &&
    isLowSurrogate(text.charCodeAt(offset))
  );
}

/**
 * Captures one native DOM selection (or range) inside one assistant response as a citation.
 *
 * Steps: the range (for a multi-range Selection, from the first start to the last end; backward
 * selections need nothing special since ranges are always forward) is narrowed to the displayed
 * text it selects ({@link narrowRangeToSelectedText}); both ends must then lie in the same
 * `[data-assistant-citation-source]` element, whose value is the message id. The rendered-text
 * stream of that element gives the raw offsets (an end splitting a surrogate pair takes in the
 * whole character), and `createAssistantCitationSelector` the quote, offsets and context. The
 * quote keeps line breaks and indentation exactly as displayed.
 *
 * A quote longer than `ASSISTANT_CITATION_MAX_TEXT_LENGTH` is still returned, with
 * `overLimit: true`, so the toolbar can say why it cannot be cited. Never throws for a selection
 * outside the app; rejections carry a reason.
 */
export function captureAssistantTextSelection(
  selection: Selection | Range,
  context: AssistantCitationContext,
): AssistantTextSelectionResult {
  const range = rangeOf(selection);
  if (range === null || range.collapsed) return reject("empty", "Nothing is selected.");
  const narrowed = narrowRangeToSelectedText(range);
  if (narrowed === null) return reject("empty", "The selection holds no displayed text.");

  const source = sourceOf(narrowed.startContainer);
  const endSource = sourceOf(narrowed.endContainer);
  if (source === null || endSource === null) {
    return reject("outside-response", "The selection is not inside an assistant response.");
  }
  if (source !== endSource) {
    return reject("multiple-responses", "The selection spans more than one assistant response.");
  }

  const stream = buildRenderedTextStream(source);
  let start = domPointToStreamOffset(
    stream,
    narrowed.startContainer,
    narrowed.startOffset,
    "start",
  );
  let end = domPointToStreamOffset(stream, narrowed.endContainer, narrowed.endOffset, "end");
  if (splitsSurrogatePair(stream.text, start)) start--;
  if (splitsSurrogatePair(stream.text, end)) end++;
  const selector = createAssistantCitationSelector(stream.text, start, end);
  if (selector === null) return reject("blank", "Only whitespace is selected.");

  const citation: AssistantCitation = {
    version: 1,
    environmentId: context.environmentId,
    threadId: context.threadId,
    messageId: source.getAttribute(ASSISTANT_CITATION_SOURCE_ATTRIBUTE) ?? "",
    ...selector,
  };
  const overLimit = citation.text.length > ASSISTANT_CITATION_MAX_TEXT_LENGTH;
  // Everything but the quote's length must already be valid; a stand-in quote checks the rest.
  const checked = AssistantCitationSchema.safeParse(
    overLimit ? { ...citation, text: "x" } : citation,
  );
  if (!checked.success) {
    const issue = checked.error.issues[0];
    return reject(
      "invalid-source",
      `This response cannot be cited: ${issue ? `${issue.path.join(".")}: ${issue.message}` : "invalid citation"}.`,
    );
  }
  return {
    citation,
    range: streamRangeToDomRange(stream, start, end),
    source,
    overLimit,
  };
}
