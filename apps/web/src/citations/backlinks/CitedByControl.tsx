/**
 * "Cited N×" (issue 24, DESIGN.md section 6): shown among an answer's actions when later
 * messages cite it. Its accessible name is "Cited in N message(s)". Activating it opens a
 * labelled dialog listing the citing messages (`GET .../cited-by`): the comment (or the quote),
 * the thread's title when it is another thread, and how long ago. Focus moves into the dialog
 * and returns to the button on Escape or close. Clicking a backlink mark of the answer opens it
 * too, and the answer is described as "cited in N messages" for screen readers.
 *
 * Each entry is a link that jumps to the citing message and pulses its chip, through the same
 * navigation as a chip click (one `around=` request when not loaded; another thread of this
 * environment opens); "Back to where you were" returns to this button.
 */
import {
  type AssistantCitation,
  formatAssistantCitationHash,
  formatAssistantCitationHref,
} from "@app/citations";
import type { CitedBy, CitingMessage } from "@app/protocol";
import {
  type CSSProperties,
  type MouseEvent,
  useContext,
  useEffect,
  useId,
  useLayoutEffect,
  useRef,
  useState,
} from "react";
import { createPortal } from "react-dom";
import { getCitedBy } from "../../api/client.ts";
import { supportsHighlightApi } from "../../ui/highlightApi.ts";
import { wrapTabFocus } from "../../ui/wrapTabFocus.ts";
import {
  AssistantCitationNavigationContext,
  assistantCitationThreadPath,
  CITATION_RETURN_ATTRIBUTE,
} from "../navigation/assistantCitationNavigation.ts";
import { CitationHereContext } from "../navigation/citationScope.ts";
import { ASSISTANT_CITATION_CITED_HIGHLIGHT } from "./citedMarks.ts";

/** Room (px) the list wants below its button before it opens above instead. */
const POPOVER_ROOM = 260;

/** Where the list sits (fixed) for a button at `rect`: below it, or above when room is short. */
function popoverPlace(box: DOMRect): CSSProperties {
  const height = window.innerHeight;
  // A button scrolled out of view holds the list at the nearest edge.
  const rect = {
    left: box.left,
    top: Math.min(Math.max(box.top, 0), height),
    bottom: Math.min(Math.max(box.bottom, 0), height),
  };
  const left = Math.max(8, Math.min(rect.left, window.innerWidth - 360));
  const below = height - rect.bottom;
  return below >= POPOVER_ROOM || below >= rect.top
    ? { position: "fixed", left, top: rect.bottom + 4, maxHeight: below - 12 }
    : {
        position: "fixed",
        left,
        bottom: window.innerHeight - rect.top + 4,
        maxHeight: rect.top - 12,
      };
}

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

/** The id of the hidden description of an answer's backlinks (`aria-describedby`). */
export function citedByDescriptionId(messageId: string): string {
  return `cited-by-${messageId}`;
}

/** The citation an entry holds (what its chip in the citing message links to). */
function entryCitation(
  entry: CitingMessage,
  source: { environmentId: string; threadId: string; messageId: string },
): AssistantCitation {
  const { text, start, end, prefix, suffix } = entry.quote;
  return { version: 1, ...source, text, start, end, prefix, suffix };
}

/** The link of an entry: the citing thread, with the hash of the citation its chip holds. */
function entryHref(citation: AssistantCitation, threadId: string): string {
  const path = assistantCitationThreadPath({ environmentId: citation.environmentId, threadId });
  return `${path}${formatAssistantCitationHash(formatAssistantCitationHref(citation))}`;
}

/** The text position under a point (client coordinates), or null. */
function caretAt(x: number, y: number): { node: Node; offset: number } | null {
  if (typeof document.caretPositionFromPoint === "function") {
    const caret = document.caretPositionFromPoint(x, y);
    return caret ? { node: caret.offsetNode, offset: caret.offset } : null;
  }
  const range = document.caretRangeFromPoint?.(x, y);
  return range ? { node: range.startContainer, offset: range.startOffset } : null;
}

/** True when the point (client coordinates) lies in one of `body`'s backlink marks. */
function isOnCitedMark(body: Element, x: number, y: number): boolean {
  if (!supportsHighlightApi()) return false;
  const marks = CSS.highlights.get(ASSISTANT_CITATION_CITED_HIGHLIGHT);
  const caret = caretAt(x, y);
  if (!marks || !caret || !body.contains(caret.node)) return false;
  for (const mark of marks) {
    if (mark instanceof Range && mark.isPointInRange(caret.node, caret.offset)) return true;
  }
  return false;
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
  const navigate = useContext(AssistantCitationNavigationContext);
  const here = useContext(CitationHereContext);
  const environmentId = here?.environmentId ?? window.location.pathname.split("/")[1] ?? "";
  const source = { environmentId, threadId, messageId };

  // Clicking a mark (not selecting text) in this answer opens the list.
  useEffect(() => {
    const body = buttonRef.current
      ?.closest("[data-message-id]")
      ?.querySelector("[data-assistant-citation-source]");
    if (!body) return;
    const onClick = (event: Event) => {
      const { clientX, clientY } = event as globalThis.MouseEvent;
      if (document.getSelection()?.isCollapsed === false) return;
      if (isOnCitedMark(body, clientX, clientY)) setOpen(true);
    };
    body.addEventListener("click", onClick);
    return () => body.removeEventListener("click", onClick);
  }, []);

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

  // The list is a fixed popover portalled to the body (timeline rows are stacking contexts that
  // would cover it), placed under the button, or above it when there is no room below. It
  // follows the button as the timeline scrolls (a streaming reply may move it), kept on screen.
  const [place, setPlace] = useState<CSSProperties>({});
  useLayoutEffect(() => {
    if (!open) return;
    const measure = () => {
      const rect = buttonRef.current?.getBoundingClientRect();
      if (rect) setPlace(popoverPlace(rect));
    };
    measure();
    const onScroll = (event: Event) => {
      if (event.target instanceof Node && dialogRef.current?.contains(event.target)) return;
      measure();
    };
    window.addEventListener("scroll", onScroll, { capture: true, passive: true });
    window.addEventListener("resize", measure);
    return () => {
      window.removeEventListener("scroll", onScroll, { capture: true });
      window.removeEventListener("resize", measure);
    };
  }, [open]);
  useEffect(() => {
    if (open) dialogRef.current?.focus({ preventScroll: true });
  }, [open]);

  // A press anywhere else (outside the list and its button) closes the list, which would
  // otherwise stay over the citing message or the composer. Focus stays where that press put it
  // (the composer, a message): only Escape and Close hand it back to the button.
  useEffect(() => {
    if (!open) return;
    const onPointerDown = (event: PointerEvent) => {
      const target = event.target;
      if (!(target instanceof Node)) return;
      if (dialogRef.current?.contains(target) || buttonRef.current?.contains(target)) return;
      setOpen(false);
    };
    document.addEventListener("pointerdown", onPointerDown, true);
    return () => document.removeEventListener("pointerdown", onPointerDown, true);
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
        {...{ [CITATION_RETURN_ATTRIBUTE]: `cited-by:${messageId}` }}
        aria-haspopup="dialog"
        aria-expanded={open}
        onClick={() => (open ? close() : setOpen(true))}
      >
        Cited {count}×
      </button>
      {/* The answer's description (aria-describedby on its article). */}
      <span id={citedByDescriptionId(messageId)} hidden>
        {citedByLabel(count).replace(/^C/, "c")}
      </span>
      {open
        ? createPortal(
            <div
              ref={dialogRef}
              style={place}
              role="dialog"
              aria-labelledby={titleId}
              tabIndex={-1}
              className="cited-by__dialog"
              onKeyDown={(event) => {
                if (event.key === "Escape") {
                  event.stopPropagation();
                  close();
                  return;
                }
                // Like the app's other dialogs, focus stays inside: Tab wraps around the list's
                // links and Close (the list is portalled to the end of <body>, so Tab past
                // Close would otherwise leave it for <body>).
                wrapTabFocus(event, event.currentTarget, "a[href], button:not([disabled])");
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
                  {entries.map((entry) => {
                    const citation = entryCitation(entry, source);
                    const jump = (event: MouseEvent<HTMLAnchorElement>) => {
                      if (!navigate || event.button !== 0 || event.metaKey || event.ctrlKey) return;
                      event.preventDefault();
                      const origin = buttonRef.current ?? undefined;
                      setOpen(false);
                      navigate(citation, origin, {
                        threadId: entry.threadId,
                        messageId: entry.messageId,
                      });
                    };
                    return (
                      <li
                        key={JSON.stringify([entry.messageId, entry.quote, entry.comment])}
                        className="cited-by__entry"
                      >
                        <a
                          className="cited-by__jump"
                          href={entryHref(citation, entry.threadId)}
                          onClick={jump}
                        >
                          <span className="cited-by__text">
                            {entry.comment ?? `“${entry.quote.text}”`}
                          </span>
                          <span className="cited-by__meta">
                            {entry.threadTitle !== null ? (
                              <span className="cited-by__thread">{entry.threadTitle}</span>
                            ) : null}
                            <time dateTime={entry.createdAt}>{timeAgo(entry.createdAt)}</time>
                          </span>
                        </a>
                      </li>
                    );
                  })}
                </ul>
              )}
              <button type="button" className="button cited-by__close" onClick={close}>
                Close
              </button>
            </div>,
            document.body,
          )
        : null}
    </span>
  );
}
