/**
 * The shared selection-action observer: decides when a floating action menu (the assistant
 * selection toolbar, the terminal's selection menu) opens for a selection inside a surface, where
 * it is anchored, and when it goes away. Framework-agnostic: plain DOM listeners, no React.
 *
 * Rules (spec: "Composer and clients"):
 * - Opens only after a primary-button release (`pointerup`, or `mouseup` without Pointer Events,
 *   button 0) that ends a gesture which *started* inside the surface, and only if the selection
 *   is then non-collapsed and lies inside the surface.
 * - Waits out the repeat-click window (500 ms) after the release so double and triple clicks can
 *   finish; a new press within the window cancels the pending open (the next release restarts it).
 * - Anchors to the release point. Keyboard selections (Shift + arrows / Home / End / Page keys,
 *   Ctrl/Cmd + A) open on key release after the same window, anchored at the end of the selected
 *   text's last client rect. A scroll while an open is pending re-anchors it the same way.
 * - Dismisses on a press anywhere outside the registered toolbar elements (outside the surface,
 *   or inside it where a new gesture begins), on scrolling (capture phase, any scroller), on a
 *   selection-changing key, and on Escape.
 * - Presses, releases and keys inside a registered toolbar element are ignored entirely, so
 *   using the toolbar never dismisses it or replaces the range it was opened with.
 */

import { selectionRange } from "./selectionRange.ts";

/** The default repeat-click window, in milliseconds. */
export const SELECTION_ACTIONS_REPEAT_CLICK_WINDOW_MS = 500;

/** A point in viewport (client) coordinates. */
export type SelectionActionsAnchor = { x: number; y: number };

/** Options of {@link observeSelectionActions}. */
export type SelectionActionsOptions = {
  /** The element whose selections get actions (for the assistant toolbar: the timeline). */
  surface: Element;
  /** Called when actions should open, with the anchor and a copy of the selected range. */
  onOpen(anchor: SelectionActionsAnchor, range: Range): void;
  /** Called when open actions should close. Not called for an open that was only pending. */
  onDismiss(): void;
  /** How long to wait after a release before opening; defaults to 500 ms. */
  repeatClickWindowMs?: number;
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
  /** Whether actions are open (between `onOpen` and `onDismiss`). */
  readonly isOpen: boolean;
  /** Removes every listener and cancels a pending open, without calling `onDismiss`. */
  dispose(): void;
}

const NAVIGATION_KEYS = new Set([
  "ArrowLeft",
  "ArrowRight",
  "ArrowUp",
  "ArrowDown",
  "Home",
  "End",
  "PageUp",
  "PageDown",
]);

const isSelectAll = (event: KeyboardEvent) =>
  (event.key === "a" || event.key === "A") && (event.ctrlKey || event.metaKey);

/** The selection as one range (see selectionRange), or null when nothing is selected. */
function selectedRange(selection: Selection | null): Range | null {
  if (!selection || selection.isCollapsed) return null;
  const range = selectionRange(selection);
  return range === null || range.collapsed ? null : range;
}

/**
 * Where the selected text ends on screen: the bottom-right corner of the range's last client
 * rect that has a size, else of its bounding rect, else of its end container's element. Null
 * when no layout is available at all.
 */
export function rangeEndAnchor(range: Range): SelectionActionsAnchor | null {
  const rects = typeof range.getClientRects === "function" ? [...range.getClientRects()] : [];
  for (let i = rects.length - 1; i >= 0; i--) {
    const rect = rects[i]!;
    if (rect.width > 0 || rect.height > 0) return { x: rect.right, y: rect.bottom };
  }
  const boxes: DOMRect[] = [];
  if (typeof range.getBoundingClientRect === "function") boxes.push(range.getBoundingClientRect());
  const container = range.endContainer;
  const element =
    container.nodeType === Node.ELEMENT_NODE ? (container as Element) : container.parentElement;
  if (element) boxes.push(element.getBoundingClientRect());
  for (const box of boxes) {
    if (box.width > 0 || box.height > 0) return { x: box.right, y: box.bottom };
  }
  return null;
}

/**
 * Starts observing selection gestures on `options.surface` (see this module's rules). Listens on
 * the surface's document and window; call `dispose()` to stop.
 */
export function observeSelectionActions(
  options: SelectionActionsOptions,
): SelectionActionsObserver {
  const { surface, onOpen, onDismiss } = options;
  const delay = options.repeatClickWindowMs ?? SELECTION_ACTIONS_REPEAT_CLICK_WINDOW_MS;
  const document = surface.ownerDocument;
  const view = document.defaultView;
  const usePointerEvents = typeof view?.PointerEvent === "function";
  const downType = usePointerEvents ? "pointerdown" : "mousedown";
  const upType = usePointerEvents ? "pointerup" : "mouseup";

  const toolbarElements = new Set<Element>();
  let open = false;
  let gestureInside = false;
  let keyboardSelecting = false;
  let pending: ReturnType<typeof setTimeout> | null = null;

  const isInToolbar = (target: EventTarget | null) => {
    if (!(target instanceof Node)) return false;
    for (const element of toolbarElements) if (element.contains(target)) return true;
    return false;
  };

  const cancelPending = () => {
    if (pending !== null) clearTimeout(pending);
    pending = null;
  };

  const dismiss = () => {
    cancelPending();
    if (!open) return;
    open = false;
    onDismiss();
  };

  /** The release point of the pending open; null anchors it at the end of the selected text. */
  let pendingAnchor: SelectionActionsAnchor | null = null;

  const schedule = (anchor: SelectionActionsAnchor | null) => {
    cancelPending();
    pendingAnchor = anchor;
    pending = setTimeout(() => {
      pending = null;
      const range = selectedRange(view?.getSelection() ?? null);
      if (range === null || !surface.contains(range.commonAncestorContainer)) return;
      const at = pendingAnchor ?? rangeEndAnchor(range) ?? anchor ?? { x: 0, y: 0 };
      open = true;
      onOpen(at, range);
    }, delay);
  };

  const onPointerDown = (event: MouseEvent) => {
    if (isInToolbar(event.target)) return;
    cancelPending();
    keyboardSelecting = false;
    dismiss();
    const primary = event.button === 0 && (event as Partial<PointerEvent>).isPrimary !== false;
    gestureInside = primary && event.target instanceof Node && surface.contains(event.target);
  };

  const onPointerUp = (event: MouseEvent) => {
    if (!gestureInside) return;
    gestureInside = false;
    if (event.button !== 0) return;
    schedule({ x: event.clientX, y: event.clientY });
  };

  const onPointerCancel = () => {
    gestureInside = false;
  };

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === "Escape") {
      dismiss();
      return;
    }
    if (isInToolbar(event.target)) return;
    if (NAVIGATION_KEYS.has(event.key) || isSelectAll(event)) {
      dismiss();
      keyboardSelecting = event.shiftKey || isSelectAll(event);
    }
  };

  const onKeyUp = (event: KeyboardEvent) => {
    if (isInToolbar(event.target) || gestureInside || !keyboardSelecting) return;
    // Released in either order: the navigation key (Shift still held) or Shift itself.
    const ends =
      (NAVIGATION_KEYS.has(event.key) && event.shiftKey) ||
      event.key === "Shift" ||
      isSelectAll(event) ||
      event.key === "Control" ||
      event.key === "Meta";
    if (!ends) return;
    keyboardSelecting = false;
    schedule(null);
  };

  const onScroll = (event: Event) => {
    if (isInToolbar(event.target)) return;
    // The text moved away from the release point: anchor a pending open on the text instead.
    pendingAnchor = null;
    if (open) {
      open = false;
      onDismiss();
    }
  };

  document.addEventListener(downType, onPointerDown as EventListener, true);
  document.addEventListener(upType, onPointerUp as EventListener, true);
  if (usePointerEvents) document.addEventListener("pointercancel", onPointerCancel, true);
  document.addEventListener("keydown", onKeyDown, true);
  document.addEventListener("keyup", onKeyUp, true);
  // Scroll events do not bubble; a capturing listener on the window sees every scroller's.
  view?.addEventListener("scroll", onScroll, { capture: true, passive: true });

  return {
    registerToolbarElement(element) {
      toolbarElements.add(element);
      return () => {
        toolbarElements.delete(element);
      };
    },
    dismiss,
    get isOpen() {
      return open;
    },
    dispose() {
      cancelPending();
      open = false;
      toolbarElements.clear();
      document.removeEventListener(downType, onPointerDown as EventListener, true);
      document.removeEventListener(upType, onPointerUp as EventListener, true);
      if (usePointerEvents) document.removeEventListener("pointercancel", onPointerCancel, true);
      document.removeEventListener("keydown", onKeyDown, true);
      document.removeEventListener("keyup", onKeyUp, true);
      view?.removeEventListener("scroll", onScroll, { capture: true });
    },
  };
}
