import { ASSISTANT_CITATION_MAX_TEXT_LENGTH, type AssistantCitation } from "@app/citations";
import type { Rect } from "@floating-ui/dom";
import {
  type KeyboardEvent as ReactKeyboardEvent,
  type MouseEvent as ReactMouseEvent,
  type ReactNode,
  useCallback,
  useEffect,
  useId,
  useLayoutEffect,
  useRef,
} from "react";
import { createPortal } from "react-dom";
import { keepFloatingPlaced, withinColumn } from "../../ui/floatingPlacement.ts";
import type { AssistantTextSelectionCapture } from "./assistantTextSelection.ts";
import { CITE_SHORTCUT, citeShortcutLabel } from "./citeShortcut.ts";
import type { SelectionActionsOpen } from "./selectionActions.ts";
import { selectionReference } from "./selectionReference.ts";
import "./assistantSelectionToolbar.css";

/** What an open toolbar shows: how it was opened and the selection it would cite. */
export type AssistantSelectionToolbarState = {
  open: SelectionActionsOpen;
  capture: AssistantTextSelectionCapture;
};

/** How the user pressed "Cite in composer": with a pointer, or from the keyboard. */
export type CiteInput = "pointer" | "keyboard";

/** Props of {@link AssistantSelectionToolbar}. */
export type AssistantSelectionToolbarProps = {
  state: AssistantSelectionToolbarState;
  /**
   * Called when the user presses "Cite in composer" (never for an over-limit quote). The capture
   * carries the live DOM range of the cited text, for positioning the comment editor; the range
   * is transient and never part of the citation.
   */
  onCite(
    citation: AssistantCitation,
    capture: AssistantTextSelectionCapture,
    input: CiteInput,
  ): void;
  /** Escape inside the toolbar: close it and give focus back. */
  onEscape?(): void;
  /** Registers the toolbar's element with the selection-actions observer; returns a cleanup. */
  registerElement?(element: Element): () => void;
  /** Moves focus into the toolbar whenever this number changes (the "go to toolbar" key). */
  focusRequest?: number;
  /** The area the toolbar stays inside (the timeline, above the composer); default the viewport. */
  area?(): Rect | null;
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
 * Keeps a popover beside a selection with Floating UI (see `selectionReference.ts`): placed
 * before paint, inside the answer's text column, re-placed on scroll and resize, hidden only
 * while the selected text itself is off screen.
 */
export function useSelectionPopoverPlacement(
  elementRef: { current: HTMLElement | null },
  range: Range,
  open: SelectionActionsOpen,
  area: (() => Rect | null) | undefined,
): void {
  const areaRef = useRef(area);
  areaRef.current = area;
  useLayoutEffect(() => {
    const element = elementRef.current;
    if (element === null) return;
    const reference = selectionReference(range, open);
    return keepFloatingPlaced(reference, element, {
      placement: "bottom",
      // Touch: clear the selection handles drawn below the text.
      gap: open.input === "touch" ? 28 : 8,
      area: () => withinColumn(areaRef.current?.() ?? null, reference.column()),
      isReferenceGone: reference.isGone,
      presence: reference.textBox,
      avoid: reference.words,
    });
  }, [elementRef, range, open]);
}

/**
 * The floating toolbar for a selection inside one assistant response: one button, "Cite in
 * composer" (with its shortcut in `aria-keyshortcuts` and the tooltip), disabled with a visible
 * reason when the quote is over the length limit. A WAI-ARIA toolbar: the "go to toolbar" key
 * focuses it, it stays open while focus is inside, and Escape gives focus back. Rendered in a
 * portal, `position: fixed`, beside the selection; it registers its own element with the
 * observer so using it never replaces the captured quote.
 */
export function AssistantSelectionToolbar({
  state,
  onCite,
  onEscape,
  registerElement,
  focusRequest = 0,
  area,
  container,
}: AssistantSelectionToolbarProps): ReactNode {
  const { open, capture } = state;
  const noteId = useId();
  const elementRef = useRef<HTMLDivElement | null>(null);
  const buttonRef = useRef<HTMLButtonElement | null>(null);
  useSelectionPopoverPlacement(elementRef, capture.range, open, area);

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

  // Only requests made while this toolbar is open count, not one made for an earlier toolbar.
  const handledRequest = useRef(focusRequest);
  useEffect(() => {
    if (focusRequest === handledRequest.current) return;
    handledRequest.current = focusRequest;
    const button = buttonRef.current;
    // A disabled button cannot take focus: the toolbar itself does, and reads out why.
    if (button && !button.disabled) button.focus();
    else elementRef.current?.focus();
  }, [focusRequest]);

  const overLimit = capture.overLimit;
  const note = overLimit ? overLimitMessage(capture.citation.text.length) : null;
  const shortcut = citeShortcutLabel();
  const target = container ?? document.body;

  const onKeyDown = (event: ReactKeyboardEvent) => {
    if (event.key !== "Escape") return;
    event.preventDefault();
    event.stopPropagation();
    onEscape?.();
  };

  return createPortal(
    <div
      ref={ref}
      className="assistant-selection-toolbar"
      role="toolbar"
      aria-label="Selection actions"
      aria-describedby={note ? noteId : undefined}
      tabIndex={-1}
      data-assistant-selection-toolbar=""
      data-input={open.input}
      onMouseDown={keepSelection}
      onKeyDown={onKeyDown}
    >
      <button
        ref={buttonRef}
        type="button"
        className="assistant-selection-toolbar__cite"
        disabled={overLimit}
        aria-describedby={note ? noteId : undefined}
        aria-keyshortcuts={CITE_SHORTCUT}
        title={note ?? `${CITE_IN_COMPOSER_LABEL} (${shortcut})`}
        onClick={(event) => {
          if (capture.overLimit) return;
          // A click from Enter/Space (or a screen reader's activation) has no pointer position.
          onCite(capture.citation, capture, event.detail === 0 ? "keyboard" : "pointer");
        }}
      >
        {CITE_IN_COMPOSER_LABEL}
        <span className="assistant-selection-toolbar__shortcut" aria-hidden="true">
          {shortcut}
        </span>
      </button>
      {note ? (
        <span id={noteId} className="assistant-selection-toolbar__note" role="status">
          {note}
        </span>
      ) : null}
    </div>,
    target,
  );
}
