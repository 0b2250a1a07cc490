import type { AssistantCitation } from "@app/citations";
import { type ReactNode, type RefObject, useCallback, useEffect, useRef, useState } from "react";
import { rectOf } from "../ui/floatingPlacement.ts";
import {
  AssistantSelectionHint,
  type AssistantSelectionHintState,
} from "./AssistantSelectionHint.tsx";
import {
  AssistantSelectionToolbar,
  type AssistantSelectionToolbarState,
  type CiteInput,
  overLimitMessage,
} from "./AssistantSelectionToolbar.tsx";
import {
  type AssistantTextSelectionCapture,
  captureAssistantTextSelection,
} from "./assistantTextSelection.ts";
import { isCiteShortcut, isToolbarFocusKey } from "./citeShortcut.ts";
import {
  observeSelectionActions,
  type SelectionActionsObserver,
  type SelectionActionsOpen,
} from "./selectionActions.ts";
import { ONE_ANSWER_HINT, uncitableSelectionHint } from "./selectionHint.ts";
import { sameRange, selectionRange } from "./selectionRange.ts";

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
 * A drag from inside an answer released outside the thread body: keep the part inside the
 * answer it started (or, dragged upwards, ended) in, so the drag selects to that answer's edge.
 */
function keepDragInAnswer(range: Range): Range | null {
  const sourceOf = (node: Node) =>
    (node instanceof Element ? node : node.parentElement)?.closest(
      "[data-assistant-citation-source]",
    ) ?? null;
  const start = sourceOf(range.startContainer);
  const end = sourceOf(range.endContainer);
  if ((start === null) === (end === null)) return null;
  const kept = range.cloneRange();
  if (start !== null) kept.setEnd(start, start.childNodes.length);
  else if (end !== null) kept.setStart(end, 0);
  return kept;
}

/** The polite confirmation after citing. */
export const QUOTE_ADDED_MESSAGE = "Quote added to the composer.";
/** How long the confirmation stays in the page (long enough for a screen reader to read it). */
const ANNOUNCEMENT_MS = 6000;

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
  const [announcement, setAnnouncement] = useState<{ id: number; text: string } | null>(null);
  const observerRef = useRef<SelectionActionsObserver | null>(null);
  const shownRef = useRef<Shown | null>(null);
  shownRef.current = shown;
  /** Where focus and the selection were before the toolbar took focus (Escape restores them). */
  const returnTo = useRef<{ focus: Element | null; range: Range | null } | null>(null);
  const latest = useRef({ environmentId, threadId, onCite });
  latest.current = { environmentId, threadId, onCite };

  // Refs do not trigger renders: pick up the surface element after each commit.
  useEffect(() => {
    if (surfaceRef.current !== surface) setSurface(surfaceRef.current);
  });

  /**
   * What to show for `range`: the toolbar, a hint, or nothing (a blank selection). Returns the
   * citable capture, or the reason it cannot be cited (null for a blank selection).
   */
  const show = useCallback(
    (
      range: Range,
      open: SelectionActionsOpen,
    ): { capture: AssistantTextSelectionCapture } | { refusal: string | null } => {
      const { environmentId: env, threadId: thread } = latest.current;
      const capture = captureAssistantTextSelection(range, {
        environmentId: env,
        threadId: thread,
      });
      if (capture.citation !== null) {
        setShown({ kind: "toolbar", state: { open, capture } });
        return { capture };
      }
      const message = uncitableSelectionHint(capture.reason, range);
      setShown(message === null ? null : { kind: "hint", state: { message, range, open } });
      return { refusal: message };
    },
    [],
  );

  /** Says `text` in the polite live region (a refusal, or the confirmation after citing). */
  const announce = useCallback((text: string) => {
    setAnnouncement((current) => ({ id: (current?.id ?? 0) + 1, text }));
  }, []);

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

  // The confirmation leaves the page after a while, so it is not mistaken for a later status.
  useEffect(() => {
    if (announcement === null) return;
    const timer = setTimeout(() => setAnnouncement(null), ANNOUNCEMENT_MS);
    return () => clearTimeout(timer);
  }, [announcement]);

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
      if (capture.citation === null) {
        announce(uncitableSelectionHint(capture.reason, range) ?? ONE_ANSWER_HINT);
        return false;
      }
      if (capture.overLimit) {
        announce(overLimitMessage(capture.citation.text.length));
        return false;
      }
      cite(capture.citation, capture, input);
      return true;
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
    if (back === null) return;
    // Focus goes back where it was, or (it was on <body>, or its element is gone) to the
    // selection's message, so it never drops to <body>.
    const before =
      back.focus instanceof HTMLElement && back.focus.isConnected && back.focus !== document.body
        ? back.focus
        : messageRowOf(back.range);
    if (before !== null) before.focus({ preventScroll: true });
    else if (document.activeElement instanceof HTMLElement) document.activeElement.blur();
    // Focusing the button normally leaves the selection alone; put it back only if it moved.
    const selection = document.getSelection();
    const now = selection && selection.rangeCount > 0 ? selection.getRangeAt(0) : null;
    if (back.range !== null && selection && (now === null || !sameRange(now, back.range))) {
      selection.removeAllRanges();
      selection.addRange(back.range);
    }
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
        // Every refusal is said, with its reason: the popover showing it may be off screen.
        if ("refusal" in result) {
          announce(result.refusal ?? ONE_ANSWER_HINT);
        } else if (result.capture.overLimit) {
          announce(overLimitMessage(result.capture.citation.text.length));
        } else {
          cite(result.capture.citation, result.capture, "keyboard");
        }
        return;
      }
      if (!isToolbarFocusKey(event)) return;
      const current = shownRef.current;
      const rememberReturn = () => {
        const selection = document.getSelection();
        const range =
          selection && selection.rangeCount > 0 ? selection.getRangeAt(0).cloneRange() : null;
        returnTo.current = { focus: document.activeElement, range };
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
      {/*
        A polite live region, always mounted, with no role="status": the confirmation must not
        stand beside (or be taken for) a navigation warning, which DESIGN.md puts in role=status.
        Each cite remounts its line, so citing twice is announced twice.
      */}
      <div className="visually-hidden" aria-live="polite" data-cite-announcement="">
        {announcement === null ? null : <p key={announcement.id}>{announcement.text}</p>}
      </div>
    </>
  );
}

/** The message article (`tabindex=-1`) holding the start of `range`, or null. */
function messageRowOf(range: Range | null): HTMLElement | null {
  const node = range?.startContainer ?? null;
  const element = node instanceof Element ? node : (node?.parentElement ?? null);
  return element?.closest<HTMLElement>("[data-message-id]") ?? null;
}
