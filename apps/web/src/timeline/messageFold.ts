/**
 * Long messages fold: a user or assistant message longer than about 25 lines shows its first
 * lines and a "Show more" button. This module holds the rule (pure, from the text alone) and
 * which messages the reader has unfolded (module state shared by every view, so navigation can
 * unfold a message before its row is even mounted). No React, no DOM.
 *
 * Why decide from the text and not from a measured height: the fold must be in place on the
 * row's first render. Measuring first and clipping afterwards would shrink a row the reader may
 * be looking at, and move every row below it.
 */
import { createSignal } from "../ui/signal.ts";

/** A message estimated at more than this many rendered lines folds. */
export const FOLD_AFTER_LINES = 25;

/**
 * Lines a folded message still shows (the CSS clip, `--message-fold-lines`). Well below
 * {@link FOLD_AFTER_LINES}, so "Show more" always reveals a good part of the message even when
 * the estimate runs a little high.
 */
export const FOLDED_VISIBLE_LINES = 16;

/** Characters per rendered line: the assistant column fits ~90, the user bubble (85%) ~75. */
const CHARS_PER_LINE = { assistant: 90, user: 75 } as const;

const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/**
 * A rough count of the lines `text` renders to, stopping once it passes `limit` (a 120,000
 * character prompt costs no more than a short one). Each source line counts its wrapped lines;
 * lines inside fenced code count one each (code scrolls sideways instead of wrapping); blank
 * lines count nothing (paragraph gaps are smaller than a line).
 */
export function estimateRenderedLines(
  text: string,
  charsPerLine: number,
  limit = Number.POSITIVE_INFINITY,
): number {
  let lines = 0;
  let inFence = false;
  let start = 0;
  while (start <= text.length && lines <= limit) {
    let end = text.indexOf("\n", start);
    if (end === -1) end = text.length;
    const line = text.slice(start, Math.min(end, start + 16));
    if (FENCE.test(line)) {
      inFence = !inFence;
      lines += 1;
    } else if (inFence) {
      lines += 1;
    } else if (end > start && text.slice(start, end).trim() !== "") {
      lines += Math.ceil((end - start) / charsPerLine);
    }
    start = end + 1;
  }
  return lines;
}

/** True when a message of this role and text folds (before the reader unfolds it). */
export function isLongMessage(role: "user" | "assistant", text: string): boolean {
  return estimateRenderedLines(text, CHARS_PER_LINE[role], FOLD_AFTER_LINES) > FOLD_AFTER_LINES;
}

const unfolded = new Set<string>();
const foldsChanged = createSignal();

function notify(): void {
  foldsChanged.notify();
}

/** True when the reader (or navigation) has unfolded this message. */
export function isMessageUnfolded(messageId: string): boolean {
  return unfolded.has(messageId);
}

/**
 * Unfolds a long message wherever it is shown, now or once its row mounts. Citation navigation
 * calls this as soon as it has found the source message, so the cited words are never clipped.
 */
export function unfoldMessage(messageId: string): void {
  if (unfolded.has(messageId)) return;
  unfolded.add(messageId);
  notify();
}

/** Folds a long message again ("Show less"). */
export function foldMessage(messageId: string): void {
  if (!unfolded.delete(messageId)) return;
  notify();
}

/**
 * Keeps a message that was shown streaming unfolded once it completes, without notifying: the
 * reader watched it grow, and folding it at completion would pull the rows below it up. Safe to
 * call while rendering (idempotent, nothing re-renders).
 */
export function keepStreamedMessageUnfolded(messageId: string): void {
  unfolded.add(messageId);
}

/** Subscribes to fold changes (for `useSyncExternalStore`). */
export function subscribeMessageFolds(listener: () => void): () => void {
  return foldsChanged.subscribe(listener);
}

/** Forgets every unfolded message (tests). */
export function resetMessageFolds(): void {
  unfolded.clear();
  notify();
}
