import type { AssistantCitation } from "@app/citations";
import { type ReactNode, type RefObject, useCallback, useEffect, useRef, useState } from "react";
import { rectOf } from "../../ui/floatingPlacement.ts";
import {
  AssistantSelectionHint,
  type AssistantSelectionHintState,
} from "./AssistantSelectionHint.tsx";
import {
  AssistantSelectionToolbar,
  type AssistantSelectionToolbarState,
  type CiteInput,
} from "./AssistantSelectionToolbar.tsx";
import {
  type AssistantTextSelectionCapture,
  type AssistantTextSelectionResult,
  captureAssistantTextSelection,
} from "./assistantTextSelection.ts";
import { CiteAnnouncement, QUOTE_ADDED_MESSAGE, useCiteAnnouncement } from "./citeAnnouncement.tsx";
import { citeOrSayWhy } from "./citeOrSayWhy.ts";
import { isCiteShortcut, isToolbarFocusKey } from "./citeShortcut.ts";
import { keepDragInAnswer } from "./keepDragInAnswer.ts";
import {
  observeSelectionActions,
  type SelectionActionsObserver,
  type SelectionActionsOpen,
} from "./selectionActions.ts";
import { uncitableSelectionHint } from "./selectionHint.ts";
import { selectionRange } from "./selectionRange.ts";
import {
  rememberToolbarReturn,
  restoreToolbarReturn,
  type ToolbarReturn,
} from "./toolbarReturn.ts";

/** Options of {@link useAssistantSelectionToolbar}. */
export type UseAssistantSelectionToolbarOptions = {
  /**
   * The element whose selections get the toolbar (the thread body). Read after every render, so
   * an element that mounts later (after loading) is picked up.
   */
  surfaceRef: RefObject<Element | null>;
  environmentId: string;
  threadId: string;
  /**
   * Called with the citation (and the capture, with its live range) when the user cites, and
   * with how: from the keyboard (the shortcut, or Enter on the button) or with a pointer.
   */
  onCite(
    citation: AssistantCitation,
    capture: AssistantTextSelectionCapture,
    input: CiteInput,
  ): void;
  /**
   * Filled with a function that cites a range exactly as if it were the selection (the same
   * capture, `onCite`, confirmation and refusals), for **Cite match** in the find bar. It
   * returns true when the range was cited.
   */
  citeRangeRef?: RefObject<CiteRange | null>;
  /** Passed to the observer; defaults to the 500 ms repeat-click window. */
  repeatClickWindowMs?: number;
  /** Passed to the observer: how long a keyboard or touch selection settles before opening. */
  settleMs?: number;
};

/** Cites a range as if it were selected (see `citeRangeRef`). */
export type CiteRange = (range: Range, input: CiteInput) => boolean;

/** What the popover shows: the toolbar for a citable selection, or a hint saying why not. */
type Shown =
  | { kind: "toolbar"; state: AssistantSelectionToolbarState }
  | { kind: "hint"; state: AssistantSelectionHintState };

/**
 * Wires the selection-actions observer, selection capture, the keyboard shortcut, the toolbar,
 * the "cannot cite" hint and the confirmation together for one surface. Returns what to render
 * (anywhere: the popovers portal themselves), or null. The observer lives as long as the
 * surface element; ids and `onCite` may change freely without re-subscribing. Changing the
 * thread or environment closes the toolbar.
 */
export function useAssistantSelectionToolbar({
  surfaceRef,
  environmentId,
  threadId,
  onCite,
  citeRangeRef,
  repeatClickWindowMs,
  settleMs,
}: UseAssistantSelectionToolbarOptions): ReactNode {
  const [surface, setSurface] = useState<Element | null>(null);
  const [shown, setShown] = useState<Shown | null>(null);
  const [focusRequest, setFocusRequest] = useState(0);
  const { announcement, announce } = useCiteAnnouncement();
  const observerRef = useRef<SelectionActionsObserver | null>(null);
  const shownRef = useRef<Shown | null>(null);
  shownRef.current = shown;
  /** Where focus and the selection were before the toolbar took focus (Escape restores them). */
  const returnTo = useRef<ToolbarReturn | null>(null);
  const latest = useRef({ environmentId, threadId, onCite });
  latest.current = { environmentId, threadId, onCite };

  // Refs do not trigger renders: pick up the surface element after each commit.
  useEffect(() => {
    if (surfaceRef.current !== surface) setSurface(surfaceRef.current);
  });

  /** What to show for `range`: the toolbar, a hint, or nothing (a blank selection). */
  const show = useCallback(
    (range: Range, open: SelectionActionsOpen): AssistantTextSelectionResult => {
      const { environmentId: env, threadId: thread } = latest.current;
      const capture = captureAssistantTextSelection(range, {
        environmentId: env,
        threadId: thread,
      });
      if (capture.citation !== null) {
        setShown({ kind: "toolbar", state: { open, capture } });
        return capture;
      }
      const message = uncitableSelectionHint(capture.reason, range);
      setShown(message === null ? null : { kind: "hint", state: { message, range, open } });
      return capture;
    },
    [],
  );

  // A toolbar re-opened from the keyboard takes focus once it has mounted (a request made
  // before it exists would count as an old one).
  const focusOnOpen = useRef(false);
  useEffect(() => {
    if (!focusOnOpen.current || shown?.kind !== "toolbar") return;
    focusOnOpen.current = false;
    setFocusRequest((count) => count + 1);
  }, [shown]);

  useEffect(() => {
    if (!surface) return;
    const observer = observeSelectionActions({
      surface,
      ...(repeatClickWindowMs === undefined ? {} : { repeatClickWindowMs }),
      ...(settleMs === undefined ? {} : { settleMs }),
      clampDrag: keepDragInAnswer,
      onOpen: (range, open) => void show(range, open),
      onDismiss() {
        setShown(null);
      },
    });
    observerRef.current = observer;
    return () => {
      observer.dispose();
      observerRef.current = null;
      setShown(null);
    };
  }, [surface, repeatClickWindowMs, settleMs, show]);

  // A capture belongs to one thread: drop it when the ids change.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the ids are the trigger, not inputs.
  useEffect(() => {
    observerRef.current?.dismiss();
    setShown(null);
  }, [environmentId, threadId]);

  const registerElement = useCallback(
    (element: Element) => observerRef.current?.registerToolbarElement(element) ?? (() => {}),
    [],
  );

  const cite = useCallback(
    (citation: AssistantCitation, capture: AssistantTextSelectionCapture, input: CiteInput) => {
      returnTo.current = null;
      observerRef.current?.dismiss();
      setShown(null);
      latest.current.onCite(citation, capture, input);
      announce(QUOTE_ADDED_MESSAGE);
    },
    [announce],
  );

  // A range cited as if selected (the find bar's Cite match): the keyboard shortcut's path.
  useEffect(() => {
    if (!citeRangeRef) return;
    citeRangeRef.current = (range, input) => {
      const { environmentId: env, threadId: thread } = latest.current;
      const capture = captureAssistantTextSelection(range, {
        environmentId: env,
        threadId: thread,
      });
      return citeOrSayWhy(capture, range, input, cite, announce);
    };
    return () => {
      citeRangeRef.current = null;
    };
  }, [citeRangeRef, cite, announce]);

  /** Escape in the toolbar: close it, and put focus and the selection back where they were. */
  const escapeToolbar = useCallback(() => {
    const back = returnTo.current;
    returnTo.current = null;
    observerRef.current?.dismiss();
    setShown(null);
    if (back !== null) restoreToolbarReturn(back);
  }, []);

  // The keyboard path: the shortcut cites the current selection without any pointer event; the
  // "go to toolbar" key focuses the open toolbar.
  useEffect(() => {
    if (!surface) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.isComposing) return;
      /** The surface's current non-blank selection, or null. */
      const selected = (): Range | null => {
        const selection = document.getSelection();
        const range = selection && !selection.isCollapsed ? selectionRange(selection) : null;
        if (range === null || range.collapsed || !surface.contains(range.commonAncestorContainer)) {
          return null;
        }
        return range;
      };
      if (isCiteShortcut(event)) {
        const range = selected();
        if (range === null) return;
        event.preventDefault();
        const result = show(range, { anchor: null, input: "keyboard" });
        // The observer closes what the shortcut showed (a hint, an over-limit toolbar) as usual.
        observerRef.current?.markOpen(range);
        citeOrSayWhy(result, range, "keyboard", cite, announce);
        return;
      }
      if (!isToolbarFocusKey(event)) return;
      const current = shownRef.current;
      const rememberReturn = () => {
        returnTo.current = rememberToolbarReturn();
      };
      if (current?.kind === "toolbar") {
        rememberReturn();
        event.preventDefault();
        setFocusRequest((count) => count + 1);
        return;
      }
      // Closed (Escape) while the text is still selected: the same keys open it again.
      const range = current === null ? selected() : null;
      if (range === null) return;
      const { environmentId: env, threadId: thread } = latest.current;
      if (captureAssistantTextSelection(range, { environmentId: env, threadId: thread }).citation) {
        rememberReturn();
        event.preventDefault();
        focusOnOpen.current = true;
        show(range, { anchor: null, input: "keyboard" });
        observerRef.current?.markOpen(range);
      }
    };
    document.addEventListener("keydown", onKeyDown, true);
    return () => document.removeEventListener("keydown", onKeyDown, true);
  }, [surface, show, cite, announce]);

  const area = useCallback(() => rectOf(surface), [surface]);

  return (
    <>
      {shown?.kind === "toolbar" ? (
        <AssistantSelectionToolbar
          state={shown.state}
          onCite={cite}
          onEscape={escapeToolbar}
          registerElement={registerElement}
          focusRequest={focusRequest}
          area={area}
        />
      ) : null}
      {shown?.kind === "hint" ? <AssistantSelectionHint state={shown.state} area={area} /> : null}
      <CiteAnnouncement announcement={announcement} />
    </>
  );
}
