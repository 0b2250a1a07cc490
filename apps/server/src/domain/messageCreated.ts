/**
 * Publishes a new message. A message born as a version (a regeneration's first message) also
 * changes the path shown: `thread.path` tells every view to read history from it again.
 */
import type { Message } from "@app/protocol";
import type { EventTx } from "./events.ts";

export async function publishCreated(
  w: EventTx,
  threadId: string,
  message: Message,
): Promise<void> {
  await w.publish(threadId, { type: "message.created", message });
  if (message.versions !== undefined) {
    await w.publish(threadId, { type: "thread.path", messageId: message.id });
  }
}
