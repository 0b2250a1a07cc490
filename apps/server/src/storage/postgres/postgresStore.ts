/**
 * The shared store: PostgreSQL at `DATABASE_URL`, for several server processes on one database.
 *
 * - Queries run on a pool (`PG_POOL_SIZE` connections); a transaction holds one client.
 * - Fan-out: the `events_notify` trigger sends `NOTIFY chat_events` with the event itself when
 *   it commits, from any process (`eventNotify.ts`). One extra connection per process LISTENs;
 *   a watched thread's event whose id is the last delivered + 1 goes to the sink as it came,
 *   without a read. Anything else (a gap, an event too large for a payload, a notice that names
 *   only the thread, one that comes during a read-back or before the watch knows its start) is
 *   read back: the stored events after the last one delivered, in id order. So every listener
 *   gets each event once, in order, whichever process wrote it, and a thread nobody watches
 *   here is never read. After a lost connection it reconnects and catches up the same way.
 * - Live chunks: streaming text, once stored, also travels on `NOTIFY chat_live`, batched
 *   (`liveDeltas.ts`), so clients on any process get it even when the message finishes and its
 *   delta rows are compacted before they are read. A chunk that arrives while a thread's stored
 *   events are being read waits for them, so it never overtakes the `message.created` (or delta
 *   row) it continues; held chunks of a message go out right before its `message.completed`.
 * - A connection lost mid-transaction (restart, pg_terminate_backend) is a storage fault, never
 *   an unhandled `error` event; every statement runs under `statement_timeout`.
 */
import type { ServerEvent } from "@app/protocol";
import pg from "pg";
import type {
  ChatQueries,
  ChatStore,
  CommittedEventsSink,
  LiveDelta,
  LiveDeltaSink,
  StoredEvent,
} from "../chatStore.ts";
import { withSearchIndexer } from "../searchIndexer.ts";
import { isStorageFault, translateStorageError } from "../storageErrors.ts";
import { decodeEventNotice, type EventNotice } from "./eventNotify.ts";
import { HistoryTextCache } from "./historyTexts.ts";
import {
  decodeLiveDelta,
  LIVE_CHANNEL,
  LiveDeltaBatcher,
  type ReceivedDelta,
} from "./liveDeltas.ts";
import { migratePostgres } from "./migrations.ts";
import { createPgQueries, type Run } from "./pgQueries.ts";
import { type PgContext, pgContext } from "./pgRun.ts";
import { writePgSearchTexts } from "./pgSearch.ts";

export interface PostgresStoreOptions {
  url: string;
  /** Pool connections (PG_POOL_SIZE, default 10), plus one for LISTEN. */
  poolSize?: number;
  /** Called before each read-back of a watched thread's events (tests and diagnostics). */
  onReadBack?: (threadId: string) => void;
}

const CATCH_UP_PAGE = 500;
const RECONNECT_MS = 1_000;
/** PostgreSQL's statement_timeout on the pool's connections. */
const STATEMENT_TIMEOUT_MS = 30_000;

// BIGINT columns (seq, event ids) come back as strings by default; they are far below 2^53.
const types = {
  getTypeParser: ((oid: number, format?: "text" | "binary") =>
    oid === pg.types.builtins.INT8
      ? (value: string) => Number(value)
      : pg.types.getTypeParser(oid, format as "text")) as typeof pg.types.getTypeParser,
};

/**
 * The pool's connections: each always has an `error` listener. A backend ended right as its
 * connection is handed over (its ready and its termination in one packet) would otherwise emit
 * `error` while neither the pool's idle listener nor a transaction's is attached, and an
 * unhandled `error` event ends the process. The error still reaches whoever uses the
 * connection: its queries reject and the pool drops it.
 */
class PoolClient extends pg.Client {
  constructor(config?: string | pg.ClientConfig) {
    super(config);
    this.on("error", () => {});
  }
}

type Watched = {
  /** Transactions of this process wait here until their events reached local listeners. */
  waiters: { id: number; resolve: () => void }[];
  refs: number;
  lastDelivered: number;
  ready: Promise<void>;
  /** True once `lastDelivered` holds the watch's starting point. */
  started: boolean;
  pending: boolean;
  running: boolean;
  /** Live chunks that arrived while stored events were being read: delivered after them. */
  held: LiveDelta[];
};

/** A connection's transaction queries, and where its current transaction records its events. */
type TxQueries = {
  tx: ChatQueries;
  recording: { appended: Map<string, StoredEvent[]> | null };
};

/** Connects, applies migrations and starts listening. */
export async function openPostgresStore(options: PostgresStoreOptions): Promise<ChatStore> {
  const core = new PostgresConnections(options);
  try {
    await core.init();
  } catch (error) {
    await core.close();
    throw error;
  }
  return withSearchIndexer({
    ...core.queries,
    kind: "postgres",
    shared: true,
    indexesSearchPieces: false,
    get environmentId() {
      return core.environmentId;
    },
    transaction: (fn) => core.transaction(fn),
    onCommittedEvents: (sink) => core.onCommittedEvents(sink),
    watch: (threadId) => core.watch(threadId),
    unwatch: (threadId) => core.unwatch(threadId),
    shareLiveDelta: (threadId, event) => core.live.add(threadId, event),
    flushLiveDeltas: () => core.live.drain(),
    onLiveDeltas: (sink) => core.onLiveDeltas(sink),
    onThreadNotified: (sink) => core.onThreadNotified(sink),
    announceThread: (threadId) => core.announceThread(threadId),
    writeSearchTexts: (entries) => writePgSearchTexts(core.context, entries),
    close: () => core.close(),
  });
}

/** The pool, the LISTEN connection and the per-thread event readers. */
class PostgresConnections {
  readonly queries: ChatQueries;
  /** The pool's statements, for the queries outside {@link ChatQueries}. */
  readonly context: PgContext;
  readonly #pool: pg.Pool;
  readonly #url: string;
  readonly #onReadBack: (threadId: string) => void;
  readonly #watched = new Map<string, Watched>();
  readonly #txQueries = new WeakMap<pg.PoolClient, TxQueries>();
  /** The provider history's texts, for every connection (`historyTexts.ts`). */
  readonly #historyTexts = new HistoryTextCache();
  #environmentId = "";
  #sink: CommittedEventsSink = () => {};
  #liveSink: LiveDeltaSink = () => {};
  #threadSink: (threadId: string) => void = () => {};
  readonly live: LiveDeltaBatcher;
  #listener: pg.Client | null = null;
  #closed = false;

  constructor(options: PostgresStoreOptions) {
    this.#url = options.url;
    this.#onReadBack = options.onReadBack ?? (() => {});
    this.#pool = new pg.Pool({
      connectionString: options.url,
      max: options.poolSize ?? 10,
      types,
      Client: PoolClient,
      // Every statement is bounded (issue 29): one that runs longer is cancelled, and the
      // request answers 503 storage_unavailable instead of holding a connection.
      statement_timeout: STATEMENT_TIMEOUT_MS,
      // No JIT: our statements are short OLTP work, and on stale statistics a bulk copy (a
      // branch) was planned expensive enough to JIT-compile, 10-15 ms per statement for nothing.
      options: "-c jit=off",
    });
    // An idle client's connection dropped: the pool replaces it; nothing to crash for.
    this.#pool.on("error", (error) => console.error("PostgreSQL pool:", error.message));
    const run: Run = async (name, text, values) => {
      try {
        return await this.#pool.query({ name, text, values });
      } catch (error) {
        throw translateStorageError(error);
      }
    };
    this.queries = createPgQueries(run, () => this.#environmentId, this.#historyTexts);
    this.context = pgContext(run, () => this.#environmentId);
    // One statement per batch; the pool keeps it off the LISTEN connection.
    this.live = new LiveDeltaBatcher(async (payloads) => {
      await this.#pool.query(
        "SELECT pg_notify($1, p) FROM unnest($2::text[]) WITH ORDINALITY AS u(p, n) ORDER BY n",
        [LIVE_CHANNEL, payloads],
      );
    });
  }

  get environmentId(): string {
    return this.#environmentId;
  }

  async transaction<T>(fn: (tx: ChatQueries) => Promise<T>): Promise<T> {
    let client: pg.PoolClient;
    try {
      client = await this.#pool.connect();
    } catch (error) {
      throw translateStorageError(error);
    }
    // A checked-out client has no listener of the pool's: a connection lost mid-transaction
    // (a restart, pg_terminate_backend) would be an unhandled 'error' event, which ends the
    // process. The query in flight rejects on its own; the client is then dropped, not reused.
    let broken = false;
    const onError = () => {
      broken = true;
    };
    client.on("error", onError);
    const { tx, recording } = this.#queriesOf(client);
    // The events this transaction stored, per thread (consecutive ids: the thread row's lock).
    const appended = new Map<string, StoredEvent[]>();
    recording.appended = appended;
    let result: T;
    try {
      await client.query("BEGIN");
      result = await fn(tx);
      await client.query("COMMIT");
    } catch (error) {
      await client.query("ROLLBACK").catch(() => {
        broken = true;
      });
      throw translateStorageError(error);
    } finally {
      recording.appended = null;
      client.release(broken);
      client.off("error", onError);
    }
    // As with SQLite, a transaction's events have reached this process's listeners when it
    // returns (a writer that broadcasts a chunk next relies on its message.created being out).
    await Promise.all([...appended].map(([threadId, events]) => this.#delivered(threadId, events)));
    return result;
  }

  /**
   * A pooled connection's transaction queries, built once per connection (issue 33: building
   * them for every transaction was about 5% of a process's CPU); `appendEvent` records what it
   * stores in the current transaction's map.
   */
  #queriesOf(client: pg.PoolClient): TxQueries {
    let cached = this.#txQueries.get(client);
    if (cached) return cached;
    const run: Run = (name, text, values) => client.query({ name, text, values });
    const tx = createPgQueries(run, () => this.#environmentId, this.#historyTexts);
    const recording: TxQueries["recording"] = { appended: null };
    const appendEvent = tx.appendEvent;
    tx.appendEvent = async (threadId, event, data = JSON.stringify(event)) => {
      const id = await appendEvent(threadId, event, data);
      const appended = recording.appended;
      if (appended) {
        const list = appended.get(threadId);
        if (list) list.push({ id, event, data });
        else appended.set(threadId, [{ id, event, data }]);
      }
      return id;
    };
    cached = { tx, recording };
    this.#txQueries.set(client, cached);
    return cached;
  }

  /**
   * Resolves once a transaction's events of a watched thread went to the sink (at once if
   * unwatched). When they are the next ones, they go as they are, without waiting for their
   * notification (skipped when it comes); after a gap they are read back with it.
   */
  #delivered(threadId: string, events: StoredEvent[]): Promise<void> {
    const watched = this.#watched.get(threadId);
    const id = events.at(-1)!.id;
    if (!watched || watched.lastDelivered >= id) return Promise.resolve();
    if (watched.started && !watched.running && events[0]!.id === watched.lastDelivered + 1) {
      watched.lastDelivered = id;
      this.#sink(threadId, events);
      this.#wake(watched);
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      watched.waiters.push({ id, resolve });
      this.#catchUp(threadId);
    });
  }

  onCommittedEvents(sink: CommittedEventsSink): void {
    this.#sink = sink;
  }

  onThreadNotified(sink: (threadId: string) => void): void {
    this.#threadSink = sink;
  }

  async announceThread(threadId: string): Promise<void> {
    try {
      await this.#pool.query("SELECT pg_notify('chat_events', $1)", [threadId]);
    } catch {
      // Best effort: other processes' lists catch up when their tabs regain focus.
    }
  }

  onLiveDeltas(sink: LiveDeltaSink): void {
    this.#liveSink = sink;
  }

  watch(threadId: string): Promise<void> {
    let watched = this.#watched.get(threadId);
    if (!watched) {
      const created: Watched = {
        waiters: [],
        refs: 0,
        lastDelivered: 0,
        started: false,
        pending: false,
        running: false,
        held: [],
        ready: Promise.resolve(),
      };
      // Deliver from the newest stored event on: earlier ones are each subscriber's replay.
      created.ready = this.lastEventIdOf(threadId).then((id) => {
        created.lastDelivered = id;
        created.started = true;
      });
      created.ready.catch(() => this.#watched.delete(threadId));
      this.#watched.set(threadId, created);
      watched = created;
    }
    watched.refs++;
    return watched.ready;
  }

  unwatch(threadId: string): void {
    const watched = this.#watched.get(threadId);
    if (watched && --watched.refs <= 0) {
      this.#watched.delete(threadId);
      for (const waiter of watched.waiters.splice(0)) waiter.resolve();
    }
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.live.close();
    const listener = this.#listener;
    this.#listener = null;
    await listener?.end().catch(() => {});
    await this.#pool.end().catch(() => {});
  }

  async lastEventIdOf(threadId: string): Promise<number> {
    return (await this.queries.getThread(threadId))?.lastEventId ?? 0;
  }

  async init(): Promise<void> {
    const client = await this.#pool.connect().catch((error: unknown) => {
      throw translateStorageError(error);
    });
    // A connection lost during the migrations fails them (the query rejects), not the process.
    const onError = () => {};
    client.on("error", onError);
    try {
      await migratePostgres(client);
      await client.query(
        "INSERT INTO meta (key, value) VALUES ('environment_id', gen_random_uuid()::text) ON CONFLICT (key) DO NOTHING",
      );
      const { rows } = await client.query<{ value: string }>(
        "SELECT value FROM meta WHERE key = 'environment_id'",
      );
      this.#environmentId = rows[0]!.value;
    } finally {
      client.release();
      client.off("error", onError);
    }
    await this.#listen();
  }

  async #listen(): Promise<void> {
    const client = new pg.Client({ connectionString: this.#url, types });
    client.on("notification", (message) => {
      if (!message.payload) return;
      if (message.channel === "chat_events") {
        const notice = decodeEventNotice(message.payload);
        this.#threadSink(notice.threadId);
        this.#receiveEvent(notice);
      } else if (message.channel === LIVE_CHANNEL) {
        const live = decodeLiveDelta(message.payload, this.live.sender);
        if (live) this.#receiveLive(live);
      }
    });
    client.on("error", () => this.#reconnect(client));
    client.on("end", () => this.#reconnect(client));
    await client.connect();
    await client.query(`LISTEN ${LIVE_CHANNEL}`);
    // Last, so this connection's last query names it (tests find the LISTEN backend by it).
    await client.query("LISTEN chat_events");
    this.#listener = client;
  }

  /** The LISTEN connection dropped: reconnect, then catch up every watched thread. */
  #reconnect(dead: pg.Client): void {
    if (this.#closed || this.#listener !== dead) return;
    this.#listener = null;
    const retry = () => {
      if (this.#closed) return;
      this.#listen().then(
        () => {
          for (const threadId of this.#watched.keys()) this.#catchUp(threadId);
        },
        () => setTimeout(retry, RECONNECT_MS).unref(),
      );
    };
    setTimeout(retry, RECONNECT_MS).unref();
  }

  /**
   * A committed event (any process): to the sink as it came when it is the next one of a watched
   * thread and nothing is being read; otherwise read back from the last delivered one.
   */
  #receiveEvent({ threadId, id, data }: EventNotice): void {
    const watched = this.#watched.get(threadId);
    if (!watched) return;
    if (id !== null && watched.started && id <= watched.lastDelivered) return;
    if (
      id === null ||
      data === null ||
      !watched.started ||
      watched.running ||
      id !== watched.lastDelivered + 1
    ) {
      this.#catchUp(threadId);
      return;
    }
    const event = JSON.parse(data) as ServerEvent;
    watched.lastDelivered = id;
    this.#sink(threadId, [{ id, event, data }]);
    this.#wake(watched);
  }

  /** Another process's chunk: to the sink now, or after the stored events being read. */
  #receiveLive({ threadId, event }: ReceivedDelta): void {
    const watched = this.#watched.get(threadId);
    if (!watched) return;
    if (watched.running) watched.held.push(event);
    else this.#liveSink(threadId, event);
  }

  /** Delivers a watched thread's events after the last delivered one; one reader per thread. */
  #catchUp(threadId: string): void {
    const watched = this.#watched.get(threadId);
    if (!watched) return;
    watched.pending = true;
    if (watched.running) return;
    watched.running = true;
    void (async () => {
      try {
        await watched.ready;
        while (watched.pending && this.#watched.get(threadId) === watched) {
          watched.pending = false;
          for (;;) {
            this.#onReadBack(threadId);
            const events = await this.queries.eventsAfter(
              threadId,
              watched.lastDelivered,
              CATCH_UP_PAGE,
            );
            if (events.length === 0) break;
            watched.lastDelivered = events.at(-1)!.id;
            this.#deliverStored(threadId, watched, events);
            this.#wake(watched);
            if (events.length < CATCH_UP_PAGE) break;
          }
        }
      } catch (error) {
        // Tried again on the next notification of this thread.
        if (!isStorageFault(error)) console.error(`Event fan-out of ${threadId}:`, error);
        watched.pending = true;
        // Nobody waits on a broken connection: the events come with the next notification.
        for (const waiter of watched.waiters.splice(0)) waiter.resolve();
      } finally {
        watched.running = false;
        this.#wake(watched);
        if (this.#watched.get(threadId) === watched) {
          for (const event of watched.held.splice(0)) this.#liveSink(threadId, event);
        }
      }
    })();
  }

  /**
   * Stored events to the sink, in order; the live chunks held meanwhile of a message that
   * completes here go first, right before its `message.completed`. (A writer sends a message's
   * last chunk before it stores the completion, but the chunk may come in while the stored
   * events are being read; after the completion, clients would drop it.)
   */
  #deliverStored(threadId: string, watched: Watched, events: StoredEvent[]): void {
    let from = 0;
    for (let i = 0; i < events.length; i++) {
      const event = events[i]!.event;
      if (event.type !== "message.completed") continue;
      const id = event.message.id;
      const chunks = watched.held.filter((held) => held.messageId === id);
      if (chunks.length === 0) continue;
      watched.held = watched.held.filter((held) => held.messageId !== id);
      if (i > from) this.#sink(threadId, events.slice(from, i));
      for (const chunk of chunks) this.#liveSink(threadId, chunk);
      from = i;
    }
    if (from < events.length) this.#sink(threadId, events.slice(from));
  }

  #wake(watched: Watched): void {
    const still: Watched["waiters"] = [];
    for (const waiter of watched.waiters) {
      if (waiter.id <= watched.lastDelivered) waiter.resolve();
      else still.push(waiter);
    }
    watched.waiters = still;
  }
}
