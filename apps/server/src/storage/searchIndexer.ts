/**
 * The background search indexer of both stores (issue 23). A message longer than
 * `SEARCH_INLINE_MAX_CHARS` is not rendered in the transaction that finishes it (600 ms for a
 * 600,000-character reply would stall every stream and request): that transaction queues it
 * (`search_pending`), and this indexer, kicked right after the commit, renders it off the event
 * loop (`searchTextRenderer.ts`) and writes its text in a small transaction of its own. Until
 * then the message is simply not found; it keeps its place in thread order.
 *
 * Crash-safe: the queue is in the database, so whatever a crash left queued is indexed when a
 * store opens, and, for a shared PostgreSQL database, on every turn sweep of any process (a
 * process that died between a finish and its indexing is covered by the others).
 */
import type { ChatQueries, ChatStore } from "./chatStore.ts";
import { SEARCH_INLINE_MAX_CHARS } from "./searchText.ts";
import { createSearchTextRenderer, type SearchTextRenderer } from "./searchTextRenderer.ts";
import { isStorageFault } from "./storageErrors.ts";

/** Queued messages read per query. */
const BATCH = 20;

export class SearchIndexer {
  readonly #store: Pick<ChatStore, "queuedSearchTexts" | "transaction">;
  readonly #renderer: SearchTextRenderer;
  #running: Promise<void> | null = null;
  #again = false;
  #closed = false;

  constructor(
    store: Pick<ChatStore, "queuedSearchTexts" | "transaction">,
    renderer: SearchTextRenderer = createSearchTextRenderer(),
  ) {
    this.#store = store;
    this.#renderer = renderer;
  }

  /** Indexes everything queued, now or right after the current round. */
  kick(): void {
    if (this.#closed) return;
    if (this.#running) {
      this.#again = true;
      return;
    }
    this.#running = this.#drain()
      .catch((error: unknown) => {
        // Storage trouble: the queue stays, and the next kick tries again (said elsewhere).
        if (!this.#closed && !isStorageFault(error)) console.error("Search indexer:", error);
      })
      .finally(() => {
        this.#running = null;
        if (this.#again) {
          this.#again = false;
          this.kick();
        }
      });
  }

  /** Resolves once nothing queued so far is left (or the indexer stopped on an error). */
  async idle(): Promise<void> {
    while (this.#running) await this.#running;
  }

  /** Stops: an unfinished render is dropped (the message stays queued for the next start). */
  async close(): Promise<void> {
    this.#closed = true;
    this.#again = false;
    await this.#renderer.close();
    await this.#running;
  }

  async #drain(): Promise<void> {
    for (;;) {
      if (this.#closed) return;
      const batch = await this.#store.queuedSearchTexts(BATCH);
      if (batch.length === 0) return;
      for (const { messageId, role, markdown } of batch) {
        let text: string;
        try {
          text = await this.#renderer.render(role, markdown);
        } catch (error) {
          if (this.#closed) return;
          // A render that fails outright would block the queue: index the source instead.
          console.error(`Search indexer: message ${messageId} indexed as its source:`, error);
          text = markdown;
        }
        if (this.#closed) return;
        await this.#store.transaction((tx) => tx.writeSearchText(messageId, text));
      }
    }
  }
}

/** True when the store queues this write's message rather than indexing it inline. */
const queues = (text: string) => text.length > SEARCH_INLINE_MAX_CHARS;

/**
 * The store with its background indexer: kicked at once (leftovers of a crash), after every
 * commit of a write that queued a message (or a branch), and on every turn sweep
 * (`threadsAwaitingTurns`).
 */
export function withSearchIndexer(store: Omit<ChatStore, "searchIndexIdle">): ChatStore {
  const indexer = new SearchIndexer(store);
  const kick = () => indexer.kick();
  // The writes that may queue a message; `queued(write)` is told of each that did.
  const watching = <Q extends ChatQueries>(
    queries: Q,
    queued: (write: Promise<unknown>) => void,
  ): Pick<
    Q,
    "finishMessage" | "insertAssistantMessage" | "insertTurnWithPrompt" | "branchThread"
  > => ({
    finishMessage(id, text, status) {
      const write = queries.finishMessage(id, text, status);
      if (queues(text)) queued(write);
      return write;
    },
    insertAssistantMessage(input) {
      const write = queries.insertAssistantMessage(input);
      if (input.status !== "streaming" && queues(input.text)) queued(write);
      return write;
    },
    insertTurnWithPrompt(input) {
      const write = queries.insertTurnWithPrompt(input);
      if (queues(input.text)) queued(write);
      return write;
    },
    // A branch queues its copies on SQLite (`sqliteVersions.ts`).
    branchThread(input) {
      const write = queries.branchThread(input);
      queued(write);
      return write;
    },
  });
  // Outside a transaction a write commits by itself: kick once it has.
  const direct = watching(store, (write) => write.then(kick, () => {}));
  // Own properties (getters kept), so a caller may spread the store as it could before.
  const wrapped: ChatStore = Object.assign(
    Object.defineProperties({}, Object.getOwnPropertyDescriptors(store)) as ChatStore,
    {
      ...direct,
      async transaction<T>(fn: (tx: ChatQueries) => Promise<T>): Promise<T> {
        let queued = false;
        const result = await store.transaction((tx) =>
          fn({
            ...tx,
            ...watching(tx, () => {
              queued = true;
            }),
          }),
        );
        if (queued) kick();
        return result;
      },
      async threadsAwaitingTurns() {
        kick();
        return store.threadsAwaitingTurns();
      },
      searchIndexIdle: () => indexer.idle(),
      async close() {
        await indexer.close();
        await store.close();
      },
    },
  );
  kick();
  return wrapped;
}
