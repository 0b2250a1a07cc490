/**
 * Browser Back and Forward restore each thread's place (issue 32). While a thread is read, the
 * history entry it is shown on remembers the reader's place (`scrollPlace.ts`): the message row
 * holding the view's top line and how far its top is above or below the view's top, or that the
 * view is at the end. It is read as the reader scrolls and once more as the entry is left (the
 * rows move without a scroll event when the list measures them). When that entry becomes current
 * again (Back, Forward), the thread opens there: the row is placed if it is mounted, else a
 * timeline session starts at it (one `around=` first if it is not loaded), and the row is held at
 * its offset while the rows around it are measured. Entries a citation jump owns
 * (`#assistant-citation=`, a chip's return point) are left to citation navigation. Places live
 * for the page's lifetime (a module map by entry key). The hook only asks the timeline to move
 * (`TimelineHandle`, timeline/README.md).
 */
import { useLocation } from "@tanstack/react-router";
import { type RefObject, useEffect, useLayoutEffect, useRef } from "react";
import { readCitationReturnPoint } from "../citations/navigation/assistantCitationNavigation.ts";
import type { TimelineHandle } from "../timeline/timelineHandle.ts";
import {
  placeOfView,
  type RowExtent,
  type ScrollPlace,
  viewPositionOfOffset,
} from "./scrollPlace.ts";

/** Places by thread and history entry. */
const places = new Map<string, ScrollPlace>();

function placeKey(threadId: string, entry: string): string {
  return `${threadId}\u0000${entry}`;
}

/** Options of {@link useScrollRestoration}. */
export type UseScrollRestorationOptions = {
  threadId: string;
  ready: boolean;
  /** The element around the timeline (scroll events are caught on it). */
  surfaceRef: RefObject<HTMLElement | null>;
  timelineRef: RefObject<TimelineHandle | null>;
  isLoaded(messageId: string): boolean;
  loadAround(messageId: string): Promise<{ status: "loaded" | "missing" | "failed" }>;
  showMessage(placement: { messageId: string; viewPosition: number }): void;
};

/**
 * The key of the history entry shown, or null for an entry citation navigation owns, or one of
 * another thread (the view being left sees the next entry before it unmounts).
 */
function entryKey(
  location: { state: unknown; hash: string; pathname: string },
  threadId: string,
): string | null {
  if (!location.pathname.endsWith(`/${threadId}`)) return null;
  const state = (location.state ?? {}) as Record<string, unknown>;
  if (location.hash.includes("assistant-citation=") || readCitationReturnPoint(state) !== null) {
    return null;
  }
  const key = state.__TSR_key ?? state.key;
  return typeof key === "string" ? key : null;
}

/**
 * The reader's place in a mounted timeline, or null when no row is in view or the timeline is
 * not shown (a Suspense boundary hiding it runs this hook's layout cleanup with `display: none`).
 */
function readPlace(scroller: HTMLElement): ScrollPlace | null {
  if (!scroller.isConnected || scroller.clientHeight === 0) return null;
  const box = scroller.getBoundingClientRect();
  const rows: RowExtent[] = [];
  for (const row of scroller.querySelectorAll<HTMLElement>("[data-message-id]")) {
    const rect = row.getBoundingClientRect();
    if (rect.height === 0) continue;
    rows.push({
      messageId: row.getAttribute("data-message-id") ?? "",
      top: rect.top,
      bottom: rect.bottom,
    });
  }
  return placeOfView(
    {
      top: box.top,
      bottom: box.bottom,
      distanceFromEnd: scroller.scrollHeight - scroller.clientHeight - scroller.scrollTop,
    },
    rows,
  );
}

/** A row is in place within this distance (px). */
const IN_PLACE_PX = 0.5;
/** The hold ends once the row stayed in place this many frames in a row... */
const QUIET_FRAMES = 20;
/** ...and at least this long after it started (ms)... */
const MIN_HOLD_MS = 500;
/** ...or at the latest after this long (ms). */
const MAX_HOLD_MS = 3000;
const READER_INPUT = ["wheel", "touchmove", "keydown", "pointerdown"] as const;

/**
 * Keeps a row at its place: every frame, `inPlace` is asked and `place` called when it is not,
 * until the row stayed put for a while (its neighbours are measured), or the reader scrolls,
 * presses or types. `onEnd` is called once, when the hold ends.
 */
function holdPlace(inPlace: () => boolean, place: () => void, onEnd: () => void): () => void {
  const started = performance.now();
  let frame = 0;
  let quiet = 0;
  let ended = false;
  const stop = () => {
    if (ended) return;
    ended = true;
    cancelAnimationFrame(frame);
    for (const type of READER_INPUT) window.removeEventListener(type, stop, true);
    onEnd();
  };
  const tick = () => {
    if (inPlace()) quiet += 1;
    else {
      quiet = 0;
      place();
    }
    const elapsed = performance.now() - started;
    if ((quiet >= QUIET_FRAMES && elapsed >= MIN_HOLD_MS) || elapsed > MAX_HOLD_MS) return stop();
    frame = requestAnimationFrame(tick);
  };
  for (const type of READER_INPUT) {
    window.addEventListener(type, stop, { capture: true, passive: true });
  }
  frame = requestAnimationFrame(tick);
  return stop;
}

/** True when a mounted row's top is `offset` px below the view's top. */
function rowIsAt(scroller: HTMLElement | null, messageId: string, offset: number): boolean {
  const row = scroller?.querySelector(`[data-message-id="${CSS.escape(messageId)}"]`);
  if (!scroller || !row) return false;
  const top = row.getBoundingClientRect().top - scroller.getBoundingClientRect().top;
  return Math.abs(top - offset) <= IN_PLACE_PX;
}

/** See the module doc. */
export function useScrollRestoration(options: UseScrollRestorationOptions): void {
  const { threadId, ready, surfaceRef } = options;
  const key = useLocation({ select: (location) => entryKey(location, threadId) });
  const latest = useRef(options);
  latest.current = options;
  // While a place is being restored, the view is not the reader's yet: nothing is saved.
  const restoring = useRef(false);

  // Remember the place of this entry as the reader scrolls (one read per frame at most), and
  // once more as the entry is left (a layout effect: its cleanup runs before the rows go).
  useLayoutEffect(() => {
    const surface = surfaceRef.current;
    if (!ready || key === null || surface === null) return;
    const save = () => {
      if (restoring.current) return;
      const scroller = latest.current.timelineRef.current?.getScrollElement() ?? null;
      if (scroller === null) return;
      const place = readPlace(scroller);
      if (place !== null) places.set(placeKey(threadId, key), place);
    };
    let frame = 0;
    const onScroll = () => {
      if (frame !== 0) return;
      frame = requestAnimationFrame(() => {
        frame = 0;
        save();
      });
    };
    surface.addEventListener("scroll", onScroll, { capture: true, passive: true });
    return () => {
      cancelAnimationFrame(frame);
      surface.removeEventListener("scroll", onScroll, { capture: true });
      save();
    };
  }, [ready, key, threadId, surfaceRef]);

  // Restore it when the entry is shown again.
  useEffect(() => {
    if (!ready || key === null) return;
    const saved = places.get(placeKey(threadId, key));
    if (saved === undefined || "atEnd" in saved) return;
    const { messageId, offset } = saved;
    const { isLoaded, loadAround } = latest.current;
    let cancelled = false;
    let stopHolding = () => {};
    restoring.current = true;
    const timeline = () => latest.current.timelineRef.current;
    const apply = () => {
      if (cancelled) return;
      timeline()?.holdFollowing();
      if (!timeline()?.placeMessageAt(messageId, offset)) {
        const height = timeline()?.getScrollElement()?.clientHeight ?? 0;
        latest.current.showMessage({
          messageId,
          viewPosition: viewPositionOfOffset(offset, height),
        });
      }
      // A new session places the row by estimated sizes: hold it at its exact place while the
      // rows around it are measured.
      stopHolding = holdPlace(
        () => rowIsAt(timeline()?.getScrollElement() ?? null, messageId, offset),
        () => timeline()?.placeMessageAt(messageId, offset),
        () => {
          restoring.current = false;
        },
      );
    };
    if (isLoaded(messageId)) apply();
    else {
      void loadAround(messageId).then((result) => {
        if (result.status === "loaded") apply();
        else if (!cancelled) restoring.current = false;
      });
    }
    return () => {
      cancelled = true;
      stopHolding();
      restoring.current = false;
    };
  }, [ready, key, threadId]);
}
