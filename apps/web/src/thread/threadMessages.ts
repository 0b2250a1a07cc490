/**
 * Messages in the thread state: which version of a message to keep (streamed chunks, pages and
 * events can arrive in any order and more than once), stale streams, and backlinks. Pure: each
 * function returns the same state object when nothing changed.
 */
import type { Message } from "@app/protocol";
import { type ThreadState, withRanges } from "./threadState.ts";
import { insertLiveMessage } from "./threadWindows.ts";

/**
 * Appends a streamed chunk. `offset` is the length of the text before the chunk, so a chunk
 * already covered by the known text is dropped, an overlapping one contributes only its tail,
 * and one past the end (a gap), or for an unknown message, marks the message stale (the hook
 * refetches it) instead of corrupting it.
 */
export function applyDelta(
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
export function mergeMessages(
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
      ranges = insertLiveMessage(ranges, message.id, message.seq, seqOf, state.readEmpty);
    }
    next = withRanges(next, ranges);
  }
  return next;
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
export function applyCitedBy(
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
