/**
 * The thread the app opens first, before any request of its own: the detail and newest page the
 * server embedded in the page (`#first-rows-data`, apps/server/src/http/firstRows.ts), or else
 * the requests `index.html` started inline. Both are validated like any response.
 */
import {
  type MessagePage,
  MessagePageSchema,
  type ThreadDetail,
  ThreadDetailSchema,
} from "@app/protocol";
import { parseResponse, seg } from "./client.ts";

/**
 * Requests `index.html` starts for the thread in the URL before the app's code has loaded: the
 * detail and the newest page of `NEWEST_PAGE_PREFETCH_LIMIT` messages, both at once. The server
 * may answer the page before the detail, so the page can be older than the detail's
 * `lastEventId`; the caller refetches the newest page once it is shown (see useThread.ts).
 */
type ThreadPrefetch = { threadId: string; detail: Promise<Response>; page: Promise<Response> };

/** Page size the inline prefetch in index.html asks for; keep the two in step. */
export const NEWEST_PAGE_PREFETCH_LIMIT = 40;

/**
 * Takes (once) the prefetched detail and newest page of `threadId`, validated like any other
 * response; null when nothing was prefetched for this thread.
 */
export function takeThreadPrefetch(threadId: string): {
  detail: Promise<ThreadDetail>;
  page: Promise<MessagePage>;
  /** The page was read after the detail (so it is not older than its `lastEventId`). */
  current: boolean;
} | null {
  const embedded = takeEmbeddedThread(threadId);
  if (embedded !== null) {
    return {
      detail: Promise.resolve(embedded.detail),
      page: Promise.resolve(embedded.page),
      current: true,
    };
  }
  const holder = globalThis as { __threadPrefetch?: ThreadPrefetch };
  const prefetch = holder.__threadPrefetch;
  if (!prefetch || prefetch.threadId !== threadId) return null;
  delete holder.__threadPrefetch;
  const path = `/threads/${seg(threadId)}`;
  const detail = parseResponse(ThreadDetailSchema, path, prefetch.detail);
  const page = parseResponse(MessagePageSchema, `${path}/messages`, prefetch.page);
  // The page is awaited together with the detail; keep an early failure from being reported
  // unhandled meanwhile.
  page.catch(() => {});
  return { detail, page, current: false };
}

/** Id of the inert JSON block a thread page carries (apps/server/src/http/firstRows.ts). */
export const FIRST_ROWS_DATA_ID = "first-rows-data";

/**
 * Takes (once: the block is removed) the detail and newest page the server embedded in the page
 * for `threadId`, validated like any response; null when there is none, for another thread, or
 * when it does not parse (the app then fetches them).
 */
function takeEmbeddedThread(threadId: string): { detail: ThreadDetail; page: MessagePage } | null {
  if (typeof document === "undefined") return null;
  const block = document.getElementById(FIRST_ROWS_DATA_ID);
  if (block === null) return null;
  block.remove();
  let json: unknown;
  try {
    json = JSON.parse(block.textContent ?? "");
  } catch {
    return null;
  }
  const { threadId: id, detail, page } = (json ?? {}) as Record<string, unknown>;
  if (id !== threadId) return null;
  const parsedDetail = ThreadDetailSchema.safeParse(detail);
  const parsedPage = MessagePageSchema.safeParse(page);
  if (!parsedDetail.success || !parsedPage.success) return null;
  return { detail: parsedDetail.data, page: parsedPage.data };
}
