import type { Message, Turn } from "@app/protocol";
import {
  LegendList,
  type LegendListRef,
  type LegendListRenderItemProps,
} from "@legendapp/list/react";
import {
  type ClipboardEvent,
  type Key,
  memo,
  type Ref,
  useCallback,
  useEffect,
  useMemo,
  useRef,
} from "react";
import type { ApiError } from "../api/client.ts";
import { citationCopyHtml } from "../copy/citationCopyHtml.ts";
import { selectionToMarkdown } from "../copy/selectionMarkdown.ts";
import { followDecision } from "./followPolicy.ts";
import { revealFoldedTextOnReach } from "./revealFoldedText.ts";
import { NewerFooter, OlderHeader } from "./TimelineEdges.tsx";
import {
  type TimelineActions,
  TimelineActionsContext,
  TimelineRowView,
} from "./TimelineRowView.tsx";
import { type TimelineHandle, useTimelineHandle } from "./timelineHandle.ts";
import {
  buildTimelineRows,
  foldedTurnOf,
  type TimelineRow,
  type TimelineRowsInput,
} from "./timelineRows.ts";
import { useFollowPolicy } from "./useFollowPolicy.ts";
import { useHoldListOnPress } from "./useHoldListOnPress.ts";
import { usePromptSizeClasses } from "./usePromptSizeClasses.ts";
import { useStickToEnd } from "./useStickToEnd.ts";
import { useTurnFolds } from "./useTurnFolds.ts";
import { useWarmMarkdown } from "./useWarmMarkdown.ts";

export type { TimelineHandle } from "./timelineHandle.ts";

/** Props of {@link Timeline}. */
export type TimelineProps = {
  order: readonly string[];
  messagesById: ReadonlyMap<string, Message>;
  turnsById: ReadonlyMap<string, Turn>;
  activeTurnId: string | null;
  /** True when the oldest message of the thread is loaded. */
  reachedStart: boolean;
  olderLoading: boolean;
  olderError: ApiError | null;
  onLoadOlder(): void;
  /**
   * True when the newest message of the thread is in `order` (the newest range is shown); false
   * for a detached window of older history, whose bottom edge loads newer pages.
   */
  reachedEnd?: boolean;
  newerLoading?: boolean;
  newerError?: ApiError | null;
  onLoadNewer?: () => void;
  /**
   * Where the list opens (read once, at mount): a message placed at `viewPosition` of the view
   * (0 top, 1 bottom), its folded turn unfolded first. Without it the list opens at the end.
   */
  placement?: { messageId: string; viewPosition: number } | null;
  /** Called once the list has laid out and positioned its first rows. */
  onLoad?: () => void;
  /**
   * While true (a citation target is being positioned), the list does not scroll to the end on
   * its own and does not keep the end pinned, so a programmatic position is not overridden.
   */
  positioning?: boolean;
  /** Message ids to keep mounted even when off screen (a cited row until it is measured). */
  pinnedMessageIds?: readonly string[];
  /** Changing this makes the list recalculate without new data (e.g. a navigation activation id). */
  dataVersion?: Key;
  /** Told whether the reader is away from the end of the list (for **Jump to latest**). */
  onAwayFromEndChange?: (away: boolean) => void;
  /** Called when the reader's own scrolling brings the view back to the end. */
  onReaderReachedEnd?: () => void;
  ref?: Ref<TimelineHandle>;
};

const keyExtractor = (row: TimelineRow) => row.key;
const renderItem = ({ item }: LegendListRenderItemProps<TimelineRow>) => (
  <TimelineRowView row={item} />
);

/**
 * The "unfold source if folded" step of a jump: the turns to unfold so that `messageId` has a
 * row of its own (its progress-update fold opened), computed before the list first renders.
 */
function turnsToUnfoldFor(
  messageId: string | undefined,
  input: Omit<TimelineRowsInput, "expandedTurns">,
): ReadonlySet<string> {
  if (messageId === undefined) return new Set();
  const rows = buildTimelineRows({ ...input, expandedTurns: new Set() });
  const turnId = foldedTurnOf(messageId, rows, input.messagesById);
  return turnId === null ? new Set() : new Set([turnId]);
}

/**
 * The virtualized message timeline. Opens at the newest message, follows new and streaming
 * messages while the reader is at the end, pages in older history at the top while keeping the
 * visible content still, and folds each turn's progress updates. Selection copy inside rendered
 * messages produces Markdown.
 */
export const Timeline = memo(function Timeline({
  order,
  messagesById,
  turnsById,
  activeTurnId,
  reachedStart,
  olderLoading,
  olderError,
  onLoadOlder,
  reachedEnd = true,
  newerLoading = false,
  newerError = null,
  onLoadNewer,
  placement = null,
  onLoad,
  positioning = false,
  pinnedMessageIds,
  dataVersion,
  onAwayFromEndChange,
  onReaderReachedEnd,
  ref,
}: TimelineProps) {
  const listRef = useRef<LegendListRef>(null);
  const wrapperRef = useRef<HTMLElement>(null);
  const getItemType = usePromptSizeClasses(wrapperRef);

  // Reaching the clipped text of a folded long message (selection, Tab) unfolds it.
  useEffect(() => {
    const root = wrapperRef.current;
    return root === null ? undefined : revealFoldedTextOnReach(root);
  }, []);
  // Whether the view follows the end: the reader's input decides (followPolicy.ts).
  const getScroller = useCallback(() => listRef.current?.getScrollableNode() ?? null, []);
  const followPolicy = useFollowPolicy(
    wrapperRef,
    getScroller,
    placement !== null,
    onReaderReachedEnd,
  );
  const dispatchFollow = followPolicy.dispatch;
  const { expandedTurns, toggleTurn, expandTurn, turnFolding, messageFolding } = useTurnFolds(
    () => turnsToUnfoldFor(placement?.messageId, { order, messagesById, turnsById, activeTurnId }),
    dispatchFollow,
  );

  const previousRows = useRef<readonly TimelineRow[]>([]);
  const rows = useMemo(() => {
    const next = buildTimelineRows(
      { order, messagesById, turnsById, expandedTurns, activeTurnId },
      previousRows.current,
    );
    previousRows.current = next;
    return next;
  }, [order, messagesById, turnsById, expandedTurns, activeTurnId]);

  useWarmMarkdown(order, messagesById);

  // Where the list opens, fixed at mount (a later placement comes with a new list: its key).
  const initialScroll = useRef<{ index: number; viewPosition: number } | null | undefined>(
    undefined,
  );
  if (initialScroll.current === undefined) {
    const index = placement ? rows.findIndex((row) => row.key === placement.messageId) : -1;
    initialScroll.current =
      placement && index >= 0 ? { index, viewPosition: placement.viewPosition } : null;
  }

  const latest = useRef({ rows, messagesById });
  latest.current = { rows, messagesById };

  const actions = useMemo<TimelineActions>(() => ({ toggleTurn }), [toggleTurn]);

  useTimelineHandle(ref, { listRef, latest, rows, expandTurn, dispatchFollow, getScroller });

  const onStartReached = useCallback(() => {
    if (!reachedStart) onLoadOlder();
  }, [reachedStart, onLoadOlder]);
  const onEndReached = useCallback(() => {
    if (!reachedEnd) onLoadNewer?.();
  }, [reachedEnd, onLoadNewer]);
  const retryNewer = useCallback(() => onLoadNewer?.(), [onLoadNewer]);

  const onCopy = useCallback((event: ClipboardEvent<HTMLElement>) => {
    const root = wrapperRef.current;
    if (!root) return;
    const markdown = selectionToMarkdown(window.getSelection(), root, (id) => {
      return latest.current.messagesById.get(id)?.text ?? null;
    });
    if (markdown === null) return;
    event.preventDefault();
    event.clipboardData.setData("text/plain", markdown);
    const html = citationCopyHtml(markdown);
    if (html !== null) event.clipboardData.setData("text/html", html);
  }, []);

  // Follow new messages only while the newest range is shown and the reader has not left the end.
  const decision = followDecision(followPolicy.state, {
    positioning,
    turnFolding,
    messageFolding,
    reachedEnd,
  });
  const latestDecision = useRef(decision);
  latestDecision.current = decision;
  // The net reads the policy's ref too: a press freezes the view before React renders it.
  const shouldPin = useCallback(
    () =>
      latestDecision.current.pinToEnd &&
      followPolicy.stateRef.current.following &&
      !followPolicy.stateRef.current.pressed,
    [followPolicy.stateRef],
  );
  useStickToEnd(wrapperRef, getScroller, ".timeline__content", shouldPin, followPolicy.measure);
  useHoldListOnPress(followPolicy.state, listRef, getScroller);
  const awayFromEnd = followPolicy.awayFromEnd;
  useEffect(() => {
    onAwayFromEndChange?.(awayFromEnd);
  }, [awayFromEnd, onAwayFromEndChange]);
  const alwaysRender = useMemo(
    () =>
      pinnedMessageIds && pinnedMessageIds.length > 0 ? { keys: [...pinnedMessageIds] } : undefined,
    [pinnedMessageIds],
  );

  const header = (
    <OlderHeader
      reachedStart={reachedStart}
      loading={olderLoading}
      error={olderError}
      onRetry={onLoadOlder}
      empty={rows.length === 0}
    />
  );

  return (
    <TimelineActionsContext.Provider value={actions}>
      <section
        className="timeline"
        ref={wrapperRef}
        onCopy={onCopy}
        aria-label="Messages"
        data-timeline
        data-following-held={!followPolicy.state.following || undefined}
      >
        <LegendList<TimelineRow>
          ref={listRef}
          className="timeline__scroller"
          style={{ height: "100%" }}
          contentContainerClassName="timeline__content"
          data={rows}
          keyExtractor={keyExtractor}
          getItemType={getItemType}
          renderItem={renderItem}
          estimatedItemSize={300}
          drawDistance={600}
          recycleItems
          {...(initialScroll.current
            ? { initialScrollIndex: initialScroll.current }
            : { initialScrollAtEnd: !positioning })}
          // Not aligned at the end: a thread shorter than the view starts at the top, so a row
          // that grows (Show more) grows downwards instead of moving up as the space above it
          // collapses (issue 21: 42 px).
          maintainScrollAtEnd={decision.pinToEnd ? { animated: false } : false}
          maintainScrollAtEndThreshold={0.1}
          // Off while the end is pinned: both at once overshot the end at a reply's end (README).
          maintainVisibleContentPosition={
            decision.keepVisibleContent ? { data: true, size: true } : false
          }
          onStartReached={onStartReached}
          onEndReached={onEndReached}
          onEndReachedThreshold={0.6}
          {...(onLoad ? { onLoad } : {})}
          onStartReachedThreshold={0.6}
          ListHeaderComponent={header}
          {...(reachedEnd
            ? {}
            : {
                ListFooterComponent: (
                  <NewerFooter
                    reachedEnd={reachedEnd}
                    loading={newerLoading}
                    error={newerError}
                    onRetry={retryNewer}
                  />
                ),
              })}
          ListEmptyComponent={
            <div className="timeline-empty">No messages yet. Ask anything to get started.</div>
          }
          {...(alwaysRender ? { alwaysRender } : {})}
          {...(dataVersion !== undefined ? { dataVersion } : {})}
        />
      </section>
    </TimelineActionsContext.Provider>
  );
});
