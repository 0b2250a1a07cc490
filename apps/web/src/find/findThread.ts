/**
 * What the find bar reads of the thread (a structural part of thread/threadStore.ts's
 * `ThreadState`, so `find/` never imports `thread/`): whether a message is loaded, and a key that
 * changes when a message completes. Also the Ctrl/Cmd+F shortcut test. Pure.
 */
import type { Message } from "@app/protocol";

/** The part of the thread's state the find bar reads (thread/threadStore.ts `ThreadState`). */
export type FindThreadState = {
  messagesById: ReadonlyMap<string, Pick<Message, "id" | "status">>;
  /**
   * Loaded ranges of history, oldest first; the last one is the newest. `hasOlder` / `hasNewer`:
   * whether messages exist before / after it (unknown when absent).
   */
  ranges: readonly { ids: readonly string[]; hasOlder?: boolean; hasNewer?: boolean }[];
};

/** True when the message is in a loaded range of history (so no `around=` is needed). */
export function isLoadedIn(state: FindThreadState, messageId: string): boolean {
  return (
    state.messagesById.has(messageId) && state.ranges.some((range) => range.ids.includes(messageId))
  );
}

/**
 * Changes whenever a message completes or a new one is stored at the end of the thread: the
 * newest range's last message that is not streaming. The open bar then searches again.
 */
export function liveKeyOf(state: FindThreadState): string {
  const ids = state.ranges[state.ranges.length - 1]?.ids ?? [];
  for (let i = ids.length - 1; i >= 0; i--) {
    const message = state.messagesById.get(ids[i]!);
    if (message !== undefined && message.status !== "streaming") return message.id;
  }
  return "";
}

/** True for Ctrl+F (Cmd+F on a Mac): no Alt, no Shift. */
export function isFindShortcut(event: KeyboardEvent): boolean {
  return (
    (event.ctrlKey || event.metaKey) &&
    !event.altKey &&
    !event.shiftKey &&
    event.key.toLowerCase() === "f"
  );
}
