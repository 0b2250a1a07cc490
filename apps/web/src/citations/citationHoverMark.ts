/**
 * Hover marks: while a sent chip is hovered or focused and its source text is on screen, that
 * text is faintly marked with a second CSS highlight, `assistant-citation-hover`, so the reader
 * sees what the chip points at before following it. Nothing happens for a source off screen,
 * in another thread, or without the Highlight API. Needs a live DOM.
 */
import type { AssistantCitation } from "@app/citations";
import { useMemo } from "react";
import { supportsHighlightApi } from "../ui/highlightApi.ts";
import { resolveAssistantCitationRange } from "./navigation/resolveAssistantCitationRange.ts";

/** The highlight name of hover marks in `CSS.highlights`. */
export const ASSISTANT_CITATION_HOVER_HIGHLIGHT = "assistant-citation-hover";

/** True when some part of `rect` is inside the window. */
function isOnScreen(rect: DOMRect): boolean {
  return rect.bottom > 0 && rect.top < window.innerHeight && rect.height > 0;
}

/** The source text's range when it is on screen, else null. */
function onScreenSourceRange(citation: AssistantCitation): Range | null {
  const body = document.querySelector(
    `[data-assistant-citation-source="${CSS.escape(citation.messageId)}"]`,
  );
  if (!body || !isOnScreen(body.getBoundingClientRect())) return null;
  const resolved = resolveAssistantCitationRange(body, citation);
  if (resolved.status !== "found") return null;
  return isOnScreen(resolved.range.getBoundingClientRect()) ? resolved.range : null;
}

let current: Highlight | null = null;

/** Marks the source of `citation` when it is on screen; returns true when it did. */
export function showCitationHoverMark(citation: AssistantCitation): boolean {
  if (!supportsHighlightApi()) return false;
  const range = onScreenSourceRange(citation);
  if (range === null) return false;
  current = new Highlight(range);
  CSS.highlights.set(ASSISTANT_CITATION_HOVER_HIGHLIGHT, current);
  return true;
}

/** Removes the hover mark (only the one this module painted). */
export function hideCitationHoverMark(): void {
  if (!supportsHighlightApi() || current === null) return;
  if (CSS.highlights.get(ASSISTANT_CITATION_HOVER_HIGHLIGHT) === current) {
    CSS.highlights.delete(ASSISTANT_CITATION_HOVER_HIGHLIGHT);
  }
  current = null;
}

/** Event handlers that show the mark on hover or focus and take it off on leave or blur. */
export function useCitationHoverMark(citation: AssistantCitation, enabled: boolean) {
  return useMemo(() => {
    if (!enabled) return {};
    const show = () => void showCitationHoverMark(citation);
    return {
      onMouseEnter: show,
      onFocus: show,
      onMouseLeave: hideCitationHoverMark,
      onBlur: hideCitationHoverMark,
    };
  }, [citation, enabled]);
}
