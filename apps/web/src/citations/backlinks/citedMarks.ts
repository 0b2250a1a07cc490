/**
 * Backlink marks (issue 24): the words of an answer that later messages cite carry a faint,
 * persistent underline, the CSS Custom Highlight `assistant-citation-cited` (DESIGN.md section
 * 6), distinct from the jump pulse (`assistant-citation`) and the hover mark. Each cited range
 * (`message.citedBy.ranges`) is resolved with the kernel's resolver against the rendered text,
 * exactly as a chip's jump is, so a mark never lands on other words; a range that no longer
 * resolves (text changed, or now ambiguous) is not marked. One highlight holds the marks of
 * every mounted answer. Needs a live DOM; without the Highlight API nothing is painted.
 */
import type { CitedBy, CitedRange } from "@app/protocol";
import { type RefObject, useEffect } from "react";
import { supportsHighlightApi } from "../../ui/highlightApi.ts";
import { resolveAssistantCitationRange } from "../navigation/resolveAssistantCitationRange.ts";

/** The highlight name of backlink marks in `CSS.highlights`. */
export const ASSISTANT_CITATION_CITED_HIGHLIGHT = "assistant-citation-cited";

/** The DOM ranges of `ranges` in `body` (a message body), skipping those that do not resolve. */
export function resolveCitedRanges(body: Element, ranges: readonly CitedRange[]): Range[] {
  const found: Range[] = [];
  for (const cited of ranges) {
    const resolved = resolveAssistantCitationRange(body, cited);
    if (resolved.status === "found") found.push(resolved.range);
  }
  return found;
}

const marksByMessage = new Map<string, Range[]>();

/** Sets (or with `[]` clears) the marks of one message and repaints the shared highlight. */
export function setCitedMarks(messageId: string, ranges: Range[]): void {
  if (ranges.length === 0 && !marksByMessage.has(messageId)) return;
  if (ranges.length === 0) marksByMessage.delete(messageId);
  else marksByMessage.set(messageId, ranges);
  if (!supportsHighlightApi()) return;
  const all = [...marksByMessage.values()].flat();
  if (all.length === 0) CSS.highlights.delete(ASSISTANT_CITATION_CITED_HIGHLIGHT);
  else CSS.highlights.set(ASSISTANT_CITATION_CITED_HIGHLIGHT, new Highlight(...all));
}

/**
 * Keeps the marks of one rendered answer: resolved after each render of its body, again when its
 * DOM changes (late code highlighting, unfolding), and cleared when it unmounts.
 */
export function useCitedMarks(
  messageId: string,
  citedBy: CitedBy | undefined,
  bodyRef: RefObject<HTMLElement | null>,
  renderKey: string,
): void {
  // biome-ignore lint/correctness/useExhaustiveDependencies: renderKey is the trigger (a new body).
  useEffect(() => {
    const body = bodyRef.current;
    const ranges = citedBy?.ranges ?? [];
    if (!body || ranges.length === 0) {
      setCitedMarks(messageId, []);
      return;
    }
    const paint = () => setCitedMarks(messageId, resolveCitedRanges(body, ranges));
    paint();
    let frame: number | null = null;
    const observer =
      typeof MutationObserver === "function"
        ? new MutationObserver(() => {
            if (frame !== null) return;
            frame = requestAnimationFrame(() => {
              frame = null;
              paint();
            });
          })
        : null;
    observer?.observe(body, { childList: true, subtree: true, characterData: true });
    return () => {
      observer?.disconnect();
      if (frame !== null) cancelAnimationFrame(frame);
      setCitedMarks(messageId, []);
    };
  }, [messageId, citedBy, bodyRef, renderKey]);
}
