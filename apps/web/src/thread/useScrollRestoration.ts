/**
 * Browser Back and Forward restore each thread's place (issue 32). While a thread is read, the
 * history entry it is shown on remembers which message sits at the top of the view and where
 * (the first row starting inside the view, as a `viewPosition`), or that the view is at the end.
 * When that entry becomes current again (Back, Forward), the thread opens there: the row is
 * placed if it is mounted, else a timeline session starts at it (one `around=` first if it is not
 * loaded). Entries a citation jump owns (`#assistant-citation=`, a chip's return point) are left
 * to citation navigation. Positions live for the page's lifetime (a module map by entry key).
 */
import { useLocation } from "@tanstack/react-router";
import { type RefObject, useEffect, useRef } from "react";
import { readCitationReturnPoint } from "../citations/assistantCitationNavigation.ts";

/** A row's top, in CSS pixels below the top of the view (or the view at the end). */
type SavedPlace =
  | { threadId: string; messageId: string; offset: number }
  | { threadId: string; atEnd: true };

const places = new Map<string, SavedPlace>();

/** Options of {@link useScrollRestoration}. */
export type UseScrollRestorationOptions = {
  threadId: string;
  ready: boolean;
  /** The element around the timeline (scroll events are caught on it). */
  surfaceRef: RefObject<HTMLElement | null>;
  getScrollElement(): HTMLElement | null;
  isLoaded(messageId: string): boolean;
  loadAround(messageId: string): Promise<{ status: "loaded" | "missing" | "failed" }>;
  showMessage(placement: { messageId: string; viewPosition: number }): void;
  placeMessage(messageId: string, viewPosition: number): boolean;
};

function entryKey(location: { state: unknown; hash: string }): string | null {
  const state = (location.state ?? {}) as Record<string, unknown>;
  if (location.hash.includes("assistant-citation=") || readCitationReturnPoint(state) !== null) {
    return null;
  }
  const key = state.__TSR_key ?? state.key;
  return typeof key === "string" ? key : null;
}

/** Where the view is: its top row and place, or at the end. */
function readPlace(scroller: HTMLElement, threadId: string): SavedPlace | null {
  if (scroller.scrollHeight - scroller.clientHeight - scroller.scrollTop <= 2) {
    return { threadId, atEnd: true };
  }
  const box = scroller.getBoundingClientRect();
  for (const row of scroller.querySelectorAll<HTMLElement>("[data-message-id]")) {
    const rect = row.getBoundingClientRect();
    if (rect.top < box.top - 0.5 || rect.top >= box.bottom) continue;
    return {
      threadId,
      messageId: row.getAttribute("data-message-id") ?? "",
      offset: rect.top - box.top,
    };
  }
  return null;
}

/** How long a restored row is held at its place while its neighbours are measured (ms). */
const HOLD_MS = 1000;

/** Calls `place` every frame for {@link HOLD_MS}, until the reader scrolls, presses or types. */
function holdPlace(place: () => boolean): () => void {
  const started = performance.now();
  let frame = 0;
  const stop = () => {
    cancelAnimationFrame(frame);
    for (const type of ["wheel", "touchmove", "keydown", "pointerdown"]) {
      window.removeEventListener(type, stop, true);
    }
  };
  const tick = () => {
    if (performance.now() - started > HOLD_MS) return stop();
    place();
    frame = requestAnimationFrame(tick);
  };
  for (const type of ["wheel", "touchmove", "keydown", "pointerdown"]) {
    window.addEventListener(type, stop, { capture: true, passive: true });
  }
  frame = requestAnimationFrame(tick);
  return stop;
}

/** Puts a mounted row's top `offset` px below the view's top; false when it is not mounted. */
function placeRow(
  timeline: Pick<UseScrollRestorationOptions, "getScrollElement" | "placeMessage">,
  place: { messageId: string; offset: number },
): boolean {
  const scroller = timeline.getScrollElement();
  const row = scroller?.querySelector(`[data-message-id="${CSS.escape(place.messageId)}"]`);
  if (!scroller || !row) return false;
  const room = scroller.clientHeight - row.getBoundingClientRect().height;
  const viewPosition = room <= 0 ? 0 : Math.min(1, Math.max(0, place.offset / room));
  return timeline.placeMessage(place.messageId, viewPosition);
}

/** See the module doc. */
export function useScrollRestoration(options: UseScrollRestorationOptions): void {
  const key = useLocation({ select: entryKey });
  const latest = useRef(options);
  latest.current = options;
  const { threadId, ready, surfaceRef } = options;

  // Remember the place of this entry as the reader scrolls (one read per frame at most).
  useEffect(() => {
    const surface = surfaceRef.current;
    if (!ready || key === null || surface === null) return;
    let frame = 0;
    const onScroll = () => {
      if (frame !== 0) return;
      frame = requestAnimationFrame(() => {
        frame = 0;
        const scroller = latest.current.getScrollElement();
        const place = scroller ? readPlace(scroller, threadId) : null;
        if (place !== null) places.set(key, place);
      });
    };
    surface.addEventListener("scroll", onScroll, { capture: true, passive: true });
    return () => {
      cancelAnimationFrame(frame);
      surface.removeEventListener("scroll", onScroll, { capture: true });
    };
  }, [ready, key, threadId, surfaceRef]);

  // Restore it when the entry is shown again.
  useEffect(() => {
    if (!ready || key === null) return;
    const place = places.get(key);
    if (place === undefined || place.threadId !== threadId || "atEnd" in place) return;
    const { isLoaded, loadAround } = latest.current;
    let cancelled = false;
    let stopHolding = () => {};
    const apply = () => {
      if (cancelled) return;
      const { showMessage } = latest.current;
      if (!placeRow(latest.current, place)) {
        const height = latest.current.getScrollElement()?.clientHeight ?? 0;
        showMessage({
          messageId: place.messageId,
          viewPosition: height > 0 ? Math.min(1, Math.max(0, place.offset / height)) : 0,
        });
      }
      // A new session places the row by estimated sizes: hold it at its exact place while the
      // rows around it are measured.
      stopHolding = holdPlace(() => placeRow(latest.current, place));
    };
    if (isLoaded(place.messageId)) apply();
    else void loadAround(place.messageId).then((result) => result.status === "loaded" && apply());
    return () => {
      cancelled = true;
      stopHolding();
    };
  }, [ready, key, threadId]);
}
