/** Parses loaded messages' Markdown in idle time, nearest to the reader's direction (upwards) first. */
import type { Message } from "@app/protocol";
import { useEffect, useRef } from "react";
import { warmMarkdownCache } from "../markdown/markdownBlockCache.ts";

/** Warms the Markdown cache for every settled message in `order` (once per message object). */
export function useWarmMarkdown(
  order: readonly string[],
  messagesById: ReadonlyMap<string, Message>,
): void {
  const warmed = useRef(new WeakSet<Message>());
  useEffect(() => {
    const texts: { text: string; flavor: Message["role"] }[] = [];
    for (let i = order.length - 1; i >= 0; i--) {
      const message = messagesById.get(order[i]!);
      if (!message || message.status === "streaming" || warmed.current.has(message)) continue;
      warmed.current.add(message);
      texts.push({ text: message.text, flavor: message.role });
    }
    if (texts.length > 0) warmMarkdownCache(texts);
  }, [order, messagesById]);
}
