import type { Rect } from "@floating-ui/dom";
import { type ReactNode, useRef } from "react";
import { createPortal } from "react-dom";
import { useSelectionPopoverPlacement } from "./AssistantSelectionToolbar.tsx";
import type { SelectionActionsOpen } from "./selectionActions.ts";

/** What the hint says and where: the selection it is about. */
export type AssistantSelectionHintState = {
  message: string;
  range: Range;
  open: SelectionActionsOpen;
};

/** Props of {@link AssistantSelectionHint}. */
export type AssistantSelectionHintProps = {
  state: AssistantSelectionHintState;
  /** The area the hint stays inside (the timeline); default the viewport. */
  area?(): Rect | null;
  container?: Element;
};

/**
 * A short note beside a selection that cannot be cited, saying why ("Select text within one
 * answer to cite it."). Non-modal and never focused: a polite `role="status"` that the selection
 * observer closes like the toolbar.
 */
export function AssistantSelectionHint({
  state,
  area,
  container,
}: AssistantSelectionHintProps): ReactNode {
  const elementRef = useRef<HTMLDivElement | null>(null);
  useSelectionPopoverPlacement(elementRef, state.range, state.open, area);
  return createPortal(
    <div
      ref={elementRef}
      className="assistant-selection-hint"
      role="status"
      data-assistant-selection-hint=""
    >
      {state.message}
    </div>,
    container ?? document.body,
  );
}
