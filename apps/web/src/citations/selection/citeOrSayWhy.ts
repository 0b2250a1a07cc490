/**
 * The keyboard's way to cite (the shortcut, and the find bar's Cite match): cite the capture, or
 * announce why it cannot be cited. Every refusal is said, with its reason, since the popover
 * showing it may be off screen.
 */
import type { AssistantCitation } from "@app/citations";
import { type CiteInput, overLimitMessage } from "./AssistantSelectionToolbar.tsx";
import type {
  AssistantTextSelectionCapture,
  AssistantTextSelectionResult,
} from "./assistantTextSelection.ts";
import { ONE_ANSWER_HINT, uncitableSelectionHint } from "./selectionHint.ts";

/** Cites `result` through `cite`, or says why not through `announce`; true when it cited. */
export function citeOrSayWhy(
  result: AssistantTextSelectionResult,
  range: Range,
  input: CiteInput,
  cite: (
    citation: AssistantCitation,
    capture: AssistantTextSelectionCapture,
    input: CiteInput,
  ) => void,
  announce: (text: string) => void,
): boolean {
  if (result.citation === null) {
    announce(uncitableSelectionHint(result.reason, range) ?? ONE_ANSWER_HINT);
    return false;
  }
  if (result.overLimit) {
    announce(overLimitMessage(result.citation.text.length));
    return false;
  }
  cite(result.citation, result, input);
  return true;
}
