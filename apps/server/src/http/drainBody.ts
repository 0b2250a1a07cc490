/**
 * A request refused for its declared size (413) is answered only once its body has been read
 * and discarded (issue 29). Answering first and closing the socket while the client still
 * uploads makes the kernel reset the connection, so the client sees "connection reset" instead
 * of the 413 (`@hono/node-server` drains an unread body for at most 500 ms before it destroys
 * the socket). Bodies declared over {@link MAX_DRAINED_BODY_BYTES} are not read: they get the
 * 413 at once, with `Connection: close`.
 */
import type { Context } from "hono";

/** The largest declared body read to its end before a 413 is sent. */
export const MAX_DRAINED_BODY_BYTES = 32 * 1024 * 1024;

/** Reads and discards the rest of the request body when its declared length allows. */
export async function drainDeclaredBody(c: Context): Promise<void> {
  const body = c.req.raw.body;
  if (body === null || c.req.raw.bodyUsed) return;
  const declared = Number(c.req.header("content-length"));
  if (!Number.isSafeInteger(declared) || declared > MAX_DRAINED_BODY_BYTES) return;
  const reader = body.getReader();
  try {
    for (let read = 0; read <= MAX_DRAINED_BODY_BYTES; ) {
      const { done, value } = await reader.read();
      if (done) return;
      read += value.byteLength;
    }
  } catch {
    // The client went away: nothing left to answer.
  } finally {
    reader.releaseLock();
  }
}
