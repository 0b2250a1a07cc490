/**
 * Paints find matches with the CSS Custom Highlight API (DESIGN.md section 6): the current match
 * under `thread-find-current`, the other matches in mounted rows under the quieter `thread-find`.
 * Also describes the current match's message: its article gets `aria-describedby` pointing at the
 * bar's hidden description of the match, so a screen reader reading the message hears the
 * matched words. Without the Highlight API nothing is painted (the count and the description
 * still say where the match is). Changes only highlights and that one attribute.
 */
import { supportsHighlightApi } from "../ui/highlightApi.ts";

/** The highlight name of the current match. */
export const FIND_CURRENT_HIGHLIGHT = "thread-find-current";
/** The highlight name of the other matches in view. */
export const FIND_OTHER_HIGHLIGHT = "thread-find";

function setHighlight(name: string, ranges: readonly Range[], priority: number): void {
  if (ranges.length === 0) {
    CSS.highlights.delete(name);
    return;
  }
  const highlight = new Highlight(...ranges);
  highlight.priority = priority;
  CSS.highlights.set(name, highlight);
}

/** Paints `current` (or nothing) and `others`; the current match wins where they overlap. */
export function paintFindHighlights(current: Range | null, others: readonly Range[]): void {
  if (!supportsHighlightApi()) return;
  setHighlight(FIND_CURRENT_HIGHLIGHT, current === null ? [] : [current], 2);
  setHighlight(FIND_OTHER_HIGHLIGHT, others, 1);
}

/** Removes both highlights. */
export function clearFindHighlights(): void {
  if (!supportsHighlightApi()) return;
  CSS.highlights.delete(FIND_CURRENT_HIGHLIGHT);
  CSS.highlights.delete(FIND_OTHER_HIGHLIGHT);
}

/**
 * Makes the article holding `range` (the current match) described by `descriptionId`, and only
 * it: any other article loses that id (rows are reused for other messages). Keeps the article's
 * own descriptions (backlinks). Pass null to undescribe every article.
 */
export function describeMatchRow(range: Range | null, descriptionId: string): void {
  const node = range?.startContainer ?? null;
  const element = node instanceof Element ? node : (node?.parentElement ?? null);
  const row = element?.closest("[data-message-id]") ?? null;
  for (const other of document.querySelectorAll(`[aria-describedby~="${descriptionId}"]`)) {
    if (other === row || !other.hasAttribute("data-message-id")) continue;
    const rest = tokens(other).filter((token) => token !== descriptionId);
    if (rest.length === 0) other.removeAttribute("aria-describedby");
    else other.setAttribute("aria-describedby", rest.join(" "));
  }
  if (row === null) return;
  const own = tokens(row);
  if (!own.includes(descriptionId)) {
    row.setAttribute("aria-describedby", [...own, descriptionId].join(" "));
  }
}

function tokens(element: Element): string[] {
  return (element.getAttribute("aria-describedby") ?? "").split(/\s+/).filter(Boolean);
}
