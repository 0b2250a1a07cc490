/**
 * Subscribes to the thread list's live changes (`GET /api/threads/events`, issue 31): renames,
 * new and branched threads, deletes and restores, made in any tab or server process. The stream
 * has no resume point: the browser reconnects by itself, and each reconnect asks the caller to
 * read the first page again (`onReconnected`), which holds whatever the gap hid. Frames that do
 * not parse are dropped.
 */
import { type ThreadListChange, ThreadListEventSchema } from "@app/protocol";
import { threadListEventsUrl } from "./client.ts";

export type ThreadListEventHandlers = {
  onChanges(changes: ThreadListChange[]): void;
  onReconnected(): void;
};

/** Opens the stream; returns the function that closes it. */
export function subscribeThreadListEvents(
  handlers: ThreadListEventHandlers,
  createSource: ((url: string) => EventSource) | null = typeof EventSource === "function"
    ? (url) => new EventSource(url)
    : null,
): () => void {
  // Without EventSource (a test DOM), the focus refresh is all there is.
  if (createSource === null) return () => {};
  const source = createSource(threadListEventsUrl());
  let opened = false;
  source.addEventListener("open", () => {
    if (opened) handlers.onReconnected();
    opened = true;
  });
  source.addEventListener("threads", (event) => {
    let data: unknown;
    try {
      data = JSON.parse((event as MessageEvent<string>).data);
    } catch {
      return;
    }
    const parsed = ThreadListEventSchema.safeParse(data);
    if (parsed.success) handlers.onChanges(parsed.data.changes);
  });
  return () => source.close();
}
