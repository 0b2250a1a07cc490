/**
 * The find bar's searching, as a hook over `findState.ts`: typing settles (150 ms) into a
 * search, the first page of matches and then every further page are fetched in the background
 * (the reducer says which page it wants: `pageToFetch`), a newer search aborts an older request,
 * and a message completing while the bar is open searches again (`refresh`).
 */
import { type ActionDispatch, useEffect, useRef } from "react";
import { searchThread } from "../api/client.ts";
import type { FindOrigin } from "./findOrigin.ts";
import { type FindAction, type FindState, pageToFetch } from "./findState.ts";

/** Typing settles this long before a search starts. */
export const FIND_DEBOUNCE_MS = 150;
/** Matches per page asked of the server. */
const PAGE_LIMIT = 200;

/** Options of {@link useFindSearch}. */
export type UseFindSearchOptions = {
  threadId: string;
  /** The bar is open (closed, nothing is fetched). */
  open: boolean;
  /** What is typed in the textbox. */
  input: string;
  /** Changes when a message completes (findThread.ts `liveKeyOf`). */
  liveKey: string;
  find: FindState;
  dispatch: ActionDispatch<[action: FindAction]>;
  /** The view as a search starts (find starts at the match nearest it). */
  originOf(): FindOrigin | null;
};

/** See the module doc. */
export function useFindSearch({
  threadId,
  open,
  input,
  liveKey,
  find,
  dispatch,
  originOf,
}: UseFindSearchOptions): void {
  const latestFind = useRef(find);
  latestFind.current = find;
  const latestOriginOf = useRef(originOf);
  latestOriginOf.current = originOf;

  // Typing settles into a search; an empty box clears at once.
  useEffect(() => {
    if (!open) return;
    const timer = setTimeout(
      () => {
        // Only a new query reads the view (the same query again changes nothing).
        const state = latestFind.current;
        const fresh = input !== state.query || state.phase === "idle";
        dispatch({
          type: "query",
          query: input,
          ...(fresh ? { origin: latestOriginOf.current() } : {}),
        });
      },
      input === "" ? 0 : FIND_DEBOUNCE_MS,
    );
    return () => clearTimeout(timer);
  }, [open, input, dispatch]);

  // Pages: the first one, then the rest in the background.
  const wanted = open ? pageToFetch(find) : null;
  const wantedKey = wanted === null ? null : `${wanted.searchId}\u0000${wanted.cursor ?? ""}`;
  // biome-ignore lint/correctness/useExhaustiveDependencies: the key names the page; the query is read from `latestFind`.
  useEffect(() => {
    if (wanted === null) return;
    const { query, options: searchOptions } = latestFind.current;
    const controller = new AbortController();
    searchThread(
      threadId,
      {
        q: query,
        limit: PAGE_LIMIT,
        matchCase: searchOptions.matchCase,
        wholeWords: searchOptions.wholeWords,
        ...(wanted.cursor === undefined ? {} : { cursor: wanted.cursor }),
      },
      controller.signal,
    )
      .then((page) =>
        dispatch({
          type: "page",
          searchId: wanted.searchId,
          matches: page.matches,
          nextCursor: page.nextCursor,
        }),
      )
      .catch((error: unknown) => {
        if (error instanceof DOMException && error.name === "AbortError") return;
        const message = error instanceof Error ? error.message : String(error);
        dispatch({ type: "failed", searchId: wanted.searchId, message });
      });
    return () => controller.abort();
  }, [threadId, wantedKey, dispatch]);

  // A message completed while the bar is open: search again (its matches join the count).
  const seenLiveKey = useRef(liveKey);
  useEffect(() => {
    if (seenLiveKey.current === liveKey) return;
    seenLiveKey.current = liveKey;
    if (open) dispatch({ type: "refresh" });
  }, [liveKey, open, dispatch]);
}
