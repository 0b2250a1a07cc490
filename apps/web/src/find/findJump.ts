/**
 * Jumping to a find match, with the machinery a citation chip uses (see
 * `thread/useAssistantCitationTarget.ts` and `citations/navigation/revealCitationSource.ts`): a message
 * that is not loaded costs one `around=` request; a long message's fold opens first
 * (`unfoldMessage`); a row already mounted near the view is brought in by the timeline, any
 * other by a new timeline session placed at the message (instant; its folded turn unfolded);
 * then, once the body is mounted, the matched words' DOM range is revealed by the timeline (it
 * alone scrolls: timeline/README.md), after a code block or table wider than the column has
 * scrolled sideways to the words (`revealInline.ts`). Late checks bring the words back if rows measured around
 * them pushed them out, unless the reader moved meanwhile. Plain TypeScript over a live DOM.
 */

import { FIND_LATE_CHECKS_MS, JUMP_VIEW_POSITION } from "../citations/navigation/jumpPlacement.ts";
import { unfoldMessage } from "../timeline/messageFold.ts";
import type { TimelineHandle } from "../timeline/Timeline.tsx";
import type { FindMatch } from "./findState.ts";
import { revealRangeInline } from "./revealInline.ts";

/** What a jump needs from the thread and its timeline. */
export type FindJumpDeps = {
  isLoaded(messageId: string): boolean;
  /** One `around=` request for the message. */
  loadAround(messageId: string): Promise<{ status: "loaded" | "missing" | "failed" }>;
  /** Starts a timeline session placed at the message (instant; remounts the list). */
  showMessage(placement: { messageId: string; viewPosition: number }): void;
  timeline(): Pick<TimelineHandle, "getScrollElement" | "revealRange" | "holdFollowing"> | null;
  /** The match's DOM range in its mounted body, or null (see matchRange.ts). */
  locate(messageId: string): Range | null;
  /** True once the match's message body is mounted. */
  isMounted(messageId: string): boolean;
};

/** How a jump ended. */
export type FindJumpOutcome =
  | { status: "shown"; range: Range }
  /** The server says the message is not in this thread (any more). */
  | { status: "missing" }
  /** The `around=` request failed. */
  | { status: "failed" }
  /** The message did not mount in time, or its text no longer holds the match. */
  | { status: "not-shown" };

/** How long to wait for the message's row to mount. */
const MOUNT_TIMEOUT_MS = 3000;

/** The mounted row of `messageId` in the scroller, or null. */
function mountedRow(scroller: HTMLElement | null, messageId: string): HTMLElement | null {
  return (
    scroller?.querySelector<HTMLElement>(`[data-message-id="${CSS.escape(messageId)}"]`) ?? null
  );
}

/** True when the row is within about one viewport of the visible part of the scroller. */
function isNearView(row: HTMLElement, scroller: HTMLElement): boolean {
  const rect = row.getBoundingClientRect();
  const box = scroller.getBoundingClientRect();
  if (box.height === 0) return true;
  return rect.bottom > box.top - box.height && rect.top < box.bottom + box.height;
}

function nextFrame(): Promise<void> {
  return new Promise((resolve) => requestAnimationFrame(() => resolve()));
}

/** A cancellable jump: `cancel()` stops it wherever it is (a newer step, the bar closed). */
export type FindJump = { done: Promise<FindJumpOutcome | null>; cancel(): void };

/** Jumps to `match` (see the module doc). Resolves null when cancelled. */
export function jumpToMatch(match: FindMatch, deps: FindJumpDeps): FindJump {
  let cancelled = false;
  let cancelLate = () => {};
  const run = async (): Promise<FindJumpOutcome | null> => {
    const id = match.messageId;
    if (!deps.isLoaded(id)) {
      const loaded = await deps.loadAround(id);
      if (cancelled) return null;
      if (loaded.status !== "loaded") return { status: loaded.status };
    }
    // A long message's fold opens before its row renders, so the words are never clipped.
    unfoldMessage(id);
    const timeline = deps.timeline();
    // A streaming reply must not pull the view back to the end while the reader looks here.
    timeline?.holdFollowing();
    const scroller = timeline?.getScrollElement() ?? null;
    const row = mountedRow(scroller, id);
    const remount = row === null || scroller === null || !isNearView(row, scroller);
    if (remount) deps.showMessage({ messageId: id, viewPosition: JUMP_VIEW_POSITION });
    // After a new session, wait for the new list: the old one may still show the row far away.
    const ready = () =>
      deps.isMounted(id) && (!remount || deps.timeline()?.getScrollElement() !== scroller);
    const started = performance.now();
    while (!ready()) {
      if (performance.now() - started > MOUNT_TIMEOUT_MS) return { status: "not-shown" };
      await nextFrame();
      if (cancelled) return null;
    }
    const range = deps.locate(id);
    if (range === null) return { status: "not-shown" };
    // A code line or a table wider than the column: its own sideways scroll first.
    revealRangeInline(
      range,
      range.startContainer.parentElement?.closest("[data-message-id]") ?? null,
    );
    deps.timeline()?.revealRange(range, { instant: true });
    cancelLate = scheduleLateChecks(id, deps);
    return { status: "shown", range };
  };
  return {
    done: run(),
    cancel() {
      cancelled = true;
      cancelLate();
    },
  };
}

/** Re-reveals the words if they left the view, until the reader scrolls, touches or types. */
function scheduleLateChecks(messageId: string, deps: FindJumpDeps): () => void {
  let readerMoved = false;
  const onReaderMove = () => {
    readerMoved = true;
  };
  const timers = FIND_LATE_CHECKS_MS.map((delay) =>
    setTimeout(() => {
      if (readerMoved) return;
      const range = deps.locate(messageId);
      if (range !== null) {
        deps.timeline()?.revealRange(range, { instant: true, onlyIfOutOfView: true });
      }
    }, delay),
  );
  window.addEventListener("wheel", onReaderMove, { passive: true });
  window.addEventListener("touchmove", onReaderMove, { passive: true });
  window.addEventListener("pointerdown", onReaderMove, { passive: true });
  return () => {
    for (const timer of timers) clearTimeout(timer);
    window.removeEventListener("wheel", onReaderMove);
    window.removeEventListener("touchmove", onReaderMove);
    window.removeEventListener("pointerdown", onReaderMove);
  };
}
