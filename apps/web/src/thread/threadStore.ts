/**
 * The normalized, framework-free state of one open thread: messages by id, the loaded ranges of
 * history (`threadWindows.ts`: the newest one plus any detached window around an old message),
 * turns by id and the pending user-input request. `threadReducer` is pure and
 * idempotent: replaying a page or an event (after a reconnect, or because a page fetched after
 * `lastEventId` already contains its effect) never duplicates or rewinds anything.
 */
import type {
  Message,
  MessagePage,
  SendTurnResponse,
  ServerEvent,
  Thread,
  ThreadDetail,
  Turn,
  UserInputRequest,
} from "@app/protocol";
import {
  allRangeIds,
  type HistoryRange,
  insertLiveMessage,
  insertSegment,
  type SegmentJoin,
} from "./threadWindows.ts";

/** State of one thread view. `order` only changes identity when the set or order of ids changes. */
export type ThreadState = {
  thread: Thread | null;
  messagesById: ReadonlyMap<string, Message>;
  /** Every loaded message id by ascending `seq` (all ranges, concatenated). */
  order: readonly string[];
  /** Disjoint loaded ranges by ascending `seq`; the last one is the newest. */
  ranges: readonly HistoryRange[];
  turnsById: ReadonlyMap<string, Turn>;
  activeTurnId: string | null;
  pendingUserInput: UserInputRequest | null;
  /** Highest SSE event id applied; the event stream resumes after it. */
  lastEventId: number;
  /**
   * Streaming messages whose deltas arrived with a gap (offset beyond the known text). The hook
   * refetches them; `message.completed` also repairs them.
   */
  staleMessageIds: ReadonlySet<string>;
};

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
  | { type: "turn.sent"; response: SendTurnResponse }
  | { type: "userInput.answered"; requestId: string };

/** An empty thread state. */
export function createThreadState(): ThreadState {
  return {
    thread: null,
    messagesById: new Map(),
    order: [],
    ranges: [],
    turnsById: new Map(),
    activeTurnId: null,
    pendingUserInput: null,
    lastEventId: 0,
    staleMessageIds: new Set(),
  };
}

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
    case "turn.sent": {
      const next = mergeMessages(state, [action.response.message], { live: true });
      return applyTurn(next, action.response.turn);
    }
    case "userInput.answered":
      if (state.pendingUserInput?.id !== action.requestId) return state;
      return { ...state, pendingUserInput: null };
  }
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
  }
}

/**
 * Appends a streamed chunk. `offset` is the length of the text before the chunk, so a chunk
 * already covered by the known text is dropped, an overlapping one contributes only its tail,
 * and one past the end (a gap), or for an unknown message, marks the message stale (the hook
 * refetches it) instead of corrupting it.
 */
function applyDelta(
  state: ThreadState,
  messageId: string,
  offset: number,
  delta: string,
): ThreadState {
  const message = state.messagesById.get(messageId);
  // A chunk for a message we never saw created (e.g. its event predates a restarted stream): fetch it.
  if (message === undefined) return markStale(state, messageId);
  if (message.status !== "streaming") return state;
  const known = message.text.length;
  if (offset + delta.length <= known) return state;
  if (offset > known) return markStale(state, messageId);
  const text = message.text + delta.slice(known - offset);
  const messagesById = new Map(state.messagesById);
  messagesById.set(messageId, { ...message, text });
  return { ...state, messagesById };
}

function markStale(state: ThreadState, messageId: string): ThreadState {
  if (state.staleMessageIds.has(messageId)) return state;
  const stale = new Set(state.staleMessageIds);
  stale.add(messageId);
  return { ...state, staleMessageIds: stale };
}

/** Which of two versions of a message to keep: a finished one beats a streaming one, longer text beats shorter. */
function preferMessage(current: Message, incoming: Message): Message {
  if (current.status !== "streaming" && incoming.status === "streaming") return current;
  if (current.status === "streaming" && incoming.status === "streaming") {
    return incoming.text.length >= current.text.length ? incoming : current;
  }
  return incoming;
}

/**
 * Stores incoming versions of messages. `live` messages (events, the sent prompt) that are new
 * also join the newest range; a page's messages join the ranges through {@link addPageRange}.
 */
function mergeMessages(
  state: ThreadState,
  incoming: readonly Message[],
  { live }: { live: boolean },
): ThreadState {
  if (incoming.length === 0) return state;
  let messagesById: Map<string, Message> | null = null;
  let stale: Set<string> | null = null;
  const added: Message[] = [];
  for (const message of incoming) {
    if (message.threadId !== (state.thread?.id ?? message.threadId)) continue;
    const current = (messagesById ?? state.messagesById).get(message.id);
    if (current === undefined) added.push(message);
    const chosen = keepCitedBy(
      current,
      current === undefined ? message : preferMessage(current, message),
    );
    if (chosen === current || (current !== undefined && sameMessage(current, chosen))) continue;
    messagesById ??= new Map(state.messagesById);
    messagesById.set(message.id, chosen);
    if (chosen.status !== "streaming" && state.staleMessageIds.has(message.id)) {
      stale ??= new Set(state.staleMessageIds);
      stale.delete(message.id);
    }
  }
  if (messagesById === null) return state;
  let next: ThreadState = {
    ...state,
    messagesById,
    ...(stale === null ? {} : { staleMessageIds: stale }),
  };
  if (live && added.length > 0) {
    const byId = messagesById;
    const seqOf = (id: string) => byId.get(id)?.seq ?? 0;
    let ranges = state.ranges;
    for (const message of [...added].sort((a, b) => a.seq - b.seq)) {
      ranges = insertLiveMessage(ranges, message.id, message.seq, seqOf);
    }
    next = withRanges(next, ranges);
  }
  return next;
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

/** Sets new ranges; `order` changes identity only when the loaded ids do. */
function withRanges(state: ThreadState, ranges: readonly HistoryRange[]): ThreadState {
  if (ranges === state.ranges) return state;
  const order = allRangeIds(ranges);
  const same = order.length === state.order.length && order.every((id, i) => id === state.order[i]);
  return { ...state, ranges, order: same ? state.order : order };
}

function sameMessage(a: Message, b: Message): boolean {
  return (
    a.text === b.text &&
    a.status === b.status &&
    a.kind === b.kind &&
    a.seq === b.seq &&
    sameCitedBy(a.citedBy, b.citedBy)
  );
}

/**
 * Backlinks (issue 24) come only with pages and `message.cited` events: a version of a message
 * without them (an event's) keeps the ones already known. Citations are never removed, so a page
 * read before a live `message.cited` (an older snapshot, e.g. the refetch after the first paint)
 * must not lower the count either.
 */
function keepCitedBy(current: Message | undefined, chosen: Message): Message {
  const known = current?.citedBy;
  if (known === undefined) return chosen;
  if (chosen.citedBy !== undefined && chosen.citedBy.count >= known.count) return chosen;
  return { ...chosen, citedBy: known };
}

function sameCitedBy(a: Message["citedBy"], b: Message["citedBy"]): boolean {
  if (a === b) return true;
  if (a === undefined || b === undefined) return false;
  return a.count === b.count && JSON.stringify(a.ranges) === JSON.stringify(b.ranges);
}

/** A `message.cited` event: the message's new backlinks (ignored for a message not loaded). */
function applyCitedBy(
  state: ThreadState,
  messageId: string,
  citedBy: NonNullable<Message["citedBy"]>,
): ThreadState {
  const current = state.messagesById.get(messageId);
  if (current === undefined || sameCitedBy(current.citedBy, citedBy)) return state;
  const messagesById = new Map(state.messagesById);
  messagesById.set(messageId, { ...current, citedBy });
  return { ...state, messagesById };
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
  if (current !== undefined && isTurnEnded(current) && !isTurnEnded(turn)) return state;
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
  const running = turn.status === "running" || turn.status === "waiting_for_input";
  if (running && next.activeTurnId !== turn.id) return { ...next, activeTurnId: turn.id };
  if (!running && next.activeTurnId === turn.id) return { ...next, activeTurnId: null };
  return next;
}

/** Whether a turn has ended (completed, failed or cancelled): its status is final. */
export function isTurnEnded(turn: Pick<Turn, "status">): boolean {
  return turn.status !== "running" && turn.status !== "waiting_for_input";
}

/** The loaded messages in order (a convenience for tests and copy; allocates). */
export function orderedMessages(state: ThreadState): Message[] {
  const result: Message[] = [];
  for (const id of state.order) {
    const message = state.messagesById.get(id);
    if (message) result.push(message);
  }
  return result;
}

/** The newest loaded range (the one live messages extend), if any. */
export function newestRange(state: ThreadState): HistoryRange | undefined {
  return state.ranges[state.ranges.length - 1];
}
