/**
 * Subscribes to a thread's server-sent events with resumption and backoff.
 *
 * `EventSource` cannot set headers on its first request, so the resume point is passed as the
 * `lastEventId` query parameter (the browser itself sends `Last-Event-ID` on its own retries).
 * On any error the source is closed and reopened after an exponential backoff from the last
 * event id actually received, so nothing is missed and the reducer drops anything replayed.
 *
 * A stream refused before it opened is asked why (one plain GET of the same URL): `400
 * invalid_cursor` means the resume point is past the thread's log (the database was reset or
 * restored under an open tab), so the stream starts over from the log's beginning at once, and
 * the caller refetches (`onReconnected`) instead of retrying the same refused id forever.
 */
import { type ServerEvent, ServerEventSchema } from "@app/protocol";
import { threadEventsUrl } from "./client.ts";

/** Connection state shown to the user ("Reconnecting…" while not open after a failure). */
export type EventStreamStatus = "connecting" | "open" | "reconnecting";

/** Callbacks and resume point for {@link subscribeThreadEvents}. */
export type ThreadEventHandlers = {
  /** Resume after this event id (from `GET /api/threads/:id`). */
  lastEventId: number;
  onEvent(eventId: number | null, event: ServerEvent): void;
  onStatus(status: EventStreamStatus): void;
  /** Called after a reconnect so the caller can refetch anything a gap could have hidden. */
  onReconnected?(): void;
};

/** Minimal constructor shape so tests can pass a fake `EventSource`. */
export type EventSourceFactory = (url: string) => EventSource;

/** The API error code a GET of `url` answers with, or null when it is not an API error. */
export type StreamRefusalProbe = (url: string) => Promise<string | null>;

/** Asks the server why a stream was refused; a stream it accepts is closed at once. */
export const probeStreamRefusal: StreamRefusalProbe = async (url) => {
  const controller = new AbortController();
  try {
    const res = await fetch(url, { signal: controller.signal });
    if (res.ok) return null;
    const body = (await res.json()) as { error?: { code?: unknown } };
    return typeof body.error?.code === "string" ? body.error.code : null;
  } catch {
    return null;
  } finally {
    controller.abort();
  }
};

/**
 * The event names the server may use, read from the protocol's schema so a new event type is
 * listened to without a second list; unnamed `message` events are accepted too.
 */
const EVENT_TYPES: readonly ServerEvent["type"][] = ServerEventSchema.options.map(
  (option) => option.shape.type.value,
);

const BASE_DELAY_MS = 500;
const MAX_DELAY_MS = 10_000;

/** Delay before reconnect attempt `attempt` (0-based): 0.5 s doubling up to 10 s. */
export function reconnectDelay(attempt: number): number {
  return Math.min(MAX_DELAY_MS, BASE_DELAY_MS * 2 ** Math.min(attempt, 10));
}

/** Parses one SSE payload; returns null (and warns) for anything that is not a known event. */
export function parseServerEvent(data: string): ServerEvent | null {
  let json: unknown;
  try {
    json = JSON.parse(data);
  } catch {
    console.warn("Ignoring a server event that is not JSON");
    return null;
  }
  const parsed = ServerEventSchema.safeParse(json);
  if (!parsed.success) {
    console.warn("Ignoring an unknown server event", parsed.error.issues[0]?.message);
    return null;
  }
  return parsed.data;
}

/** Opens the stream; returns a function that closes it for good. */
export function subscribeThreadEvents(
  threadId: string,
  handlers: ThreadEventHandlers,
  createSource: EventSourceFactory = (url) => new EventSource(url),
  probe: StreamRefusalProbe = probeStreamRefusal,
): () => void {
  let lastEventId = handlers.lastEventId;
  let attempt = 0;
  let source: EventSource | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let closed = false;
  let hadFailure = false;

  const handleMessage = (message: MessageEvent<string>) => {
    const event = parseServerEvent(message.data);
    if (event === null) return;
    const id = message.lastEventId === "" ? null : Number(message.lastEventId);
    const eventId = id !== null && Number.isSafeInteger(id) ? id : null;
    if (eventId !== null && eventId <= lastEventId) {
      // Live chunks of a streaming message come without an id of their own (the browser then
      // repeats the last one). They are applied by offset, so passing them on is harmless.
      if (event.type === "message.delta") handlers.onEvent(null, event);
      return;
    }
    if (eventId !== null) lastEventId = eventId;
    handlers.onEvent(eventId, event);
  };

  const connect = () => {
    timer = null;
    if (closed) return;
    const url = `${threadEventsUrl(threadId)}?lastEventId=${lastEventId}`;
    const es = createSource(url);
    source = es;
    let opened = false;
    es.onopen = () => {
      opened = true;
      attempt = 0;
      handlers.onStatus("open");
      if (hadFailure) {
        hadFailure = false;
        handlers.onReconnected?.();
      }
    };
    es.onmessage = handleMessage;
    for (const type of EVENT_TYPES) es.addEventListener(type, handleMessage as EventListener);
    es.onerror = () => {
      if (closed || source !== es) return;
      es.close();
      source = null;
      hadFailure = true;
      handlers.onStatus("reconnecting");
      const retry = setTimeout(connect, reconnectDelay(attempt));
      timer = retry;
      attempt += 1;
      if (opened) return;
      void probe(url).then((code) => {
        // Still waiting for that retry: the log restarted below our resume point, so start
        // over from its beginning now.
        if (code !== "invalid_cursor" || closed || timer !== retry) return;
        clearTimeout(retry);
        lastEventId = 0;
        attempt = 0;
        connect();
      });
    };
  };

  handlers.onStatus("connecting");
  connect();

  return () => {
    closed = true;
    if (timer !== null) clearTimeout(timer);
    source?.close();
    source = null;
  };
}
