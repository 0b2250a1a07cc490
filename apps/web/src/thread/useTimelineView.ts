/**
 * Which range of history the timeline shows, and how it opens. The timeline shows one range at
 * a time (a gap is never drawn as if the history were contiguous): the newest range, or the
 * range holding an anchor message after a jump. A jump starts a new view session: the timeline
 * remounts at the anchor, in one step, instead of scrolling through the history in between.
 */
import type { Message } from "@app/protocol";
import { useCallback, useMemo, useState } from "react";
import type { ThreadState } from "./threadState.ts";
import { type HistoryRange, rangeIndexOfSeq } from "./threadWindows.ts";

/** Where a new session puts its anchor: `viewPosition` 0 = top of the view, 1 = bottom. */
export type InitialPlacement = { messageId: string; viewPosition: number };

/** One view session of the timeline (its `key`). */
export type TimelineSession = {
  id: number;
  /** The message whose range is shown; null for the newest range. */
  anchorId: string | null;
  /** Where the timeline opens; null opens at the newest message. */
  placement: InitialPlacement | null;
};

/** What the thread view gets. */
export type TimelineView = {
  session: TimelineSession;
  /** The range shown, if any message is loaded. */
  range: HistoryRange | undefined;
  /** True while the range shown is not the newest (a detached window of older history). */
  detached: boolean;
  /** Starts a session at the newest messages. */
  showNewest(): void;
  /** Starts a session on the range holding `messageId`, placed as asked. */
  showMessage(placement: InitialPlacement): void;
};

const EMPTY_RANGE: HistoryRange = {
  ids: [],
  hasOlder: false,
  olderCursor: null,
  hasNewer: false,
  newerCursor: null,
};

/** The range holding `messageId`, or undefined. */
export function rangeOfMessage(
  state: Pick<ThreadState, "ranges" | "messagesById">,
  messageId: string,
): HistoryRange | undefined {
  const message: Message | undefined = state.messagesById.get(messageId);
  if (message === undefined) return undefined;
  const seqOf = (id: string) => state.messagesById.get(id)?.seq ?? 0;
  const index = rangeIndexOfSeq(state.ranges, message.seq, seqOf);
  const range = index === -1 ? undefined : state.ranges[index];
  return range?.ids.includes(messageId) ? range : undefined;
}

/** Tracks the timeline's view session over a thread's ranges. */
export function useTimelineView(state: ThreadState): TimelineView {
  const [session, setSession] = useState<TimelineSession>({
    id: 0,
    anchorId: null,
    placement: null,
  });
  const newest = state.ranges[state.ranges.length - 1];
  const anchored = session.anchorId === null ? undefined : rangeOfMessage(state, session.anchorId);
  // An anchor that left the store (it never does today) falls back to the newest range.
  const range = anchored ?? newest ?? (state.ranges.length === 0 ? EMPTY_RANGE : undefined);
  const detached = range !== undefined && (range !== newest || range.hasNewer);

  const showNewest = useCallback(() => {
    setSession((current) => ({ id: current.id + 1, anchorId: null, placement: null }));
  }, []);
  const showMessage = useCallback((placement: InitialPlacement) => {
    setSession((current) => ({
      id: current.id + 1,
      anchorId: placement.messageId,
      placement,
    }));
  }, []);

  return useMemo(
    () => ({ session, range, detached, showNewest, showMessage }),
    [session, range, detached, showNewest, showMessage],
  );
}
