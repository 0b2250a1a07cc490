/**
 * Why a selection cannot be cited, in words for the person who made it (the short hint shown
 * beside it instead of the toolbar). Needs a live DOM range to tell a user message from the
 * rest of the page.
 */
import type { AssistantTextSelectionRejectReason } from "./assistantTextSelection.ts";

/** Shown for a selection that spans two messages (or an answer and something else). */
export const ONE_ANSWER_HINT = "Select text within one answer to cite it.";
/** Shown for a selection inside your own message(s). */
export const ANSWERS_ONLY_HINT = "Only the assistant's answers can be cited.";
/** Shown when the answer's ids cannot appear in a citation. */
export const UNCITABLE_ANSWER_HINT = "This answer cannot be cited.";

function messageOf(node: Node): Element | null {
  const element = node instanceof Element ? node : node.parentElement;
  return element?.closest("[data-message-id]") ?? null;
}

/**
 * The hint for a rejected selection, or null when the selection holds nothing worth a hint
 * (blank, or not in any message at all).
 */
export function uncitableSelectionHint(
  reason: AssistantTextSelectionRejectReason,
  range: Range,
): string | null {
  switch (reason) {
    case "multiple-responses":
      return ONE_ANSWER_HINT;
    case "invalid-source":
      return UNCITABLE_ANSWER_HINT;
    case "outside-response": {
      const ends = [messageOf(range.startContainer), messageOf(range.endContainer)];
      if (ends.every((message) => message === null)) return null;
      const userOnly = ends.every((message) => message?.getAttribute("data-role") === "user");
      return userOnly ? ANSWERS_ONLY_HINT : ONE_ANSWER_HINT;
    }
    default:
      return null;
  }
}
