/**
 * The shared selection-action observer: decides when a floating action menu (the assistant
 * selection toolbar, the terminal's selection menu) opens for a selection inside a surface, how
 * it was made (mouse, keyboard, touch), and when it goes away. Framework-agnostic: plain DOM
 * listeners, no React.
 *
 * Rules:
 * - **Mouse.** Opens after a primary-button release that ends a gesture which *started* inside
 *   the surface, on text (not on a control such as a Copy button), with the selection then
 *   non-collapsed and inside the surface. A drag (the pointer moved) or a triple click opens at
 *   once; a single or double click waits out the repeat-click window (500 ms) first, so a double
 *   or triple click can finish (a new press within the window cancels the pending open).
 * - **Everything else** (Shift + arrows, caret browsing, a screen reader's selection, a touch
 *   long-press or handle drag, a selection set by script): the document's `selectionchange`
 *   drives it. Once the selection has stopped changing for {@link SELECTION_SETTLE_MS} while no
 *   mouse button is down, actions open (or re-open on the new range); a selection that collapses
 *   or leaves the surface closes them.
 * - Anchors: a mouse release anchors at the release point; other inputs anchor on the selected
 *   text itself (`anchor: null`), and say which input it was so the menu can be placed clear of
 *   the native touch selection menu.
 * - Dismisses on a press outside the registered toolbar elements and on Escape. Scrolling does
 *   not dismiss: the menu follows its text.
 * - Presses, releases, keys and focus inside a registered toolbar element are ignored, so using
 *   the toolbar never dismisses it or replaces the range it was opened with.
 */

import {
  clampReleasedDrag,
  isDrag,
  type MouseGesture,
  selectedRange,
  startMouseGesture,
} from "./mouseGesture.ts";
import { sameRange } from "./selectionRange.ts";

/** The default repeat-click window, in milliseconds. */
export const SELECTION_ACTIONS_REPEAT_CLICK_WINDOW_MS = 500;

/**
 * How long a keyboard, touch or scripted selection must stay unchanged before actions open.
 * Short enough to feel immediate, long enough that holding Shift+Arrow does not re-open the
 * menu on every step.
 */
export const SELECTION_SETTLE_MS = 120;

/** A point in viewport (client) coordinates. */
export type SelectionActionsAnchor = { x: number; y: number };

/** How the selection that opened the actions was made. */
export type SelectionInput = "mouse" | "keyboard" | "touch";

/** What {@link SelectionActionsOptions.onOpen} receives besides the range. */
export type SelectionActionsOpen = {
  /** The mouse release point, or null to anchor on the selected text. */
  anchor: SelectionActionsAnchor | null;
  input: SelectionInput;
};

/** Options of {@link observeSelectionActions}. */
export type SelectionActionsOptions = {
  /** The element whose selections get actions (for the assistant toolbar: the thread body). */
  surface: Element;
  /**
   * Called when actions should open, with a copy of the selected range. Called again (without a
   * dismiss in between) when a keyboard or touch selection changes while actions are open.
   */
  onOpen(range: Range, open: SelectionActionsOpen): void;
  /** Called when open actions should close. Not called for an open that was only pending. */
  onDismiss(): void;
  /** How long a click waits before opening; defaults to 500 ms. */
  repeatClickWindowMs?: number;
  /** How long other selections must settle before opening; defaults to {@link SELECTION_SETTLE_MS}. */
  settleMs?: number;
  /**
   * A mouse drag that started inside the surface but was released outside it (over the
   * composer, the sidebar) selects past the surface's edge. Given that selection, returns the
   * part to keep (it becomes the selection), or null to treat it as outside. Default: null.
   */
  clampDrag?(range: Range): Range | null;
};

/** The handle returned by {@link observeSelectionActions}. */
export interface SelectionActionsObserver {
  /**
   * Marks `element` as part of the actions UI: interacting with it never dismisses the actions
   * or starts a new selection gesture. Returns a function that unregisters it.
   */
  registerToolbarElement(element: Element): () => void;
  /** Closes open actions (calls `onDismiss`) and cancels a pending open. */
  dismiss(): void;
  /**
   * Records that actions were opened for `range` by other means (a keyboard shortcut), so the
   * usual rules close them: a press outside, Escape, the selection collapsing or moving away.
   */
  markOpen(range: Range): void;
  /** Whether actions are open (between `onOpen` and `onDismiss`). */
  readonly isOpen: boolean;
  /** Removes every listener and cancels a pending open, without calling `onDismiss`. */
  dispose(): void;
}

/**
 * Starts observing selections on `options.surface` (see this module's rules). Listens on the
 * surface's document; call `dispose()` to stop.
 */
export function observeSelectionActions(
  options: SelectionActionsOptions,
): SelectionActionsObserver {
  const { surface, onOpen, onDismiss } = options;
  const repeatWindow = options.repeatClickWindowMs ?? SELECTION_ACTIONS_REPEAT_CLICK_WINDOW_MS;
  const settleMs = options.settleMs ?? SELECTION_SETTLE_MS;
  const document = surface.ownerDocument;
  const view = document.defaultView;
  const usePointerEvents = typeof view?.PointerEvent === "function";
  const downType = usePointerEvents ? "pointerdown" : "mousedown";
  const upType = usePointerEvents ? "pointerup" : "mouseup";

  const toolbarElements = new Set<Element>();
  let open = false;
  /** The range actions were last opened with (a repeated `selectionchange` for it is no news). */
  let openRange: Range | null = null;
  /** A mouse (or pen) button held down: its `selectionchange`s wait for the release. */
  let mouseGesture: MouseGesture | null = null;
  let lastInput: "keyboard" | "touch" = "keyboard";
  /**
   * The selection as a mouse release left it. The browser may deliver that change's
   * `selectionchange` only after the release; the release already decided about it.
   */
  let releasedRange: Range | null = null;
  let pending: ReturnType<typeof setTimeout> | null = null;
  /** Whether the pending open is a click's (waiting out the repeat window). */
  let pendingClick = false;

  const isInToolbar = (target: EventTarget | null) => {
    if (!(target instanceof Node)) return false;
    for (const element of toolbarElements) if (element.contains(target)) return true;
    return false;
  };
  const focusInToolbar = () => isInToolbar(document.activeElement);

  const cancelPending = () => {
    if (pending !== null) clearTimeout(pending);
    pending = null;
    pendingClick = false;
  };

  const dismiss = () => {
    cancelPending();
    openRange = null;
    if (!open) return;
    open = false;
    onDismiss();
  };

  /** Opens on the current selection if it is a non-collapsed range inside the surface. */
  const openNow = (anchor: SelectionActionsAnchor | null, input: SelectionInput) => {
    pending = null;
    pendingClick = false;
    const range = selectedRange(view?.getSelection() ?? null);
    if (range === null || !surface.contains(range.commonAncestorContainer)) {
      dismiss();
      return;
    }
    open = true;
    openRange = range.cloneRange();
    onOpen(range, { anchor, input });
  };

  const schedule = (
    delay: number,
    anchor: SelectionActionsAnchor | null,
    input: SelectionInput,
  ) => {
    cancelPending();
    pending = setTimeout(() => openNow(anchor, input), delay);
  };

  /**
   * A click waits out the repeat window. If the page scrolls meanwhile, the release point no
   * longer lies on the text: it moves by as much as the selected text moved.
   */
  const scheduleClick = (at: SelectionActionsAnchor) => {
    const before = selectedRange(view?.getSelection() ?? null)?.getBoundingClientRect?.();
    cancelPending();
    pendingClick = true;
    pending = setTimeout(() => {
      const after = selectedRange(view?.getSelection() ?? null)?.getBoundingClientRect?.();
      const moved =
        before && after ? { x: after.left - before.left, y: after.top - before.top } : null;
      openNow(moved ? { x: at.x + moved.x, y: at.y + moved.y } : at, "mouse");
    }, repeatWindow);
  };

  const onPointerDown = (event: MouseEvent) => {
    if (isInToolbar(event.target)) return;
    // Without Pointer Events, another button pressed during a gesture (a middle click while
    // dragging) fires its own mousedown: it is part of the gesture, not a new one.
    if (mouseGesture !== null && event.button !== mouseGesture.button) return;
    cancelPending();
    dismiss();
    const pointerType = (event as Partial<PointerEvent>).pointerType ?? "mouse";
    if (pointerType === "touch") {
      // Touch selections (long-press, handles) arrive through selectionchange.
      lastInput = "touch";
      mouseGesture = null;
      return;
    }
    mouseGesture = startMouseGesture(event, surface);
  };

  const onPointerUp = (event: MouseEvent) => {
    const gesture = mouseGesture;
    if (gesture === null) return;
    // Another button's release (its own mouseup without Pointer Events) does not end the drag.
    if (event.button !== gesture.button) return;
    mouseGesture = null;
    releasedRange = selectedRange(view?.getSelection() ?? null)?.cloneRange() ?? null;
    if (!gesture.inside || gesture.onControl || event.button !== 0) return;
    const at = { x: event.clientX, y: event.clientY };
    const dragged = isDrag(gesture, at);
    if (dragged && releasedRange !== null) {
      const selection = view?.getSelection() ?? null;
      releasedRange = clampReleasedDrag(releasedRange, surface, selection, options.clampDrag);
    }
    if (dragged || gesture.detail >= 3) {
      // The selection is final at the release: nothing else can extend it, open now.
      cancelPending();
      openNow(at, "mouse");
    } else {
      scheduleClick(at);
    }
  };

  const onPointerCancel = () => {
    mouseGesture = null;
  };

  const onKeyDown = (event: KeyboardEvent) => {
    if (isInToolbar(event.target)) return;
    lastInput = "keyboard";
    if (event.key === "Escape") dismiss();
  };

  const onSelectionChange = () => {
    // A held mouse button, or a click waiting for a possible double click: the release or the
    // pending open decides (it reads the selection when it fires).
    if (mouseGesture !== null || pendingClick || focusInToolbar()) return;
    const range = selectedRange(view?.getSelection() ?? null);
    if (range === null || !surface.contains(range.commonAncestorContainer)) {
      dismiss();
      return;
    }
    if (open && openRange !== null && sameRange(range, openRange)) return;
    if (releasedRange !== null && sameRange(range, releasedRange)) return;
    releasedRange = null;
    schedule(settleMs, null, lastInput);
  };

  document.addEventListener(downType, onPointerDown as EventListener, true);
  document.addEventListener(upType, onPointerUp as EventListener, true);
  if (usePointerEvents) document.addEventListener("pointercancel", onPointerCancel, true);
  document.addEventListener("keydown", onKeyDown, true);
  document.addEventListener("selectionchange", onSelectionChange);

  return {
    registerToolbarElement(element) {
      toolbarElements.add(element);
      return () => {
        toolbarElements.delete(element);
      };
    },
    dismiss,
    markOpen(range) {
      cancelPending();
      open = true;
      openRange = range.cloneRange();
    },
    get isOpen() {
      return open;
    },
    dispose() {
      cancelPending();
      open = false;
      openRange = null;
      toolbarElements.clear();
      document.removeEventListener(downType, onPointerDown as EventListener, true);
      document.removeEventListener(upType, onPointerUp as EventListener, true);
      if (usePointerEvents) document.removeEventListener("pointercancel", onPointerCancel, true);
      document.removeEventListener("keydown", onKeyDown, true);
      document.removeEventListener("selectionchange", onSelectionChange);
    },
  };
}
