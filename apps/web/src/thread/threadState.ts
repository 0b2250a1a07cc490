/**
 * The shape of one open thread's state (see `threadStore.ts` for the reducer), its empty value,
 * and the read helpers over it. Every change goes through `threadReducer`.
 */
import type { Message, Thread, Turn, UserInputRequest } from "@app/protocol";
import { allRangeIds, type HistoryRange } from "./threadWindows.ts";

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
  /**
   * The newest page read showed no message at all (a brand-new thread): every message since
   * arrives live, so the range they start begins the thread and has no older history to read.
   */
  readEmpty: boolean;
};

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
    readEmpty: false,
  };
}

/** Sets new ranges; `order` changes identity only when the loaded ids do. */
export function withRanges(state: ThreadState, ranges: readonly HistoryRange[]): ThreadState {
  if (ranges === state.ranges) return state;
  const order = allRangeIds(ranges);
  const same = order.length === state.order.length && order.every((id, i) => id === state.order[i]);
  return { ...state, ranges, order: same ? state.order : order };
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
