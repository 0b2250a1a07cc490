import { ASSISTANT_CITATION_MAX_TEXT_LENGTH, type AssistantCitation } from "@app/citations";
import {
  type MouseEvent as ReactMouseEvent,
  useCallback,
  useId,
  useLayoutEffect,
  useRef,
  useState,
} from "react";
import { createPortal } from "react-dom";
import type { AssistantTextSelectionCapture } from "./assistantTextSelection.ts";
import type { SelectionActionsAnchor } from "./selectionActions.ts";
import { placeSelectionToolbar, type ToolbarPoint } from "./selectionToolbarPlacement.ts";
import "./assistantSelectionToolbar.css";

/** What an open toolbar shows: where it is anchored and the selection it would cite. */
export type AssistantSelectionToolbarState = {
  anchor: SelectionActionsAnchor;
  capture: AssistantTextSelectionCapture;
};

/** Props of {@link AssistantSelectionToolbar}. */
export type AssistantSelectionToolbarProps = {
  state: AssistantSelectionToolbarState;
  /**
   * Called when the user presses "Cite in composer" (never for an over-limit quote). The capture
   * carries the live DOM range of the cited text, for positioning the comment editor; the range
   * is transient and never part of the citation.
   */
  onCite(citation: AssistantCitation, capture: AssistantTextSelectionCapture): void;
  /** Registers the toolbar's element with the selection-actions observer; returns a cleanup. */
  registerElement?(element: Element): () => void;
  /** Where the toolbar is portalled; defaults to `document.body`. */
  container?: Element;
};

/** The accessible name of the cite button (DESIGN.md section 6). */
export const CITE_IN_COMPOSER_LABEL = "Cite in composer";

const numberFormat = new Intl.NumberFormat("en-US");

/** The sentence shown (and announced) when a quote is too long to cite. */
export function overLimitMessage(length: number): string {
  return `Quote is over the ${numberFormat.format(ASSISTANT_CITATION_MAX_TEXT_LENGTH)}-character limit (${numberFormat.format(length)} characters selected).`;
}

const keepSelection = (event: ReactMouseEvent) => {
  // Pressing the toolbar must not collapse the selection or move focus out of the page text.
  event.preventDefault();
};

/**
 * The floating toolbar for a selection inside one assistant response: one button, "Cite in
 * composer", disabled with a visible reason when the quote is over the length limit. Rendered in
 * a portal with `position: fixed` at the anchor, flipped and clamped to stay in the viewport.
 * It registers its own element with the observer so using it never replaces the captured quote.
 */
export function AssistantSelectionToolbar({
  state,
  onCite,
  registerElement,
  container,
}: AssistantSelectionToolbarProps) {
  const { anchor, capture } = state;
  const noteId = useId();
  const elementRef = useRef<HTMLDivElement | null>(null);
  const [position, setPosition] = useState<ToolbarPoint>(() =>
    placeSelectionToolbar(anchor, { width: 0, height: 0 }, viewportSize()),
  );

  useLayoutEffect(() => {
    const element = elementRef.current;
    if (!element) return;
    const rect = element.getBoundingClientRect();
    const next = placeSelectionToolbar(
      anchor,
      { width: rect.width, height: rect.height },
      viewportSize(),
    );
    setPosition((current) => (current.x === next.x && current.y === next.y ? current : next));
  }, [anchor]);

  const ref = useCallback(
    (element: HTMLDivElement | null) => {
      elementRef.current = element;
      if (!element || !registerElement) return;
      const unregister = registerElement(element);
      return () => {
        elementRef.current = null;
        unregister();
      };
    },
    [registerElement],
  );

  const overLimit = capture.overLimit;
  const note = overLimit ? overLimitMessage(capture.citation.text.length) : null;
  const target = container ?? document.body;

  return createPortal(
    <div
      ref={ref}
      className="assistant-selection-toolbar"
      role="toolbar"
      aria-label="Selection actions"
      data-assistant-selection-toolbar=""
      style={{ left: position.x, top: position.y }}
      onMouseDown={keepSelection}
    >
      <button
        type="button"
        className="assistant-selection-toolbar__cite"
        disabled={overLimit}
        aria-describedby={note ? noteId : undefined}
        title={note ?? undefined}
        onClick={() => {
          if (!capture.overLimit) onCite(capture.citation, capture);
        }}
      >
        {CITE_IN_COMPOSER_LABEL}
      </button>
      {note ? (
        <span id={noteId} className="assistant-selection-toolbar__note">
          {note}
        </span>
      ) : null}
    </div>,
    target,
  );
}

function viewportSize() {
  const view = typeof window === "undefined" ? null : window;
  return {
    width: view?.innerWidth ?? 0,
    height: view?.innerHeight ?? 0,
  };
}
