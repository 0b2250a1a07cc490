/**
 * The thread list's live feed (`GET /api/threads/events`, issue 31): renames, new and updated
 * threads, deletions and restores reach every open sidebar, whichever process made them. It
 * listens to {@link ThreadEventLog.onThreadChanged}, gathers the ids for a moment (a streaming
 * reply changes its thread many times a second) and reads each thread again: listed threads go
 * out as `upsert`, deleted or purged ones as `remove`. Nothing is read while no one listens.
 */
import type { ThreadListChange } from "@app/protocol";
import type { ChatStore } from "../storage/chatStore.ts";
import type { ThreadEventLog } from "./events.ts";

/** How long changed ids gather before they are read again. */
export const THREAD_FEED_DELAY_MS = 150;
/** Threads read again per round at most; the rest wait for the next round. */
const MAX_PER_ROUND = 100;

export type ThreadListListener = (changes: ThreadListChange[]) => void;

export class ThreadListFeed {
  readonly #store: ChatStore;
  readonly #delayMs: number;
  readonly #listeners = new Set<ThreadListListener>();
  readonly #changed = new Set<string>();
  #timer: ReturnType<typeof setTimeout> | null = null;
  #stopListening: () => void;

  constructor(store: ChatStore, events: ThreadEventLog, delayMs = THREAD_FEED_DELAY_MS) {
    this.#store = store;
    this.#delayMs = delayMs;
    this.#stopListening = events.onThreadChanged((threadId) => this.#touch(threadId));
  }

  /** Starts sending changes to `listener`; returns the unsubscribe function. */
  subscribe(listener: ThreadListListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  get size(): number {
    return this.#listeners.size;
  }

  close(): void {
    this.#stopListening();
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = null;
    this.#listeners.clear();
  }

  #touch(threadId: string): void {
    if (this.#listeners.size === 0) return;
    this.#changed.add(threadId);
    if (this.#timer === null) {
      this.#timer = setTimeout(() => void this.#round(), this.#delayMs);
      this.#timer.unref?.();
    }
  }

  async #round(): Promise<void> {
    const ids = [...this.#changed].slice(0, MAX_PER_ROUND);
    for (const id of ids) this.#changed.delete(id);
    const changes: ThreadListChange[] = [];
    try {
      for (const threadId of ids) {
        const record = await this.#store.getThread(threadId);
        if (!record || record.deletedAt !== null) changes.push({ type: "remove", threadId });
        // A thread without messages is not listed yet (its first prompt lists it).
        else if (record.thread.messageCount > 0) {
          changes.push({ type: "upsert", thread: record.thread });
        }
      }
    } catch {
      // Storage unavailable: these ids are read again with the next change.
      for (const id of ids) this.#changed.add(id);
    }
    this.#timer = null;
    if (changes.length > 0) for (const listener of this.#listeners) listener(changes);
    if (this.#changed.size > 0 && this.#listeners.size > 0) {
      this.#timer = setTimeout(() => void this.#round(), this.#delayMs);
      this.#timer.unref?.();
    }
  }
}
