/**
 * The background search indexer of both stores (issues 23 and 33). A message longer than
 * `SEARCH_INLINE_MAX_CHARS` (since issue 33: any non-empty message) is not rendered in the
 * transaction that stores or finishes it (600 ms for a 600,000-character reply would stall every
 * stream and request, and rendering every short message inline cost about a third of a turn's
 * CPU): that transaction queues it (`search_pending`), and this indexer, kicked right after the
 * commit, renders it off the event loop (`searchTextRenderer.ts`, a batch at a time) and writes
 * the batch's texts in one small transaction of its own. It keeps its place in thread order, and
 * a search in this process waits for what was queued before it (`flushed`), so it finds every
 * message committed before it; another process sharing a PostgreSQL database finds it once this
 * one has indexed it (a few milliseconds later).
 *
 * Crash-safe: the queue is in the database, so whatever a crash left queued is indexed when a
 * store opens, and, for a shared PostgreSQL database, on every turn sweep of any process once
 * it is a minute old (a process that died between a finish and its indexing is covered by the
 * others; what a live one queued is left to it).
 */
import type { ChatQueries, ChatStore } from "./chatStore.ts";
import { type IndexPacing, PROBE_MS, pacingFor } from "./indexPacing.ts";
import { searchPieceCount } from "./searchPieces.ts";
import {
  type CrossThreadCandidateQuery,
  type QueuedSearchText,
  SEARCH_INLINE_MAX_CHARS,
  type SearchCandidateQuery,
} from "./searchText.ts";
import { createSearchTextRenderer, type SearchTextRenderer } from "./searchTextRenderer.ts";
import { isStorageFault } from "./storageErrors.ts";

/** Queued messages read per query, rendered together and written in one transaction. */
const BATCH = 64;

/**
 * A queued message created this long ago is another process's to index only if that process
 * died (a live one indexes what it queues within seconds; a lease is 30 s).
 */
export const ABANDONED_AFTER_MS = 60_000;

/**
 * Longer messages (the inline limit before issue 33) render on a second worker, each written in
 * a transaction of its own; a search does not wait for them.
 */
export const SEARCH_LONG_CHARS = 4_000;

export class SearchIndexer {
  readonly #store: Pick<
    ChatStore,
    "queuedSearchTexts" | "transaction" | "indexesSearchPieces" | "writeSearchTexts"
  >;
  /**
   * A database other processes write too (PostgreSQL): a round indexes only the messages this
   * process queued ({@link committed}), so two processes do not render the same messages; a
   * round asked for `everything` (the first, and after a branch) takes any queued message, and
   * one asked for `abandoned` (each turn sweep) also any message created more than
   * {@link ABANDONED_AFTER_MS} ago, so what a process that died left queued is indexed too.
   */
  readonly #shared: boolean;
  /** Messages this process queued (committed) and has not seen indexed yet. */
  readonly #mine = new Set<string>();
  #everything = true;
  #abandoned = false;
  readonly #renderer: SearchTextRenderer;
  readonly #longRenderer: SearchTextRenderer;
  /** Long messages being indexed apart from the rounds, by id. */
  readonly #long = new Map<string, Promise<void>>();
  #running: Promise<void> | null = null;
  #again = false;
  #closed = false;
  /** `flushed()` calls waiting for a read of the whole queue to be indexed. */
  readonly #flushWaiters: (() => void)[] = [];
  /** Whether a round waits for the event loop to have room (`indexPacing.ts`). */
  readonly #pacing: IndexPacing;
  /** A round waiting for room: set while something queued is left unindexed on purpose. */
  #waiting: NodeJS.Timeout | null = null;
  /** `idle()` calls in progress: like a search, they do not wait for room. */
  #urgent = 0;

  constructor(
    store: Pick<
      ChatStore,
      "queuedSearchTexts" | "transaction" | "indexesSearchPieces" | "writeSearchTexts"
    >,
    shared = false,
    renderer: SearchTextRenderer = createSearchTextRenderer(),
    longRenderer: SearchTextRenderer = createSearchTextRenderer(),
    pacing: IndexPacing = pacingFor(shared),
  ) {
    this.#store = store;
    this.#shared = shared;
    this.#renderer = renderer;
    this.#longRenderer = longRenderer;
    this.#pacing = pacing;
  }

  /** Messages this process queued, now committed (call before the kick that follows). */
  committed(messageIds: readonly string[]): void {
    if (this.#shared) for (const id of messageIds) this.#mine.add(id);
  }

  /**
   * Indexes what this process queued (`everything`: anything queued), now, right after the
   * current round, or once the event loop has room (`indexPacing.ts`).
   */
  kick({
    everything = false,
    abandoned = false,
  }: {
    everything?: boolean;
    abandoned?: boolean;
  } = {}): void {
    if (everything) this.#everything = true;
    // Only a shared database's rounds ever read less than everything.
    if (abandoned && this.#shared) this.#abandoned = true;
    if (this.#closed) return;
    if (this.#running) {
      this.#again = true;
      return;
    }
    if (this.#waitForRoom()) return;
    this.#stopWaiting();
    this.#running = this.#drain()
      .catch((error: unknown) => {
        // Storage trouble: the queue stays, and the next kick tries again (said elsewhere).
        if (!this.#closed && !isStorageFault(error)) console.error("Search indexer:", error);
      })
      .finally(() => {
        this.#running = null;
        // A search came while the round stopped to wait: it does not wait for room.
        if (this.#again || (this.#waiting !== null && this.#hurried())) {
          this.#again = false;
          this.#stopWaiting();
          this.kick();
        }
        // No round follows and none waits (nothing queued since the last read, an error, or
        // closed): a search waiting now finds what is indexed.
        if (!this.#running && this.#waiting === null) this.#releaseFlushWaiters();
      });
  }

  /** Resolves once nothing queued so far is left (or the indexer stopped on an error). */
  async idle(): Promise<void> {
    this.#urgent++;
    try {
      while (this.#running || this.#waiting !== null || this.#long.size > 0) {
        if (!this.#running && this.#waiting !== null) {
          this.#stopWaiting();
          this.kick();
        }
        await Promise.all([this.#running, ...this.#long.values()]);
      }
    } finally {
      this.#urgent--;
    }
  }

  /** A search or `idle()` is waiting: rendering does not wait for room. */
  #hurried(): boolean {
    return this.#flushWaiters.length > 0 || this.#urgent > 0;
  }

  /** True (and a look again scheduled) when the next batch should wait for the event loop. */
  #waitForRoom(): boolean {
    if (this.#hurried() || !this.#pacing.shouldWait()) return false;
    if (this.#waiting === null) {
      this.#waiting = setTimeout(() => {
        this.#waiting = null;
        this.kick();
      }, PROBE_MS);
      // The queue is in the database: waiting never keeps the process alive.
      this.#waiting.unref();
    }
    return true;
  }

  #stopWaiting(): void {
    if (this.#waiting !== null) clearTimeout(this.#waiting);
    this.#waiting = null;
  }

  /** Stops: an unfinished render is dropped (the message stays queued for the next start). */
  async close(): Promise<void> {
    this.#closed = true;
    this.#again = false;
    this.#stopWaiting();
    await Promise.all([this.#renderer.close(), this.#longRenderer.close()]);
    await Promise.all([this.#running, ...this.#long.values()]);
    this.#releaseFlushWaiters();
  }

  /**
   * Resolves once every message of at most `SEARCH_LONG_CHARS` queued in this process before the
   * call is indexed (or the indexer stopped): what a search waits for, so it finds every such
   * message committed before it, as when they were indexed inline. Unlike {@link idle}, it does
   * not wait for messages queued after the call, nor for long ones.
   */
  flushed(): Promise<void> {
    if (!this.#running && this.#waiting === null) return Promise.resolve();
    const flushed = new Promise<void>((resolve) => this.#flushWaiters.push(resolve));
    if (!this.#running) {
      // Waiting for room: not with a search waiting.
      this.#stopWaiting();
      this.kick();
    }
    return flushed;
  }

  #releaseFlushWaiters(waiters: (() => void)[] = this.#flushWaiters.splice(0)): void {
    for (const resolve of waiters) resolve();
  }

  async #drain(): Promise<void> {
    for (;;) {
      if (this.#closed) return;
      // Busy between two batches: the rest waits for room (a search or idle() never does).
      if (this.#waitForRoom()) return;
      // Waiting before this read: satisfied once a read that saw the whole queue is written.
      const waiters = this.#flushWaiters.splice(0);
      let whole = false;
      try {
        const everything = !this.#shared || this.#everything;
        const only = everything ? undefined : [...this.#mine];
        // Not what another live process queued a moment ago: it renders that itself (rendering
        // it here too was a fifth of two processes' renders under load, issue 33).
        const abandoned = !everything && this.#abandoned;
        const createdBefore = abandoned
          ? new Date(Date.now() - ABANDONED_AFTER_MS).toISOString()
          : undefined;
        // Long messages being indexed are left out: a round never reads their text again.
        const limit = BATCH;
        const except = [...this.#long.keys()];
        const read =
          only?.length === 0 && !abandoned
            ? []
            : await this.#store.queuedSearchTexts(limit, only, except, createdBefore);
        whole = read.length < limit;
        // Everything (or the abandoned) until a read sees the whole queue; then this process's
        // own again.
        if (everything && whole) this.#everything = false;
        if (abandoned && whole) this.#abandoned = false;
        if (only && whole) {
          // Not queued any more: indexed (by this process or another one).
          const left = new Set(read.map((queued) => queued.messageId));
          for (const id of only) {
            if (!left.has(id) && !this.#long.has(id)) this.#mine.delete(id);
          }
        }
        const short: QueuedSearchText[] = [];
        for (const queued of read) {
          if (this.#long.has(queued.messageId)) continue;
          if (queued.markdown.length > SEARCH_LONG_CHARS) this.#indexLong(queued);
          else short.push(queued);
        }
        if (short.length > 0) {
          await this.#index(short, this.#renderer);
          this.#pacing.progressed();
        }
        for (const queued of short) this.#mine.delete(queued.messageId);
      } finally {
        if (whole) this.#releaseFlushWaiters(waiters);
        else this.#flushWaiters.unshift(...waiters);
      }
      if (whole) return;
    }
  }

  /**
   * A long message renders on a worker of its own, apart from the round: short messages queued
   * meanwhile are not held up behind it, and a search does not wait for it (it is found once
   * written, as before issue 33).
   */
  #indexLong(queued: QueuedSearchText): void {
    const indexing = this.#index([queued], this.#longRenderer)
      .catch((error: unknown) => {
        if (!this.#closed && !isStorageFault(error)) console.error("Search indexer:", error);
      })
      .finally(() => {
        this.#long.delete(queued.messageId);
        this.#mine.delete(queued.messageId);
      });
    this.#long.set(queued.messageId, indexing);
  }

  /** Renders a batch (all sent to the worker at once) and writes it in one transaction. */
  async #index(batch: QueuedSearchText[], renderer: SearchTextRenderer): Promise<void> {
    const texts = await Promise.all(
      batch.map(({ messageId, role, markdown }) =>
        renderer.render(role, markdown).catch((error: unknown) => {
          if (this.#closed) return null;
          // A render that fails outright would block the queue: index the source instead.
          console.error(`Search indexer: message ${messageId} indexed as its source:`, error);
          return markdown;
        }),
      ),
    );
    if (this.#closed) return;
    if (this.#store.writeSearchTexts) {
      // PostgreSQL: the whole batch in one statement.
      const entries: { messageId: string; text: string }[] = [];
      for (let i = 0; i < batch.length; i++) {
        const text = texts[i];
        if (text !== null && text !== undefined) {
          entries.push({ messageId: batch[i]!.messageId, text });
        }
      }
      await this.#store.writeSearchTexts(entries);
      return;
    }
    const piecesWritten = await this.#writePiecesAhead(batch, texts);
    if (this.#closed) return;
    await this.#store.transaction(async (tx) => {
      for (let i = 0; i < batch.length; i++) {
        const text = texts[i];
        if (text !== null && text !== undefined)
          await tx.writeSearchText(batch[i]!.messageId, text, piecesWritten[i]);
      }
    });
  }

  /**
   * A text of several pieces (issue 33; stores that index on the event loop, SQLite): every
   * piece but the last is written ahead, each in a transaction of its own, so no statement
   * indexes more than a piece; the last one goes with the text (`writeSearchText`), so a crash
   * in between leaves the message queued and unsearchable. Returns the pieces written per text.
   */
  async #writePiecesAhead(
    batch: readonly QueuedSearchText[],
    texts: readonly (string | null)[],
  ): Promise<number[]> {
    const written = batch.map(() => 0);
    if (!this.#store.indexesSearchPieces) return written;
    for (let i = 0; i < batch.length; i++) {
      const text = texts[i];
      if (text === null || text === undefined) continue;
      const messageId = batch[i]!.messageId;
      for (let piece = 0; piece < searchPieceCount(text) - 1; piece++) {
        if (this.#closed) return written;
        const queued = await this.#store.transaction((tx) =>
          tx.writeSearchTextPiece(messageId, text, piece),
        );
        // Not queued any more (deleted, or indexed): `writeSearchText` will say so too.
        if (!queued) break;
        written[i] = piece + 1;
      }
    }
    return written;
  }
}

/** True when the store queues this write's message rather than indexing it inline. */
const queues = (text: string) => text.length > SEARCH_INLINE_MAX_CHARS;

/**
 * The store with its background indexer: kicked at once (leftovers of a crash), after every
 * commit of a write that queued a message (or a branch), and on every turn sweep
 * (`threadsAwaitingTurns`).
 */
export function withSearchIndexer(
  store: Omit<ChatStore, "searchIndexIdle">,
  pacing?: IndexPacing,
): ChatStore {
  const indexer = new SearchIndexer(store, store.shared, undefined, undefined, pacing);
  const kick = () => indexer.kick();
  // The writes that may queue a message; `queued(write, id)` is told of each that did.
  const watching = <Q extends ChatQueries>(
    queries: Q,
    queued: (write: Promise<unknown>, messageId: string) => void,
    branched: (write: Promise<unknown>) => void,
  ): Pick<
    Q,
    "finishMessage" | "insertAssistantMessage" | "insertTurnWithPrompt" | "branchThread"
  > => ({
    finishMessage(id, text, status) {
      const write = queries.finishMessage(id, text, status);
      if (queues(text)) queued(write, id);
      return write;
    },
    insertAssistantMessage(input) {
      const write = queries.insertAssistantMessage(input);
      if (input.status !== "streaming" && queues(input.text)) queued(write, input.id);
      return write;
    },
    insertTurnWithPrompt(input) {
      const write = queries.insertTurnWithPrompt(input);
      if (queues(input.text)) queued(write, input.messageId);
      return write;
    },
    // A branch queues every copy (issue 30): the whole queue is read after its commit.
    branchThread(input) {
      const write = queries.branchThread(input);
      branched(write);
      return write;
    },
  });
  // Outside a transaction a write commits by itself: kick once it has.
  const direct = watching(
    store,
    (write, id) =>
      write.then(
        () => {
          indexer.committed([id]);
          kick();
        },
        () => {},
      ),
    (write) =>
      write.then(
        () => indexer.kick({ everything: true }),
        () => {},
      ),
  );
  // Own properties (getters kept), so a caller may spread the store as it could before.
  const wrapped: ChatStore = Object.assign(
    Object.defineProperties({}, Object.getOwnPropertyDescriptors(store)) as ChatStore,
    {
      ...direct,
      async transaction<T>(fn: (tx: ChatQueries) => Promise<T>): Promise<T> {
        const queued: string[] = [];
        let branched = false;
        const result = await store.transaction((tx) =>
          fn({
            ...tx,
            ...watching(
              tx,
              (_write, id) => {
                queued.push(id);
              },
              () => {
                branched = true;
              },
            ),
          }),
        );
        if (queued.length > 0) {
          indexer.committed(queued);
          kick();
        }
        if (branched) indexer.kick({ everything: true });
        return result;
      },
      async threadsAwaitingTurns() {
        indexer.kick({ abandoned: true });
        return store.threadsAwaitingTurns();
      },
      // A search finds every message committed (in this process) before it.
      async searchCandidates(query: SearchCandidateQuery) {
        await indexer.flushed();
        return store.searchCandidates(query);
      },
      // The same for a search of all threads (issue 31).
      async searchAllCandidates(query: CrossThreadCandidateQuery) {
        await indexer.flushed();
        return store.searchAllCandidates(query);
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
