/**
 * Delete thread with Undo: the thread leaves the list at once (`changeThreadList`), the server
 * keeps it restorable for 10 s, and a status offers **Undo** until then. Undo restores it on the
 * server and puts it back in its place. Leaving the deleted thread's own view goes home.
 */
import type { Thread } from "@app/protocol";
import { useCallback, useEffect, useRef, useState } from "react";
import { deleteThread, restoreThread } from "../api/client.ts";
import { focusThreadLinkSoon } from "./focusThreadLink.ts";
import { removeThreadFromList, upsertThreadInList } from "./threadList.ts";

/** How long Undo is offered (the server's window, DESIGN.md section 9). */
export const UNDO_MS = 10_000;

export type PendingDeletion = { thread: Thread; error: string | null };

export function useThreadDeletion(onDeletedOpenThread: (thread: Thread) => void): {
  pending: PendingDeletion | null;
  remove(thread: Thread): void;
  undo(): void;
  dismiss(): void;
} {
  const [pending, setPending] = useState<PendingDeletion | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const clear = useCallback(() => {
    if (timer.current !== null) clearTimeout(timer.current);
    timer.current = null;
  }, []);
  useEffect(() => clear, [clear]);

  const remove = useCallback(
    (thread: Thread) => {
      clear();
      removeThreadFromList(thread.id);
      setPending({ thread, error: null });
      onDeletedOpenThread(thread);
      deleteThread(thread.id).then(
        () => {
          timer.current = setTimeout(() => setPending(null), UNDO_MS);
        },
        (error: unknown) => {
          upsertThreadInList(thread);
          setPending({ thread, error: error instanceof Error ? error.message : String(error) });
        },
      );
    },
    [onDeletedOpenThread, clear],
  );

  const undo = useCallback(() => {
    const current = pending;
    if (current === null) return;
    clear();
    restoreThread(current.thread.id).then(
      ({ thread }) => {
        upsertThreadInList(thread);
        setPending(null);
        // The status (and its Undo button, which had focus) goes away: focus the restored
        // thread's link in the list instead of leaving it on <body>; no navigation.
        focusThreadLinkSoon(thread.id);
      },
      (error: unknown) =>
        setPending({
          thread: current.thread,
          error: error instanceof Error ? error.message : String(error),
        }),
    );
  }, [pending, clear]);

  const dismiss = useCallback(() => {
    clear();
    setPending(null);
  }, [clear]);

  return { pending, remove, undo, dismiss };
}
