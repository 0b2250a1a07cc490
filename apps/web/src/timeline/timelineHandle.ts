/**
 * The timeline's imperative handle: how other modules ask it to scroll (timeline/README.md: only
 * the timeline scrolls). `scrollToMessage` may need one render (unfolding a turn) before the row
 * exists: it waits for that render.
 */

import type { Message } from "@app/protocol";
import type { LegendListRef } from "@legendapp/list/react";
import { type Ref, type RefObject, useEffect, useImperativeHandle, useRef } from "react";
import { JUMP_VIEW_POSITION } from "../citations/navigation/jumpPlacement.ts";
import type { FollowEvent } from "./followPolicy.ts";
import { foldedTurnOf, type TimelineRow } from "./timelineRows.ts";
import {
  placeMountedRow,
  placeMountedRowAt,
  type RevealRangeOptions,
  scrollRangeIntoView,
} from "./timelineScroll.ts";

/** Imperative API for callers that need to bring a message into view (citation navigation). */
export type TimelineHandle = {
  /**
   * Mounts and scrolls to a loaded message, unfolding its turn first when it is folded.
   * Resolves false when the message is not loaded.
   */
  scrollToMessage(
    messageId: string,
    options?: { animated?: boolean; viewPosition?: number },
  ): Promise<boolean>;
  /** Unfolds a turn's progress updates. */
  expandTurn(turnId: string): void;
  /** Scrolls to the newest message (and follows a streaming reply again). */
  scrollToEnd(options?: { animated?: boolean }): void;
  /**
   * Scrolls a range of text (cited words) about a third down the view. `onlyIfOutOfView`: only
   * when no part of it is visible (a check after late row measurements); `unlessFullyInView`:
   * only when some of it is not (a citation jump's words).
   */
  revealRange(range: Range, options: RevealRangeOptions): void;
  /**
   * Puts a mounted message row at `viewPosition` of the view at once (Back to a chip); false
   * when the row is not mounted.
   */
  placeMessage(messageId: string, viewPosition: number): boolean;
  /**
   * Puts a mounted message row's top `offset` px below the view's top (negative: above it) at
   * once (Back and Forward restoring a reader's place); false when the row is not mounted.
   */
  placeMessageAt(messageId: string, offset: number): boolean;
  /**
   * Stops following a streaming reply until the reader scrolls back to the end or sends: a
   * citation jump has taken them elsewhere.
   */
  holdFollowing(): void;
  /** The scrolling element (for DOM range work), once mounted. */
  getScrollElement(): HTMLElement | null;
};

/** What the handle works with. */
export type TimelineHandleDeps = {
  listRef: RefObject<LegendListRef | null>;
  /** The rows and messages of the last render. */
  latest: RefObject<{ rows: readonly TimelineRow[]; messagesById: ReadonlyMap<string, Message> }>;
  rows: readonly TimelineRow[];
  expandTurn(turnId: string): void;
  dispatchFollow(event: FollowEvent): void;
  getScroller(): HTMLElement | null;
};

/** Implements {@link TimelineHandle} on `ref`. */
export function useTimelineHandle(
  ref: Ref<TimelineHandle> | undefined,
  { listRef, latest, rows, expandTurn, dispatchFollow, getScroller }: TimelineHandleDeps,
): void {
  // scrollToMessage may need one render (unfolding) before the row exists.
  const pendingScroll = useRef<{ id: string; run: () => void } | null>(null);
  useEffect(() => {
    const pending = pendingScroll.current;
    if (pending && rows.some((row) => row.key === pending.id)) {
      pendingScroll.current = null;
      pending.run();
    }
  }, [rows]);

  useImperativeHandle(
    ref,
    (): TimelineHandle => ({
      scrollToMessage(messageId, options = {}) {
        const scroll = async () => {
          const index = latest.current.rows.findIndex((row) => row.key === messageId);
          if (index < 0 || !listRef.current) return false;
          await listRef.current.scrollToIndex({
            index,
            animated: options.animated ?? true,
            viewPosition: options.viewPosition ?? JUMP_VIEW_POSITION,
          });
          return true;
        };
        const { rows: currentRows, messagesById: byId } = latest.current;
        if (currentRows.some((row) => row.key === messageId)) return scroll();
        const turnId = foldedTurnOf(messageId, currentRows, byId);
        if (turnId === null) return Promise.resolve(false);
        return new Promise<boolean>((resolve) => {
          pendingScroll.current = { id: messageId, run: () => void scroll().then(resolve) };
          expandTurn(turnId);
        });
      },
      expandTurn,
      holdFollowing() {
        dispatchFollow({ type: "hold" });
      },
      scrollToEnd(options) {
        dispatchFollow({ type: "follow" });
        void listRef.current?.scrollToEnd({ animated: options?.animated ?? true });
      },
      revealRange(range, options) {
        scrollRangeIntoView(getScroller(), range, options);
      },
      placeMessage(messageId, viewPosition) {
        return placeMountedRow(getScroller(), messageId, viewPosition);
      },
      placeMessageAt(messageId, offset) {
        return placeMountedRowAt(getScroller(), messageId, offset);
      },
      getScrollElement() {
        return getScroller();
      },
    }),
    [expandTurn, dispatchFollow, getScroller, listRef, latest],
  );
}
