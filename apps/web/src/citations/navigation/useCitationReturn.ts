/**
 * The way back after a jump: a chip click recorded, on the history entry it was clicked on,
 * where the chip was (`CitationReturnPoint`, see assistantCitationNavigation.ts). When that
 * entry becomes current again (the browser's Back, or **Back to where you were**, which is the
 * same `history.back()`), the chip's message goes back to its place in the view (loading a
 * window around it first if needed) and the chip gets focus again.
 */
import { useLocation } from "@tanstack/react-router";
import { useCallback, useEffect } from "react";
import {
  CITATION_RETURN_ATTRIBUTE,
  cameFromCitationChip,
  readCitationReturnPoint,
} from "./assistantCitationNavigation.ts";

/** Options of {@link useCitationReturn}. */
export type UseCitationReturnOptions = {
  threadId: string;
  /** True once the thread's first page is shown. */
  ready: boolean;
  isLoaded(messageId: string): boolean;
  loadAround(messageId: string): Promise<{ status: "loaded" | "missing" | "failed" }>;
  /** Starts a timeline session with a message at a place in the view. */
  showMessage(placement: { messageId: string; viewPosition: number }): void;
  /** Asks the timeline to put a mounted row at a place in the view (TimelineHandle.placeMessage). */
  placeMessage(messageId: string, viewPosition: number): boolean;
};

/** Restores a chip's place on Back; says whether "Back to where you were" applies. */
export function useCitationReturn({
  threadId,
  ready,
  isLoaded,
  loadAround,
  showMessage,
  placeMessage,
}: UseCitationReturnOptions): { canGoBack: boolean; goBack(): void } {
  const returnKey = useLocation({ select: citationReturnKey });
  useEffect(() => {
    if (returnKey === null || !ready) return;
    const point = readCitationReturnPoint(JSON.parse(returnKey.split("\u0000")[1] ?? "null"));
    if (point === null || point.threadId !== threadId) return;
    let cancelled = false;
    const place = () => {
      if (cancelled) return;
      if (!placeMessage(point.messageId, point.viewPosition)) {
        showMessage({ messageId: point.messageId, viewPosition: point.viewPosition });
      }
      focusChipWhenMounted(point.messageId, point.href);
    };
    if (isLoaded(point.messageId)) place();
    else void loadAround(point.messageId).then((result) => result.status === "loaded" && place());
    return () => {
      cancelled = true;
    };
  }, [returnKey, ready, threadId, isLoaded, loadAround, showMessage, placeMessage]);
  const canGoBack = useLocation({ select: (location) => cameFromCitationChip(location.state) });
  const goBack = useCallback(() => window.history.back(), []);
  return { canGoBack, goBack };
}

/** The return point of a location's history entry with the entry's key, as one string (or null). */
function citationReturnKey(location: { state: unknown }): string | null {
  const point = readCitationReturnPoint(location.state);
  if (point === null) return null;
  const state = (location.state ?? {}) as Record<string, unknown>;
  const key = String(state.__TSR_key ?? state.key ?? "");
  return `${key}\u0000${JSON.stringify({ citationReturn: point })}`;
}

/**
 * Focuses the chip (by href), or the control named by `data-citation-return`, in a message row
 * once the row is mounted (a few frames at most).
 */
function focusChipWhenMounted(messageId: string, href: string): void {
  let frames = 0;
  const attempt = () => {
    const row = document.querySelector(`[data-message-id="${CSS.escape(messageId)}"]`);
    const chip = [
      ...(row?.querySelectorAll<HTMLElement>(
        `[data-assistant-citation-chip], [${CITATION_RETURN_ATTRIBUTE}]`,
      ) ?? []),
    ].find(
      (element) =>
        (element.getAttribute("href") ?? element.getAttribute(CITATION_RETURN_ATTRIBUTE)) === href,
    );
    if (chip) chip.focus({ preventScroll: true });
    else if (frames++ < 60) requestAnimationFrame(attempt);
  };
  requestAnimationFrame(attempt);
}
