/**
 * Cite in composer (pointer, touch or keyboard alike, as the spec says): the link goes in at the
 * last composer cursor and the comment editor opens once beside the cited text, focused (the
 * range is transient, never part of the citation). Enter or Escape there puts focus in the
 * composer right after the chip, so a keyboard user types on.
 */
import type { AssistantCitation } from "@app/citations";
import { type RefObject, useCallback } from "react";
import { resolveAssistantCitationRange } from "../citations/navigation/resolveAssistantCitationRange.ts";
import type { AssistantTextSelectionCapture } from "../citations/selection/assistantTextSelection.ts";
import type { ComposerHandle } from "../composer/Composer.tsx";

/** The toolbar's `onCite`: inserts the citation into the composer behind `composerRef`. */
export function useCiteIntoComposer(
  composerRef: RefObject<ComposerHandle | null>,
): (citation: AssistantCitation, capture: AssistantTextSelectionCapture) => void {
  return useCallback(
    (citation: AssistantCitation, capture: AssistantTextSelectionCapture) => {
      composerRef.current?.insertCitation(citation, {
        sourceRange: capture.range,
        repairSourceRange: () => repairCitationRange(citation),
      });
    },
    [composerRef],
  );
}

/** Finds a citation's text again in its (re-rendered) message body, or null. */
function repairCitationRange(citation: AssistantCitation): Range | null {
  const body = document.querySelector(
    `[data-assistant-citation-source="${CSS.escape(citation.messageId)}"]`,
  );
  if (!body) return null;
  const resolved = resolveAssistantCitationRange(body, citation);
  return resolved.status === "found" ? resolved.range : null;
}
