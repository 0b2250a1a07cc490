/**
 * A backlink's jump target (issue 24): the chip of a citation inside the citing (user) message.
 * The chip is found by what it cites (source message and selector), not by its href string, so
 * a comment or an encoding detail never hides it. Needs a live DOM.
 */
import { type AssistantCitation, parseAssistantCitationHash } from "@app/citations";

/** The mounted row of a message, or null. */
export function messageRow(messageId: string): Element | null {
  return document.querySelector(`[data-message-id="${CSS.escape(messageId)}"]`);
}

/** The chip in `row` that cites the same text as `citation`, or null. */
export function findCitingChip(row: Element, citation: AssistantCitation): HTMLElement | null {
  for (const chip of row.querySelectorAll<HTMLElement>("[data-assistant-citation-chip]")) {
    const href = chip.getAttribute("href") ?? "";
    const hash = href.indexOf("#");
    const cited = hash < 0 ? null : parseAssistantCitationHash(href.slice(hash));
    if (
      cited !== null &&
      cited.messageId === citation.messageId &&
      cited.threadId === citation.threadId &&
      cited.start === citation.start &&
      cited.end === citation.end &&
      cited.text === citation.text
    ) {
      return chip;
    }
  }
  return null;
}

/** A range over the chip's contents (what the pulse paints). */
export function chipRange(chip: Element): Range {
  const range = document.createRange();
  range.selectNodeContents(chip);
  return range;
}

/** True while `range` still lies in a connected chip of the message `messageId`. */
export function isLiveChipRange(range: Range, messageId: string): boolean {
  const node = range.startContainer;
  const element = node instanceof Element ? node : node.parentElement;
  return (
    element?.isConnected === true &&
    element.closest("[data-message-id]")?.getAttribute("data-message-id") === messageId
  );
}
