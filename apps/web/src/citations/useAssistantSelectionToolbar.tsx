import type { AssistantCitation } from "@app/citations";
import { type ReactNode, type RefObject, useCallback, useEffect, useRef, useState } from "react";
import {
  AssistantSelectionToolbar,
  type AssistantSelectionToolbarState,
} from "./AssistantSelectionToolbar.tsx";
import {
  type AssistantTextSelectionCapture,
  captureAssistantTextSelection,
} from "./assistantTextSelection.ts";
import { observeSelectionActions, type SelectionActionsObserver } from "./selectionActions.ts";

/** Options of {@link useAssistantSelectionToolbar}. */
export type UseAssistantSelectionToolbarOptions = {
  /**
   * The element whose selections get the toolbar (the timeline wrapper). Read after every
   * render, so an element that mounts later (after loading) is picked up.
   */
  surfaceRef: RefObject<Element | null>;
  environmentId: string;
  threadId: string;
  /** Called with the citation (and the capture, with its live range) when the user cites. */
  onCite(citation: AssistantCitation, capture: AssistantTextSelectionCapture): void;
  /** Passed to the observer; defaults to the 500 ms repeat-click window. */
  repeatClickWindowMs?: number;
};

/**
 * Wires the selection-actions observer, selection capture and the toolbar together for one
 * surface. Returns the toolbar element to render (anywhere: it portals itself), or null while
 * closed. A selection that cannot be cited (outside a response, across two, blank) opens nothing.
 * The observer lives as long as the surface element and the repeat window; ids and `onCite` may
 * change freely without re-subscribing. Changing the thread or environment closes the toolbar.
 */
export function useAssistantSelectionToolbar({
  surfaceRef,
  environmentId,
  threadId,
  onCite,
  repeatClickWindowMs,
}: UseAssistantSelectionToolbarOptions): ReactNode {
  const [surface, setSurface] = useState<Element | null>(null);
  const [state, setState] = useState<AssistantSelectionToolbarState | null>(null);
  const observerRef = useRef<SelectionActionsObserver | null>(null);
  const latest = useRef({ environmentId, threadId, onCite });
  latest.current = { environmentId, threadId, onCite };

  // Refs do not trigger renders: pick up the surface element after each commit.
  useEffect(() => {
    if (surfaceRef.current !== surface) setSurface(surfaceRef.current);
  });

  useEffect(() => {
    if (!surface) return;
    const observer = observeSelectionActions({
      surface,
      ...(repeatClickWindowMs === undefined ? {} : { repeatClickWindowMs }),
      onOpen(anchor, range) {
        const { environmentId: env, threadId: thread } = latest.current;
        const capture = captureAssistantTextSelection(range, {
          environmentId: env,
          threadId: thread,
        });
        setState(capture.citation === null ? null : { anchor, capture });
      },
      onDismiss() {
        setState(null);
      },
    });
    observerRef.current = observer;
    return () => {
      observer.dispose();
      observerRef.current = null;
      setState(null);
    };
  }, [surface, repeatClickWindowMs]);

  // A capture belongs to one thread: drop it when the ids change.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the ids are the trigger, not inputs.
  useEffect(() => {
    observerRef.current?.dismiss();
    setState(null);
  }, [environmentId, threadId]);

  const registerElement = useCallback(
    (element: Element) => observerRef.current?.registerToolbarElement(element) ?? (() => {}),
    [],
  );

  const cite = useCallback(
    (citation: AssistantCitation, capture: AssistantTextSelectionCapture) => {
      latest.current.onCite(citation, capture);
      observerRef.current?.dismiss();
      setState(null);
    },
    [],
  );

  if (state === null) return null;
  return (
    <AssistantSelectionToolbar state={state} onCite={cite} registerElement={registerElement} />
  );
}
