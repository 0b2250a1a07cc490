import { useSyncExternalStore } from "react";
import {
  foldMessage,
  isMessageUnfolded,
  subscribeMessageFolds,
  unfoldMessage,
} from "./messageFold.ts";

/** Whether the reader (or navigation) has unfolded this message; re-renders on changes. */
export function useMessageUnfolded(messageId: string): boolean {
  return useSyncExternalStore(
    subscribeMessageFolds,
    () => isMessageUnfolded(messageId),
    () => false,
  );
}

/**
 * After "Show less" on a message whose top is above the viewport, the list keeps that top in
 * place and everything below the message would jump up by the height it lost. Scroll so the
 * message ends where it ended before (the button stays under the pointer and the rows below stay
 * put), but never so far that the message top comes down into view past the viewport's top.
 */
function keepRowsBelowInPlace(article: HTMLElement): void {
  const scroller = article.closest<HTMLElement>(".timeline__scroller");
  if (scroller === null) return;
  const before = article.getBoundingClientRect();
  const viewTop = scroller.getBoundingClientRect().top;
  if (before.top >= viewTop) return; // The whole message top is in view: nothing above moves.
  let frames = 0;
  const settle = () => {
    if (!article.isConnected) return;
    const now = article.getBoundingClientRect();
    // Where the top should be: the old bottom minus the new height, at most the viewport top.
    const targetTop = Math.min(before.bottom - now.height, viewTop);
    const shift = now.top - targetTop;
    if (Math.abs(shift) >= 1) scroller.scrollTop += shift;
    // The list may re-position rows once it has measured the shorter one: check once more.
    if (++frames < 3) requestAnimationFrame(settle);
  };
  requestAnimationFrame(settle);
}

/**
 * "Show more" / "Show less" under a long message. Outside the message body and marked as a
 * control, so it is never part of the rendered text, a selection's quote or a copy.
 */
export function MessageFoldToggle({
  messageId,
  folded,
  bodyId,
}: {
  messageId: string;
  folded: boolean;
  /** The id of the folded element, for `aria-controls`. */
  bodyId: string;
}) {
  return (
    <div className="message__fold-toggle" data-text-stream="skip">
      <button
        type="button"
        className="link-button"
        aria-expanded={!folded}
        aria-controls={bodyId}
        onClick={(event) => {
          if (folded) {
            unfoldMessage(messageId);
            return;
          }
          const article = event.currentTarget.closest<HTMLElement>("[data-message-id]");
          foldMessage(messageId);
          if (article !== null) keepRowsBelowInPlace(article);
        }}
      >
        {folded ? "Show more" : "Show less"}
      </button>
    </div>
  );
}
