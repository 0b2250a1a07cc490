/**
 * "Cited N×" (issue 24, DESIGN.md section 6): shown among an answer's actions when later
 * messages cite it. Its accessible name is "Cited in N message(s)". Activating it opens a
 * labelled dialog listing the citing messages (`GET .../cited-by`): the comment (or the quote),
 * the thread's title when it is another thread, and how long ago. Focus moves into the dialog
 * and returns to the button on Escape or close.
 *
 * Not built yet: jumping from an entry to the citing message's chip (the one-request jump with
 * "Back to where you were"); an entry of another thread links to that thread.
 */
import type { CitedBy, CitingMessage } from "@app/protocol";
import { useEffect, useId, useRef, useState } from "react";
import { getCitedBy } from "../api/client.ts";

/** The control's accessible name. */
export function citedByLabel(count: number): string {
  return `Cited in ${count} ${count === 1 ? "message" : "messages"}`;
}

/** "just now", "5 min ago", "3 h ago", "2 d ago". */
export function timeAgo(iso: string, now = Date.now()): string {
  const seconds = Math.max(0, Math.round((now - Date.parse(iso)) / 1000));
  if (!Number.isFinite(seconds) || seconds < 60) return "just now";
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.round(minutes / 60);
  if (hours < 48) return `${hours} h ago`;
  return `${Math.round(hours / 24)} d ago`;
}

/** The path of another thread of this environment (the current route is `/<env>/<thread>`). */
function threadPath(threadId: string): string {
  const environment = window.location.pathname.split("/")[1] ?? "";
  return `/${environment}/${encodeURIComponent(threadId)}`;
}

export function CitedByControl({
  threadId,
  messageId,
  citedBy,
}: {
  threadId: string;
  messageId: string;
  citedBy: CitedBy;
}) {
  const [open, setOpen] = useState(false);
  const [entries, setEntries] = useState<CitingMessage[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const dialogRef = useRef<HTMLDivElement>(null);
  const titleId = useId();
  const count = citedBy.count;

  // biome-ignore lint/correctness/useExhaustiveDependencies: a new count (message.cited) refreshes an open list.
  useEffect(() => {
    if (!open) return;
    const controller = new AbortController();
    setError(null);
    getCitedBy(threadId, messageId, { limit: 200 }, controller.signal).then(
      (page) => setEntries(page.citations),
      (cause: unknown) => {
        if (controller.signal.aborted) return;
        setError(cause instanceof Error ? cause.message : "Could not load the citing messages.");
      },
    );
    return () => controller.abort();
  }, [open, threadId, messageId, count]);

  useEffect(() => {
    if (open) dialogRef.current?.focus();
  }, [open]);

  const close = () => {
    setOpen(false);
    buttonRef.current?.focus();
  };

  return (
    <span className="cited-by">
      <button
        ref={buttonRef}
        type="button"
        className="cited-by__button"
        aria-label={citedByLabel(count)}
        aria-haspopup="dialog"
        aria-expanded={open}
        onClick={() => (open ? close() : setOpen(true))}
      >
        Cited {count}×
      </button>
      {open ? (
        <div
          ref={dialogRef}
          role="dialog"
          aria-labelledby={titleId}
          tabIndex={-1}
          className="cited-by__dialog"
          onKeyDown={(event) => {
            if (event.key !== "Escape") return;
            event.stopPropagation();
            close();
          }}
        >
          <div className="cited-by__title" id={titleId}>
            {citedByLabel(count)}
          </div>
          {error !== null ? (
            <p role="status">{error}</p>
          ) : entries === null ? (
            <p role="status">Loading…</p>
          ) : (
            <ul className="cited-by__entries">
              {entries.map((entry) => (
                <li
                  key={JSON.stringify([entry.messageId, entry.quote, entry.comment])}
                  className="cited-by__entry"
                >
                  <span className="cited-by__text">{entry.comment ?? `“${entry.quote.text}”`}</span>
                  <span className="cited-by__meta">
                    {entry.threadTitle !== null ? (
                      <a href={threadPath(entry.threadId)}>{entry.threadTitle}</a>
                    ) : null}
                    <time dateTime={entry.createdAt}>{timeAgo(entry.createdAt)}</time>
                  </span>
                </li>
              ))}
            </ul>
          )}
          <button type="button" className="cited-by__close" onClick={close}>
            Close
          </button>
        </div>
      ) : null}
    </span>
  );
}
