/**
 * The find bar's React adapter: opens on Ctrl/Cmd+F inside a thread (a second Ctrl/Cmd+F while
 * the bar has focus is left to the browser's own find), debounces typing into searches, fetches
 * every page of matches in the background (`findState.ts` says which), jumps to the current
 * match (`findJump.ts`), keeps the highlights painted on whatever rows are mounted
 * (`useFindHighlights.ts`), searches again when a message completes while the bar is open, and cites
 * the current match through the selection toolbar's own path (`citeRangeRef`).
 */
import {
  type RefObject,
  useCallback,
  useEffect,
  useId,
  useMemo,
  useReducer,
  useRef,
  useState,
} from "react";
import type { CiteInput } from "../citations/selection/AssistantSelectionToolbar.tsx";
import { isCiteShortcut } from "../citations/selection/citeShortcut.ts";
import type { CiteRange } from "../citations/selection/useAssistantSelectionToolbar.tsx";
import type { TimelineHandle } from "../timeline/Timeline.tsx";
import { clearFindHighlights, describeMatchRow } from "./findHighlights.ts";
import { type FindJumpOutcome, jumpToMatch } from "./findJump.ts";
import { type FindOrigin, findOriginOf } from "./findOrigin.ts";
import { onFindRequest, takeFindRequest } from "./findRequest.ts";
import {
  countText,
  createFindState,
  currentMatch,
  type FindMatch,
  type FindState,
  findReducer,
} from "./findState.ts";
import { type FindThreadState, isFindShortcut, isLoadedIn, liveKeyOf } from "./findThread.ts";
import { locateMatch, messageBody } from "./matchRange.ts";
import type { FindOptions } from "./textMatches.ts";
import { useFindHighlights } from "./useFindHighlights.ts";
import { useFindSearch } from "./useFindSearch.ts";

/** What the hook needs from the thread view. */
export type UseThreadFindOptions = {
  threadId: string;
  /** The thread (`useThread`): its state and one `around=` request for a message. */
  thread: {
    state: FindThreadState;
    loadAround(messageId: string): Promise<{ status: "loaded" | "missing" | "failed" }>;
  };
  /** The timeline view (`useTimelineView`): starts a session placed at a message. */
  view: { showMessage(placement: { messageId: string; viewPosition: number }): void };
  timelineRef: RefObject<TimelineHandle | null>;
  /** The selection toolbar's "cite this range as if selected" (see useAssistantSelectionToolbar). */
  citeRangeRef: RefObject<CiteRange | null>;
};

/** Everything the bar component shows and does. */
export type ThreadFind = {
  open: boolean;
  /** Opens the bar (or focuses it) and selects the query. */
  show(): void;
  input: string;
  setInput(text: string): void;
  options: FindOptions;
  setOptions(options: FindOptions): void;
  count: string;
  /** Why the current match is not shown (gone, not loadable), or null. */
  notice: string | null;
  current: FindMatch | null;
  hasMatches: boolean;
  next(): void;
  previous(): void;
  /** Enter in the textbox: search now if typing has not settled yet, else the next match. */
  submit(backwards: boolean): void;
  close(): void;
  citeMatch(input: CiteInput): void;
  inputRef: RefObject<HTMLInputElement | null>;
  barRef: RefObject<HTMLElement | null>;
  /** The id of the hidden description of the current match. */
  descriptionId: string;
  /** The matched words of the current match, as shown (for its description). */
  matchedText: string | null;
};

const NOTICES: Record<Exclude<FindJumpOutcome["status"], "shown">, string> = {
  missing: "That message is no longer in this thread.",
  failed: "Could not load that part of the thread.",
  "not-shown": "Could not show that match.",
};

/** See the module doc. */
export function useThreadFind(options: UseThreadFindOptions): ThreadFind {
  const { threadId, timelineRef, citeRangeRef } = options;
  const [open, setOpen] = useState(false);
  const [input, setInput] = useState("");
  const [find, dispatch] = useReducer(findReducer, undefined, () => createFindState());
  const [steps, setSteps] = useState(0);
  const [notice, setNotice] = useState<string | null>(null);
  const [matchedText, setMatchedText] = useState<string | null>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const barRef = useRef<HTMLElement>(null);
  const returnFocus = useRef<Element | null>(null);
  const descriptionId = `thread-find-match-${useId().replace(/[^a-zA-Z0-9_-]/g, "")}`;
  const latest = useRef({ options, find, input });
  latest.current = { options, find, input };

  // The view as a search starts: the messages in view and the range of history they are in.
  const originOf = useCallback((): FindOrigin | null => {
    const scroller = timelineRef.current?.getScrollElement() ?? null;
    if (scroller === null) return null;
    const box = scroller.getBoundingClientRect();
    const inView: string[] = [];
    for (const row of scroller.querySelectorAll<HTMLElement>("[data-message-id]")) {
      const rect = row.getBoundingClientRect();
      if (rect.height > 0 && rect.bottom > box.top && rect.top < box.bottom) {
        inView.push(row.getAttribute("data-message-id") ?? "");
      }
    }
    const { ranges } = latest.current.options.thread.state;
    const range = ranges.find((candidate) => inView.some((id) => candidate.ids.includes(id)));
    return range === undefined ? null : findOriginOf(range, inView);
  }, [timelineRef]);

  useFindSearch({
    threadId,
    open,
    input,
    liveKey: liveKeyOf(options.thread.state),
    find,
    dispatch,
    originOf,
  });

  const match = open ? currentMatch(find) : null;
  const matchRef = useRef(match);
  matchRef.current = match;
  const findQuery = useMemo(
    () => ({ query: find.query, options: find.options }),
    [find.query, find.options],
  );
  const findQueryRef = useRef(findQuery);
  findQueryRef.current = findQuery;

  /** The current match's words on the page, if its row is mounted. */
  const locateCurrent = useCallback((): Range | null => {
    const current = matchRef.current;
    const scroller = timelineRef.current?.getScrollElement() ?? null;
    const body = current && scroller ? messageBody(scroller, current.messageId) : null;
    return body && current ? locateMatch(body, current, findQueryRef.current) : null;
  }, [timelineRef]);

  // Jump to the current match: each step jumps, even to the same match again.
  const matchKey = match === null ? null : `${match.messageId}:${match.start}:${match.end}`;
  // biome-ignore lint/correctness/useExhaustiveDependencies: the key and the step count are the triggers.
  useEffect(() => {
    const target = matchRef.current;
    if (target === null) return;
    setNotice(null);
    setMatchedText(null);
    const { thread, view } = latest.current.options;
    const jump = jumpToMatch(target, {
      isLoaded: (id) => isLoadedIn(latest.current.options.thread.state, id),
      loadAround: thread.loadAround,
      showMessage: view.showMessage,
      timeline: () => timelineRef.current,
      locate: () => locateCurrent(),
      isMounted: (id) => {
        const scroller = timelineRef.current?.getScrollElement() ?? null;
        return scroller !== null && messageBody(scroller, id) !== null;
      },
    });
    void jump.done.then((outcome) => {
      if (outcome === null) return;
      if (outcome.status === "shown") setMatchedText(outcome.range.toString());
      else setNotice(NOTICES[outcome.status]);
    });
    return () => jump.cancel();
  }, [matchKey, steps]);

  // Highlights follow the rows the timeline mounts, reuses and re-renders.
  useFindHighlights({
    open,
    matches: find.matches,
    current: match,
    find: findQuery,
    descriptionId,
    barRef,
    timelineRef,
  });

  const openBar = useCallback(() => {
    const active = document.activeElement;
    if (!barRef.current?.contains(active)) returnFocus.current = active;
    setOpen(true);
    // Focus (and select the last query) once the bar is mounted.
    requestAnimationFrame(() => {
      inputRef.current?.focus();
      inputRef.current?.select();
    });
  }, []);

  // Opened at a match from search all threads: now if this thread is open, else on mount.
  useEffect(() => {
    const take = () => {
      const request = takeFindRequest(threadId);
      if (request === null) return;
      setInput(request.query);
      dispatch({
        type: "seed",
        query: request.query,
        options: request.options,
        match: request.match,
      });
      setSteps((n) => n + 1);
      openBar();
    };
    take();
    return onFindRequest(take);
  }, [threadId, openBar]);

  const close = useCallback(() => {
    const current = matchRef.current;
    setOpen(false);
    dispatch({ type: "close" });
    setNotice(null);
    setMatchedText(null);
    clearFindHighlights();
    describeMatchRow(null, descriptionId);
    // Focus goes back where it was; never to <body>: else to the match's message.
    const back = returnFocus.current;
    returnFocus.current = null;
    if (back instanceof HTMLElement && back.isConnected && back !== document.body) {
      back.focus({ preventScroll: true });
      return;
    }
    const row = current
      ? document.querySelector<HTMLElement>(
          `[data-timeline] [data-message-id="${CSS.escape(current.messageId)}"]`,
        )
      : null;
    row?.focus({ preventScroll: true });
  }, [descriptionId]);

  const next = useCallback(() => {
    dispatch({ type: "next" });
    setSteps((n) => n + 1);
  }, []);
  const previous = useCallback(() => {
    dispatch({ type: "previous" });
    setSteps((n) => n + 1);
  }, []);
  const submit = useCallback(
    (backwards: boolean) => {
      const { find: state, input: typed } = latest.current;
      if (typed !== state.query || state.phase === "idle") {
        dispatch({ type: "query", query: typed, origin: originOf() });
        return;
      }
      if (backwards) previous();
      else next();
    },
    [next, previous, originOf],
  );
  const setOptions = useCallback(
    (options: FindOptions) => dispatch({ type: "options", options, origin: originOf() }),
    [originOf],
  );

  const citeMatch = useCallback(
    (how: CiteInput) => {
      const current = matchRef.current;
      if (current === null || current.role !== "assistant") return;
      const range = locateCurrent();
      if (range !== null) citeRangeRef.current?.(range, how);
      // Scrolled away from it: bring the match back first (cite it once it is shown).
      else setSteps((n) => n + 1);
    },
    [citeRangeRef, locateCurrent],
  );

  // Ctrl/Cmd+F opens (or focuses) the bar; again while the bar has focus, the browser's own
  // find takes it. Alt+Shift+Q cites the current match unless a selection took the shortcut.
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.isComposing) return;
      if (isFindShortcut(event)) {
        if (barRef.current?.contains(document.activeElement)) return;
        event.preventDefault();
        openBar();
        return;
      }
      if (isCiteShortcut(event) && matchRef.current !== null) {
        event.preventDefault();
        citeMatch("keyboard");
      }
    };
    document.addEventListener("keydown", onKeyDown);
    return () => document.removeEventListener("keydown", onKeyDown);
  }, [openBar, citeMatch]);

  // Leaving the thread view takes the paint with it.
  useEffect(
    () => () => {
      clearFindHighlights();
      describeMatchRow(null, descriptionId);
    },
    [descriptionId],
  );

  return {
    open,
    show: openBar,
    input,
    setInput,
    options: find.options,
    setOptions,
    count: countText(find),
    notice,
    current: match,
    hasMatches: find.matches.length > 0,
    next,
    previous,
    submit,
    close,
    citeMatch,
    inputRef,
    barRef,
    descriptionId,
    matchedText,
  };
}

export type { FindState, FindThreadState };
