/**
 * The normalized, framework-free state of one open thread: messages by id, the loaded ranges of
 * history (`threadWindows.ts`: the newest one plus any detached window around an old message),
 * turns by id and the pending user-input request. `threadReducer` is pure and
 * idempotent: replaying a page or an event (after a reconnect, or because a page fetched after
 * `lastEventId` already contains its effect) never duplicates or rewinds anything.
 *
 * This module owns the actions and the reducer, pages and turns; the state's shape is in
 * `threadState.ts` and which version of a message is kept in `threadMessages.ts`.
 */
import {
  isTurnFinished,
  isTurnRunning,
  type Message,
  type MessagePage,
  type SendTurnResponse,
  type ServerEvent,
  type ThreadDetail,
  type Turn,
} from "@app/protocol";
import { applyCitedBy, applyDelta, mergeMessages } from "./threadMessages.ts";
import { type ThreadState, withRanges } from "./threadState.ts";
import { type HistoryRange, insertSegment, type SegmentJoin } from "./threadWindows.ts";

/** Everything that can change a {@link ThreadState}. */
export type ThreadAction =
  | { type: "detail.loaded"; detail: ThreadDetail }
  /**
   * A page of history. "newest": the newest page; "older": a `before=<cursor>` page; "newer": an
   * `after=<cursor>` page (`cursor` is the one requested); "around": an `around=` window.
   */
  | {
      type: "page.loaded";
      page: MessagePage;
      position: "newest" | "around";
    }
  | { type: "page.loaded"; page: MessagePage; position: "older" | "newer"; cursor: string }
  | { type: "event"; eventId: number | null; event: ServerEvent }
  /**
   * The path shown changed (an edit, a regeneration, a version switch: issue 30): the loaded
   * history is replaced by this page of the new path (the newest page, or a window around the
   * message that changed). `replay`: the events received while the page was in flight, applied
   * again on top of it (they are behind `lastEventId` and never come again; see
   * {@link replayOnPath}).
   */
  | {
      type: "path.reloaded";
      page: MessagePage;
      position: "newest" | "around";
      replay?: readonly ServerEvent[];
    }
  /**
   * Fresh copies of stale messages (`staleMessageIds`, an `around=<id>&limit=1` read). A message
   * the view never had (its chunks came, its `message.created` did not) was created live: it
   * joins the newest range as a live message would, not a range of its own.
   */
  | { type: "messages.repaired"; page: MessagePage }
  | { type: "turn.sent"; response: SendTurnResponse }
  | { type: "userInput.answered"; requestId: string };

/** Pure reducer over {@link ThreadAction}s; returns the same object when nothing changed. */
export function threadReducer(state: ThreadState, action: ThreadAction): ThreadState {
  switch (action.type) {
    case "detail.loaded": {
      const { detail } = action;
      let next: ThreadState = {
        ...state,
        thread: detail.thread,
        pendingUserInput: detail.pendingUserInput,
        lastEventId: Math.max(state.lastEventId, detail.lastEventId),
      };
      if (detail.activeTurn) next = applyTurn(next, detail.activeTurn);
      return next;
    }
    case "page.loaded": {
      let next = mergeMessages(state, action.page.messages, { live: false });
      if (action.position === "newest") {
        const readEmpty = action.page.messages.length === 0 && action.page.nextCursor === null;
        if (readEmpty !== next.readEmpty) next = { ...next, readEmpty };
      }
      next = addPageRange(next, action);
      for (const turn of action.page.turns) next = applyTurn(next, turn, { onlyIfUnknown: true });
      return next;
    }
    case "event": {
      if (action.eventId !== null && action.eventId <= state.lastEventId) return state;
      const next = applyEvent(state, action.event);
      if (action.eventId === null || next.lastEventId >= action.eventId) return next;
      return { ...next, lastEventId: action.eventId };
    }
    case "path.reloaded": {
      const cleared: ThreadState = {
        ...state,
        messagesById: new Map(),
        order: [],
        ranges: [],
        staleMessageIds: new Set(),
      };
      const next = threadReducer(cleared, {
        type: "page.loaded",
        page: action.page,
        position: action.position,
      });
      return replayOnPath(keepLiveProgress(next, state.messagesById), action.replay ?? []);
    }
    case "messages.repaired": {
      let next = mergeMessages(state, action.page.messages, { live: true });
      for (const turn of action.page.turns) next = applyTurn(next, turn, { onlyIfUnknown: true });
      return next;
    }
    case "turn.sent": {
      const next = mergeMessages(state, [action.response.message], { live: true });
      return applyTurn(next, action.response.turn);
    }
    case "userInput.answered":
      if (state.pendingUserInput?.id !== action.requestId) return state;
      return { ...state, pendingUserInput: null };
  }
}

/**
 * The page of a path reload was read before it arrived: a message its snapshot shows streaming
 * that live events have since taken further (finished, or longer) keeps the live copy, since
 * those events are behind `lastEventId` and never come again.
 */
function keepLiveProgress(state: ThreadState, live: ReadonlyMap<string, Message>): ThreadState {
  let messagesById: Map<string, Message> | null = null;
  for (const [id, fromPage] of state.messagesById) {
    const known = live.get(id);
    if (known === undefined || fromPage.status !== "streaming") continue;
    if (known.status === "streaming" && known.text.length <= fromPage.text.length) continue;
    messagesById ??= new Map(state.messagesById);
    messagesById.set(id, known);
  }
  return messagesById === null ? state : { ...state, messagesById };
}

/**
 * The page of a path reload may have been read before events the view received while it was in
 * flight (a new answer created, its chunks, its end): they were applied to the history the page
 * replaces, and their ids are behind `lastEventId`. Their messages are applied again here, past
 * the id check; each merge is idempotent, so an event the page already holds changes nothing.
 * Turns, the thread and a pending request are not replaced by the reload: nothing to replay.
 */
const MESSAGE_EVENTS: ReadonlySet<ServerEvent["type"]> = new Set([
  "message.created",
  "message.delta",
  "message.completed",
  "message.cited",
]);

function replayOnPath(state: ThreadState, events: readonly ServerEvent[]): ThreadState {
  let next = state;
  for (const event of events) {
    if (MESSAGE_EVENTS.has(event.type)) next = applyEvent(next, event);
  }
  return next;
}

function applyEvent(state: ThreadState, event: ServerEvent): ThreadState {
  switch (event.type) {
    case "message.created":
    case "message.completed":
      return mergeMessages(state, [event.message], { live: true });
    case "message.delta":
      return applyDelta(state, event.messageId, event.offset, event.delta);
    case "turn.updated":
      return applyTurn(state, event.turn);
    case "user_input.requested":
      return { ...state, pendingUserInput: event.request };
    case "user_input.resolved":
      if (state.pendingUserInput?.id !== event.requestId) return state;
      return { ...state, pendingUserInput: null };
    case "thread.updated":
      return { ...state, thread: event.thread };
    case "message.cited":
      return applyCitedBy(state, event.messageId, event.citedBy);
    case "thread.path":
      // The hook reads the new path's history (`path.reloaded`).
      return state;
  }
}

/** Adds a page's messages (already stored) to the ranges, as one contiguous segment. */
function addPageRange(
  state: ThreadState,
  action: Extract<ThreadAction, { type: "page.loaded" }>,
): ThreadState {
  const { page } = action;
  const byId = state.messagesById;
  // Pages come oldest first; sorting costs nothing then and keeps a shuffled one correct.
  const ids = [...page.messages]
    .filter((message) => message.threadId === (state.thread?.id ?? message.threadId))
    .sort((a, b) => a.seq - b.seq)
    .map((message) => message.id);
  const segment: HistoryRange = {
    ids,
    hasOlder: page.nextCursor !== null,
    olderCursor: page.nextCursor,
    // A newest page reaches the end; a `before=` page says nothing about newer messages.
    hasNewer:
      action.position === "newest"
        ? false
        : action.position === "older" || page.newerCursor !== null,
    newerCursor: page.newerCursor,
  };
  const join: SegmentJoin =
    action.position === "older" || action.position === "newer"
      ? { side: action.position, cursor: action.cursor }
      : null;
  const seqOf = (id: string) => byId.get(id)?.seq ?? 0;
  return withRanges(state, insertSegment(state.ranges, segment, join, seqOf));
}

function applyTurn(
  state: ThreadState,
  turn: Turn,
  options: { onlyIfUnknown?: boolean } = {},
): ThreadState {
  const current = state.turnsById.get(turn.id);
  // Pages can be older than the live stream: never let them rewind a turn we already track.
  if (current !== undefined && options.onlyIfUnknown) return state;
  // A turn that ended never runs again on the server, so an older snapshot saying "running"
  // (the send's response arriving after the turn's last event) must not bring it back.
  if (current !== undefined && isTurnFinished(current) && !isTurnFinished(turn)) return state;
  const unchanged =
    current !== undefined &&
    current.status === turn.status &&
    current.completedAt === turn.completedAt &&
    current.error?.message === turn.error?.message;
  let next = state;
  if (!unchanged) {
    const turnsById = new Map(state.turnsById);
    turnsById.set(turn.id, turn);
    next = { ...state, turnsById };
  }
  // The active turn is the one the server runs: a thread's turns run one at a time in the order
  // they were sent, and a prompt sent meanwhile waits, "running" too (its Stop must not be shown
  // in place of the reply streaming above it).
  const running = isTurnRunning(turn);
  if (running && next.activeTurnId !== turn.id) {
    const active = next.activeTurnId === null ? undefined : next.turnsById.get(next.activeTurnId);
    if (active !== undefined && isTurnRunning(active) && !sentBefore(turn, active)) return next;
    return { ...next, activeTurnId: turn.id };
  }
  if (!running && next.activeTurnId === turn.id) {
    return { ...next, activeTurnId: firstRunningTurn(next.turnsById)?.id ?? null };
  }
  return next;
}

/** Whether turn `a` was sent before `b` (ids are time-ordered UUIDv7: they break a tie). */
function sentBefore(a: Turn, b: Turn): boolean {
  return a.createdAt < b.createdAt || (a.createdAt === b.createdAt && a.id < b.id);
}

/** The running turn sent first: the one the server runs while the others wait. */
function firstRunningTurn(turnsById: ReadonlyMap<string, Turn>): Turn | undefined {
  let first: Turn | undefined;
  for (const turn of turnsById.values()) {
    if (isTurnRunning(turn) && (first === undefined || sentBefore(turn, first))) first = turn;
  }
  return first;
}
