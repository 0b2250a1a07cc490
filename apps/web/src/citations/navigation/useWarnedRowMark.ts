/**
 * While a jump's warning says the cited words could not be shown (changed, or more than once),
 * the source message's row carries a visible mark (`citations/navigation/warnedRowMark.ts`).
 */
import { type RefObject, useEffect } from "react";
import { NAVIGATION_WARNINGS, type NavigationState } from "./navigationMachine.ts";
import { markWarnedRow } from "./warnedRowMark.ts";

/** Marks the warned source's row under `rootRef` (see the module doc). */
export function useWarnedRowMark(
  state: NavigationState,
  rootRef: RefObject<HTMLElement | null>,
): void {
  const warnedId =
    state.phase === "settled" &&
    (state.warning === NAVIGATION_WARNINGS.changed ||
      state.warning === NAVIGATION_WARNINGS.ambiguous)
      ? state.messageId
      : null;
  useEffect(() => {
    const root = rootRef.current;
    return warnedId === null || root === null ? undefined : markWarnedRow(root, warnedId);
  }, [warnedId, rootRef]);
}
