/**
 * Which turns show their progress updates, and the short holds while a fold changes height under
 * the reader: a turn toggled (`turnFolding`: the end is not pinned until its rows are measured)
 * or a long message opened or closed (`messageFolding`: neither pinned nor anchored on a row
 * below, so the message opens downwards from where the reader is, and MessageFoldToggle keeps
 * the rows below it in place when it closes). Either stops following (followPolicy.ts "fold").
 */
import { useCallback, useEffect, useState } from "react";
import type { FollowEvent } from "./followPolicy.ts";
import { subscribeMessageFolds } from "./messageFold.ts";

/** How long (ms) a fold's hold lasts: its rows are measured by then. */
const FOLD_HOLD_MS = 300;

/** What {@link useTurnFolds} gives the timeline. */
export type TurnFolds = {
  expandedTurns: ReadonlySet<string>;
  toggleTurn(turnId: string): void;
  expandTurn(turnId: string): void;
  turnFolding: boolean;
  messageFolding: boolean;
};

/** A state that turns itself off {@link FOLD_HOLD_MS} after it was turned on. */
function useBriefHold(): [boolean, () => void] {
  const [held, setHeld] = useState(false);
  useEffect(() => {
    if (!held) return;
    const timer = setTimeout(() => setHeld(false), FOLD_HOLD_MS);
    return () => clearTimeout(timer);
  }, [held]);
  return [held, useCallback(() => setHeld(true), [])];
}

/** See the module doc. `initial` is read once (the turns a placement unfolds). */
export function useTurnFolds(
  initial: () => ReadonlySet<string>,
  dispatchFollow: (event: FollowEvent) => void,
): TurnFolds {
  const [expandedTurns, setExpandedTurns] = useState<ReadonlySet<string>>(initial);
  const [turnFolding, holdForTurn] = useBriefHold();
  const [messageFolding, holdForMessage] = useBriefHold();

  const toggleTurn = useCallback(
    (turnId: string) => {
      dispatchFollow({ type: "fold" });
      holdForTurn();
      setExpandedTurns((current) => {
        const next = new Set(current);
        if (next.has(turnId)) next.delete(turnId);
        else next.add(turnId);
        return next;
      });
    },
    [dispatchFollow, holdForTurn],
  );
  const expandTurn = useCallback((turnId: string) => {
    setExpandedTurns((current) => (current.has(turnId) ? current : new Set(current).add(turnId)));
  }, []);
  useEffect(
    () =>
      subscribeMessageFolds(() => {
        dispatchFollow({ type: "fold" });
        holdForMessage();
      }),
    [dispatchFollow, holdForMessage],
  );
  return { expandedTurns, toggleTurn, expandTurn, turnFolding, messageFolding };
}
