/**
 * DOM side of the source highlight: paints a range through the CSS Custom Highlight API under the
 * name `assistant-citation` (its strength is the registered `--assistant-citation-opacity`
 * property), marks the cited row with `data-citation-highlighted="true"`, and without the
 * Highlight API selects the range instead (never over a selection the user made), later removing
 * only that owned selection.
 * Needs a live DOM.
 */
import { supportsHighlightApi } from "../../ui/highlightApi.ts";
import { sameRange } from "../selection/selectionRange.ts";

/** The highlight name in `CSS.highlights` (DESIGN.md section 6). */
export const ASSISTANT_CITATION_HIGHLIGHT = "assistant-citation";
/** Registered custom property carrying the highlight's opacity (0..1). */
export const ASSISTANT_CITATION_OPACITY_PROPERTY = "--assistant-citation-opacity";

let propertyRegistered = false;

/** Registers `--assistant-citation-opacity` as an inherited `<number>` (once; ignored if unsupported). */
export function registerCitationOpacityProperty(): void {
  if (propertyRegistered) return;
  propertyRegistered = true;
  try {
    CSS.registerProperty({
      name: ASSISTANT_CITATION_OPACITY_PROPERTY,
      syntax: "<number>",
      inherits: true,
      initialValue: "0",
    });
  } catch {
    // Already registered (another bundle) or no Properties and Values API: the CSS fallback applies.
  }
}

/** A painted source highlight. */
export type SourceHighlight = {
  /** Moves the highlight to a repaired range (and its row). */
  update(range: Range): void;
  /**
   * Takes the paint and the row marker off while the source text is not on the page (its row
   * was unmounted or reused for another message); `update` paints again.
   */
  hide(): void;
  /** Sets the highlight strength (0..1). */
  setOpacity(opacity: number): void;
  /** Removes the highlight, the row marker and any selection it owns. */
  dispose(): void;
};

const ROW_ATTRIBUTE = "data-citation-highlighted";

function rowOf(range: Range): Element | null {
  const node = range.startContainer;
  const element = node instanceof Element ? node : node.parentElement;
  return element?.closest("[data-message-id]") ?? null;
}

/**
 * The selection this module set last (without the Highlight API), across highlighter instances:
 * a remounted highlighter may take over its own earlier selection, never one the user made.
 */
let lastOwnedSelection: Range | null = null;

/** True when the page has a selection the user made (not one a highlighter set). */
function userHasSelection(selection: Selection): boolean {
  if (selection.rangeCount === 0 || selection.isCollapsed) return false;
  const current = selection.getRangeAt(0);
  if (!current.startContainer.isConnected) return false;
  return lastOwnedSelection === null || !sameRange(current, lastOwnedSelection);
}

/** Paints `range` as the cited source text. */
export function createSourceHighlight(initial: Range): SourceHighlight {
  registerCitationOpacityProperty();
  const root = document.documentElement;
  const useApi = supportsHighlightApi();
  let highlight: Highlight | null = null;
  let ownedSelection: Range | null = null;
  let row: Element | null = null;

  const mark = (range: Range) => {
    const next = rowOf(range);
    if (next !== row) {
      row?.removeAttribute(ROW_ATTRIBUTE);
      row = next;
    }
    row?.setAttribute(ROW_ATTRIBUTE, "true");
  };

  const paint = (range: Range) => {
    mark(range);
    if (useApi) {
      highlight = new Highlight(range);
      CSS.highlights.set(ASSISTANT_CITATION_HIGHLIGHT, highlight);
      return;
    }
    const selection = document.getSelection();
    // Regression (against the original product): a remounted or repaired highlighter selected
    // the quote again over the user's newer selection. The user's selection wins.
    if (!selection || userHasSelection(selection)) return;
    const owned = range.cloneRange();
    selection.removeAllRanges();
    selection.addRange(owned);
    ownedSelection = owned;
    lastOwnedSelection = owned;
  };

  const clearSelection = () => {
    const selection = document.getSelection();
    if (ownedSelection && selection && selection.rangeCount === 1) {
      if (sameRange(selection.getRangeAt(0), ownedSelection)) selection.removeAllRanges();
    }
    ownedSelection = null;
  };

  const unpaint = () => {
    if (useApi && highlight && CSS.highlights.get(ASSISTANT_CITATION_HIGHLIGHT) === highlight) {
      CSS.highlights.delete(ASSISTANT_CITATION_HIGHLIGHT);
    }
    highlight = null;
    clearSelection();
    row?.removeAttribute(ROW_ATTRIBUTE);
    row = null;
  };

  paint(initial);
  return {
    update(range) {
      if (!useApi) clearSelection();
      paint(range);
    },
    hide: unpaint,
    setOpacity(opacity) {
      root.style.setProperty(ASSISTANT_CITATION_OPACITY_PROPERTY, opacity.toFixed(3));
    },
    dispose() {
      unpaint();
      root.style.removeProperty(ASSISTANT_CITATION_OPACITY_PROPERTY);
    },
  };
}
