/**
 * The find bar's state, as a pure reducer: the query and options, the pages of matches the
 * search endpoint returned (flattened to one match per range, in thread order), the current
 * match, stepping with wrap-around, and the count text ("3 of 17", "3 of 17+" while more pages
 * exist). No React, no DOM, no I/O: the hook (`useThreadFind.ts`) fetches what
 * {@link pageToFetch} asks for and dispatches the answers.
 *
 * Rules:
 * - Every new search (query, options, or a refresh after a message completed) gets a new
 *   `searchId`; pages of an older search are ignored, so a slow answer never overwrites a newer one.
 * - A search starts at the match nearest the view it was started from (`findOrigin.ts`): the
 *   first page that settles it makes that match current (until then the count says
 *   "Searching…"); without an origin, the first match. Later pages are appended in the background.
 * - Next on the last loaded match while more pages exist waits for the next page (the step is
 *   applied when it lands) instead of wrapping; Previous on the first match waits for the last
 *   page. With every page loaded, both wrap.
 * - A refresh keeps showing the old matches and count until the new search has every page,
 *   then swaps them in at once and keeps the same match current when it is still there.
 */
import type { ThreadSearchMatch } from "@app/protocol";
import { type FindOrigin, startIndex } from "./findOrigin.ts";
import { DEFAULT_FIND_OPTIONS, type FindOptions } from "./textMatches.ts";

/** One match: a range of one message's rendered-text stream. */
export type FindMatch = {
  messageId: string;
  role: "user" | "assistant";
  start: number;
  end: number;
  /** Its index among the message's ranges (for the fallback: the n-th occurrence). */
  occurrence: number;
};

/** Matches gathered by one search. */
type Gathered = {
  matches: readonly FindMatch[];
  /** Cursor of the next page; null once every page is in. */
  nextCursor: string | null;
  /** False until the first page arrived. */
  received: boolean;
};

/** See the module doc. */
export type FindState = {
  query: string;
  options: FindOptions;
  searchId: number;
  phase: "idle" | "searching" | "ready" | "failed";
  matches: readonly FindMatch[];
  nextCursor: string | null;
  /** Index into `matches`, or -1. */
  current: number;
  /**
   * A step waiting for more pages: "next" (past the last loaded), "last" (wrap backwards) or
   * "nearest" (the start, until the pages settle which match is nearest the view).
   */
  pendingStep: "next" | "last" | "nearest" | null;
  /** The view the search started from (null: start at the first match). */
  origin: FindOrigin | null;
  /** A refresh in progress: its pages, swapped in once complete. */
  staged: Gathered | null;
  error: string | null;
};

/** Everything that changes a {@link FindState}. */
export type FindAction =
  | { type: "query"; query: string; origin?: FindOrigin | null }
  | { type: "options"; options: FindOptions; origin?: FindOrigin | null }
  /** Search again with the same query (a message completed). */
  | { type: "refresh" }
  | {
      type: "page";
      searchId: number;
      matches: readonly ThreadSearchMatch[];
      nextCursor: string | null;
    }
  | { type: "failed"; searchId: number; message: string }
  | { type: "next" }
  | { type: "previous" }
  /** Makes the match at `index` current (a click on a highlighted match). */
  | { type: "select"; index: number }
  /** The bar closed: forget the matches, keep the query and options for the next opening. */
  | { type: "close" }
  /**
   * Opened at a known match (a result of search all threads): it is current at once, and every
   * page of the query is fetched behind it (kept current once they are in).
   */
  | { type: "seed"; query: string; options: FindOptions; match: FindMatch };

/** The state of a closed bar. */
export function createFindState(options: FindOptions = DEFAULT_FIND_OPTIONS): FindState {
  return {
    query: "",
    options,
    searchId: 0,
    phase: "idle",
    matches: [],
    nextCursor: null,
    current: -1,
    pendingStep: null,
    origin: null,
    staged: null,
    error: null,
  };
}

/** Flattens a page of the endpoint's answer into matches, one per range. */
export function flattenMatches(page: readonly ThreadSearchMatch[]): FindMatch[] {
  const flat: FindMatch[] = [];
  for (const message of page) {
    message.ranges.forEach(([start, end], occurrence) => {
      flat.push({ messageId: message.messageId, role: message.role, start, end, occurrence });
    });
  }
  return flat;
}

/** True when two matches name the same range of the same message. */
export function sameMatch(a: FindMatch, b: FindMatch): boolean {
  return a.messageId === b.messageId && a.start === b.start && a.end === b.end;
}

function startSearch(
  state: FindState,
  query: string,
  options: FindOptions,
  origin: FindOrigin | null = null,
): FindState {
  return {
    ...createFindState(options),
    query,
    searchId: state.searchId + 1,
    phase: query === "" ? "idle" : "searching",
    origin,
  };
}

/** Applies a step that waited for pages, once they allow it. */
function settlePendingStep(state: FindState): FindState {
  if (state.pendingStep === "nearest") {
    const start = startIndex(state.matches, state.origin, state.nextCursor === null);
    return start === null ? state : { ...state, pendingStep: null, current: start };
  }
  if (state.pendingStep === "last" && state.nextCursor === null) {
    return { ...state, pendingStep: null, current: state.matches.length - 1 };
  }
  if (state.pendingStep === "next" && state.current < state.matches.length - 1) {
    return { ...state, pendingStep: null, current: state.current + 1 };
  }
  if (state.pendingStep === "next" && state.nextCursor === null) {
    return { ...state, pendingStep: null, current: state.matches.length === 0 ? -1 : 0 };
  }
  return state;
}

function receivePage(state: FindState, action: Extract<FindAction, { type: "page" }>): FindState {
  const flat = flattenMatches(action.matches);
  if (state.staged !== null) {
    const staged: Gathered = {
      matches: [...state.staged.matches, ...flat],
      nextCursor: action.nextCursor,
      received: true,
    };
    if (staged.nextCursor !== null) return { ...state, staged };
    // Complete: swap in, keeping the same match current when it is still there.
    const before = state.matches[state.current];
    const kept = before ? staged.matches.findIndex((match) => sameMatch(match, before)) : -1;
    const current =
      staged.matches.length === 0
        ? -1
        : kept !== -1
          ? kept
          : state.current === -1
            ? (startIndex(staged.matches, state.origin, true) ?? 0)
            : Math.min(state.current, staged.matches.length - 1);
    return {
      ...state,
      phase: "ready",
      matches: staged.matches,
      nextCursor: null,
      current,
      pendingStep: null,
      staged: null,
      error: null,
    };
  }
  // Every page is in: nothing was asked for.
  if (state.phase === "ready" && state.nextCursor === null) return state;
  const matches = [...state.matches, ...flat];
  // The start waits for the match nearest the view (a first page may also be empty).
  const starting = state.current === -1 && state.pendingStep === null && matches.length > 0;
  return settlePendingStep({
    ...state,
    phase: "ready",
    matches,
    nextCursor: action.nextCursor,
    pendingStep: starting ? "nearest" : state.pendingStep,
    error: null,
  });
}

/** The find bar's reducer (see the module doc). */
export function findReducer(state: FindState, action: FindAction): FindState {
  switch (action.type) {
    case "query":
      return action.query === state.query && state.phase !== "idle"
        ? state
        : startSearch(state, action.query, state.options, action.origin ?? null);
    case "options":
      return action.options.matchCase === state.options.matchCase &&
        action.options.wholeWords === state.options.wholeWords
        ? state
        : startSearch(state, state.query, action.options, action.origin ?? null);
    case "refresh":
      if (state.query === "" || state.phase === "idle") return state;
      if (state.phase !== "ready") return startSearch(state, state.query, state.options);
      return {
        ...state,
        searchId: state.searchId + 1,
        staged: { matches: [], nextCursor: null, received: false },
      };
    case "page":
      // A closed bar (idle) or a failed search takes no pages, and no search takes another's.
      return action.searchId === state.searchId &&
        (state.phase === "searching" || state.phase === "ready")
        ? receivePage(state, action)
        : state;
    case "failed":
      if (action.searchId !== state.searchId) return state;
      // A failed refresh keeps what was found before.
      if (state.staged !== null) return { ...state, staged: null };
      return {
        ...state,
        phase: "failed",
        nextCursor: null,
        pendingStep: null,
        error: action.message,
      };
    case "next": {
      const count = state.matches.length;
      if (count === 0) return state;
      if (state.current < count - 1)
        return { ...state, current: state.current + 1, pendingStep: null };
      if (state.nextCursor !== null) return { ...state, pendingStep: "next" };
      return { ...state, current: 0, pendingStep: null };
    }
    case "previous": {
      const count = state.matches.length;
      if (count === 0) return state;
      if (state.current > 0) return { ...state, current: state.current - 1, pendingStep: null };
      if (state.nextCursor !== null) return { ...state, pendingStep: "last" };
      return { ...state, current: count - 1, pendingStep: null };
    }
    case "select":
      return action.index >= 0 && action.index < state.matches.length
        ? { ...state, current: action.index, pendingStep: null }
        : state;
    case "seed":
      return {
        ...startSearch(state, action.query, action.options),
        phase: "ready",
        matches: [action.match],
        current: 0,
        staged: { matches: [], nextCursor: null, received: false },
      };
    case "close":
      return {
        ...createFindState(state.options),
        query: state.query,
        searchId: state.searchId + 1,
      };
  }
}

/** The page the hook should fetch now (`cursor` undefined: the first page), or null. */
export function pageToFetch(state: FindState): { searchId: number; cursor?: string } | null {
  if (state.query === "") return null;
  if (state.staged !== null) {
    if (!state.staged.received) return { searchId: state.searchId };
    return state.staged.nextCursor === null
      ? null
      : { searchId: state.searchId, cursor: state.staged.nextCursor };
  }
  if (state.phase === "searching") return { searchId: state.searchId };
  if (state.phase === "ready" && state.nextCursor !== null) {
    return { searchId: state.searchId, cursor: state.nextCursor };
  }
  return null;
}

/** The current match, or null. */
export function currentMatch(state: FindState): FindMatch | null {
  return state.matches[state.current] ?? null;
}

/** The live count: "", "Searching…", "No matches", "Search failed", "3 of 17" or "3 of 17+". */
export function countText(state: FindState): string {
  if (state.query === "" || state.phase === "idle") return "";
  if (state.phase === "searching") return "Searching…";
  if (state.phase === "failed") return "Search failed";
  const count = state.matches.length;
  if (count === 0) return "No matches";
  if (state.current === -1) return "Searching…";
  const more = state.nextCursor !== null ? "+" : "";
  return `${state.current + 1} of ${count}${more}`;
}
