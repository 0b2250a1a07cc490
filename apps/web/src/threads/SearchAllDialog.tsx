/**
 * Search all threads (issue 31): a modal dialog with the textbox **Search all threads**, results
 * as you type (grouped by thread, newest first, each a snippet with the match highlighted), the
 * arrow keys moving through them. Enter (or a click) opens the thread at that match through the
 * thread's find bar (`find/findRequest.ts`: one `around=` request, `thread-find-current`, a
 * fold opened), and **Cite** inserts a chip quoting exactly the matched words into the composer
 * on screen. **Match case** and **Whole words** behave as in the find bar (and carry over to it).
 * A 1-2 character query reads only the newest messages; the dialog says so and offers to search
 * further. Tab and Shift+Tab stay inside the dialog (it is modal).
 */
import type { AllThreadsSearchResponse } from "@app/protocol";
import { useNavigate } from "@tanstack/react-router";
import { type KeyboardEvent, useEffect, useId, useMemo, useRef, useState } from "react";
import { searchAllThreads } from "../api/client.ts";
import { activeComposer } from "../composer/activeComposer.ts";
import { FindOptionSwitches } from "../find/FindOptionSwitches.tsx";
import { requestFindAt } from "../find/findRequest.ts";
import { DEFAULT_FIND_OPTIONS, type FindOptions } from "../find/textMatches.ts";
import { wrapTabFocus } from "../ui/wrapTabFocus.ts";
import { flattenSearchPages, type SearchResult, snippetPieces } from "./searchResults.ts";

/** Typing settles this long before a search. */
const SEARCH_DEBOUNCE_MS = 150;

export type SearchAllDialogProps = {
  initialQuery: string;
  /** `restoreFocus: false` when the caller puts focus somewhere itself (Cite: the composer). */
  onClose(options?: { restoreFocus: boolean }): void;
};

export function SearchAllDialog({ initialQuery, onClose }: SearchAllDialogProps) {
  const navigate = useNavigate();
  const [input, setInput] = useState(initialQuery);
  const [pages, setPages] = useState<AllThreadsSearchResponse[]>([]);
  const [status, setStatus] = useState<"idle" | "searching" | "ready" | "error">("idle");
  const [error, setError] = useState<string | null>(null);
  const [active, setActive] = useState(0);
  const [more, setMore] = useState(0);
  const [options, setOptions] = useState<FindOptions>(DEFAULT_FIND_OPTIONS);
  const inputRef = useRef<HTMLInputElement>(null);
  const dialogRef = useRef<HTMLDivElement>(null);
  const listId = `search-all-${useId().replace(/[^a-zA-Z0-9_-]/g, "")}`;

  useEffect(() => {
    inputRef.current?.focus();
    inputRef.current?.setSelectionRange(initialQuery.length, initialQuery.length);
  }, [initialQuery]);

  // Results as you type; a newer query aborts the older request.
  useEffect(() => {
    const query = input;
    if (query.trim() === "") {
      setPages([]);
      setStatus("idle");
      return;
    }
    const controller = new AbortController();
    const timer = setTimeout(() => {
      setStatus("searching");
      searchAllThreads({ q: query, ...options }, controller.signal).then(
        (page) => {
          setPages([page]);
          setActive(0);
          setStatus("ready");
          setError(null);
        },
        (cause: unknown) => {
          if (cause instanceof DOMException && cause.name === "AbortError") return;
          setError(cause instanceof Error ? cause.message : String(cause));
          setStatus("error");
        },
      );
    }, SEARCH_DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [input, options]);

  // "More results" / "Search further": the next page.
  const last = pages.at(-1);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `more` is the trigger; the cursor is read from the last page.
  useEffect(() => {
    if (more === 0 || !last?.nextCursor) return;
    const controller = new AbortController();
    searchAllThreads({ q: input, cursor: last.nextCursor, ...options }, controller.signal).then(
      (page) => setPages((before) => [...before, page]),
      () => {},
    );
    return () => controller.abort();
  }, [more]);

  const results = useMemo(() => flattenSearchPages(pages), [pages]);
  const limited = last?.limited ?? null;

  const open = (result: SearchResult) => {
    const [range] = result.match.ranges;
    if (!range) return;
    requestFindAt({
      threadId: result.thread.id,
      query: input,
      options,
      match: {
        messageId: result.match.messageId,
        role: result.match.role,
        start: range[0],
        end: range[1],
        occurrence: 0,
      },
    });
    onClose();
    void navigate({
      to: "/$environmentId/$threadId",
      params: { environmentId: result.thread.environmentId, threadId: result.thread.id },
    });
  };

  const cite = (result: SearchResult) => {
    const quote = result.match.quote;
    const composer = activeComposer();
    if (quote === null || composer === null) return;
    // Focus goes to the composer, not back to the dialog's opener (which would override it).
    onClose({ restoreFocus: false });
    // The cited words are not on screen to comment beside: the chip goes in and focus stays in
    // the composer right after it, so the reader types on.
    composer.insertCitation(
      {
        version: 1,
        environmentId: result.thread.environmentId,
        threadId: result.thread.id,
        messageId: result.match.messageId,
        ...quote,
      },
      { openCommentEditor: false },
    );
  };

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === "Tab") {
      // Modal: focus cycles through the dialog's own controls.
      wrapTabFocus(event, dialogRef.current, "input, button:not([disabled])");
    } else if (event.key === "Escape") {
      event.preventDefault();
      onClose();
    } else if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      if (results.length === 0) return;
      event.preventDefault();
      const step = event.key === "ArrowDown" ? 1 : -1;
      setActive((index) => (index + step + results.length) % results.length);
    } else if (event.key === "Enter" && event.target === inputRef.current) {
      const result = results[active];
      if (result) {
        event.preventDefault();
        open(result);
      }
    }
  };

  useEffect(() => {
    document.getElementById(`${listId}-${active}`)?.scrollIntoView({ block: "nearest" });
  }, [active, listId]);

  const activeId = results[active] ? `${listId}-${active}` : undefined;
  let previousThread: string | null = null;
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: a click on the backdrop closes the dialog.
    // biome-ignore lint/a11y/useKeyWithClickEvents: Escape closes it (the dialog's own keys).
    <div className="search-all__backdrop" onClick={() => onClose()}>
      <div
        ref={dialogRef}
        className="search-all"
        role="dialog"
        aria-modal="true"
        aria-label="Search all threads"
        onKeyDown={onKeyDown}
        onClick={(event) => event.stopPropagation()}
      >
        <input
          ref={inputRef}
          type="text"
          className="search-all__input"
          aria-label="Search all threads"
          placeholder="Search all threads"
          value={input}
          onChange={(event) => setInput(event.target.value)}
          aria-controls={listId}
          aria-activedescendant={activeId}
          autoComplete="off"
          spellCheck={false}
        />
        <div className="search-all__options">
          <FindOptionSwitches options={options} onChange={setOptions} block="search-all" />
        </div>
        <p className="search-all__status" role="status">
          {status === "searching"
            ? "Searching…"
            : status === "error"
              ? `Search failed: ${error ?? ""}`
              : status === "ready"
                ? results.length === 0
                  ? "No matches."
                  : `${results.length}${last?.nextCursor ? "+" : ""} ${results.length === 1 ? "match" : "matches"}`
                : ""}
          {limited
            ? ` Only the newest ${limited.scannedMessages.toLocaleString()} messages were searched: type 3 or more characters to search everything.`
            : ""}
        </p>
        <ul id={listId} className="search-all__results" aria-label="Results">
          {results.map((result, index) => {
            const heading = result.thread.id !== previousThread ? result.thread.title : null;
            previousThread = result.thread.id;
            const canCite = result.match.quote !== null;
            return (
              <li key={result.key} className="search-all__result-row" data-search-result>
                {heading !== null ? (
                  <span className="search-all__thread" data-search-thread={result.thread.id}>
                    {heading}
                  </span>
                ) : null}
                <div className="search-all__result">
                  <button
                    type="button"
                    id={`${listId}-${index}`}
                    className={index === active ? "search-all__open is-active" : "search-all__open"}
                    aria-current={index === active ? "true" : undefined}
                    onClick={() => open(result)}
                    onMouseEnter={() => setActive(index)}
                  >
                    <span className="search-all__speaker">
                      {result.match.role === "assistant" ? "Assistant" : "You"}:{" "}
                    </span>
                    {snippetPieces(result.match.snippet).map((piece, i) =>
                      piece.matched ? (
                        // biome-ignore lint/suspicious/noArrayIndexKey: pieces of one fixed snippet.
                        <mark key={i}>{piece.text}</mark>
                      ) : (
                        // biome-ignore lint/suspicious/noArrayIndexKey: pieces of one fixed snippet.
                        <span key={i}>{piece.text}</span>
                      ),
                    )}
                  </button>
                  <button
                    type="button"
                    className="button search-all__cite"
                    aria-disabled={canCite ? undefined : "true"}
                    title={
                      canCite
                        ? "Cite these words in the composer"
                        : "Your own messages cannot be cited"
                    }
                    onClick={() => {
                      if (canCite) cite(result);
                    }}
                  >
                    Cite
                  </button>
                </div>
              </li>
            );
          })}
        </ul>
        {last?.nextCursor ? (
          <button type="button" className="button" onClick={() => setMore((n) => n + 1)}>
            {limited ? "Search further" : "More results"}
          </button>
        ) : null}
      </div>
    </div>
  );
}
