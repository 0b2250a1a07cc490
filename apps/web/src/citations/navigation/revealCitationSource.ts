/**
 * The citation reveal controller (plain TypeScript, as selectionActions.ts is): once the source
 * row is mounted it resolves the quote's DOM range, asks the timeline to bring it into view,
 * focuses the source message and pulses only that text through the `assistant-citation`
 * highlight, on the activation's clock. Each step is its own function below: waiting for the
 * row, the pulse (with its range repair), and the late checks. Needs a live DOM.
 */
import type { AssistantCitation } from "@app/citations";
import { isLiveSourceRange } from "../../ui/liveSourceRange.ts";
import type { CitationHighlightClock } from "./citationHighlightClocks.ts";
import { citationHighlightDuration, citationHighlightOpacity } from "./citationHighlightTiming.ts";
import { createSourceHighlight, type SourceHighlight } from "./citationSourceHighlight.ts";
import { chipRange, findCitingChip, isLiveChipRange, messageRow } from "./citingChipTarget.ts";
import { keepRevealedInView, type RevealRangeRequest } from "./keepRevealedInView.ts";
import { NAVIGATION_WARNINGS } from "./navigationMachine.ts";
import { resolveAssistantCitationRange } from "./resolveAssistantCitationRange.ts";

/**
 * How long to wait for the source row to mount. The message is loaded by then, so running out
 * means it could not be shown (never that it is gone: only the server says that).
 */
const MOUNT_TIMEOUT_MS = 3000;

/** What the controller may ask of the timeline (a part of TimelineHandle). */
export type RevealTimeline = {
  getScrollElement(): HTMLElement | null;
  revealRange(range: Range, options: RevealRangeRequest): void;
};

/** Options of {@link revealCitationSource}. */
export type RevealCitationSourceOptions = {
  citation: AssistantCitation;
  clock: CitationHighlightClock;
  timeline: RevealTimeline;
  reducedMotion: boolean;
  /** Called once: the text is revealed (null) or cannot be (a warning). */
  onSettled(warning: string | null): void;
  /**
   * A backlink's jump (issue 24): reveal the chip of `citation` in this citing message (and
   * focus it) instead of the cited text.
   */
  chipMessageId?: string | undefined;
};

type Resolved = { status: "found"; range: Range } | { status: "missing" } | { status: "ambiguous" };

/** Where a reveal lands: the cited text in its answer, or a chip in its citing message. */
type JumpTarget = {
  /** The mounted element to resolve in, or null while it is not mounted. */
  find(): Element | null;
  resolve(element: Element): Resolved;
  /** The range still covers its target's text (rows are reused for other messages). */
  isLive(range: Range): boolean;
  focus(range: Range): void;
};

function jumpTarget(citation: AssistantCitation, chipMessageId: string | undefined): JumpTarget {
  if (chipMessageId === undefined) {
    return {
      find: () => sourceBody(citation.messageId),
      resolve: (body) => resolveAssistantCitationRange(body, citation),
      isLive: (range) => isLiveSourceRange(range, citation.messageId),
      focus: focusSourceRow,
    };
  }
  return {
    find: () => messageRow(chipMessageId),
    resolve: (row) => {
      const chip = findCitingChip(row, citation);
      return chip ? { status: "found", range: chipRange(chip) } : { status: "missing" };
    },
    isLive: (range) => isLiveChipRange(range, chipMessageId),
    focus: focusChip,
  };
}

function sourceBody(messageId: string): Element | null {
  return document.querySelector(`[data-assistant-citation-source="${CSS.escape(messageId)}"]`);
}

/** Focuses the source message (articles are `tabindex=-1`) without scrolling it again. */
function focusSourceRow(range: Range): void {
  const node = range.startContainer;
  const element = node instanceof Element ? node : node.parentElement;
  const row = element?.closest<HTMLElement>("[data-message-id]");
  // Focus already inside the row stays (Back put it on a control of this message).
  if (row?.contains(document.activeElement)) return;
  if (row && typeof row.focus === "function") row.focus({ preventScroll: true });
}

/** Moves keyboard focus to a revealed chip (a link), without scrolling. */
function focusChip(range: Range): void {
  const node = range.startContainer;
  const element = node instanceof Element ? node : node.parentElement;
  element?.closest<HTMLElement>("[data-assistant-citation-chip]")?.focus({ preventScroll: true });
}

/** Calls `found` once the target's element is mounted, or `timedOut`; returns a cancel function. */
function waitForTarget(
  target: JumpTarget,
  found: (body: Element) => void,
  timedOut: () => void,
): () => void {
  const started = performance.now();
  let frame = 0;
  const attempt = () => {
    const body = target.find();
    if (body) return found(body);
    if (performance.now() - started > MOUNT_TIMEOUT_MS) return timedOut();
    frame = requestAnimationFrame(attempt);
  };
  attempt();
  return () => cancelAnimationFrame(frame);
}

/**
 * Pulses `range` on the clock, following the text when its row re-renders (streaming, a
 * remount). Returns a stop function: `stop(true)` also ends the clock (dismissed).
 */
function startPulse(
  target: JumpTarget,
  initial: Range,
  clock: CitationHighlightClock,
  reducedMotion: boolean,
  root: Node,
  current: { range: Range | null },
): (finished: boolean) => void {
  if (clock.startedAt === null) clock.startedAt = performance.now();
  let highlight: SourceHighlight | null = createSourceHighlight(initial);
  let frame = 0;
  let observer: MutationObserver | null = null;
  const stop = (finished: boolean) => {
    if (finished) clock.finished = true;
    cancelAnimationFrame(frame);
    observer?.disconnect();
    observer = null;
    highlight?.dispose();
    highlight = null;
  };
  const tick = () => {
    if (!highlight || clock.startedAt === null) return;
    const elapsed = performance.now() - clock.startedAt;
    if (elapsed >= citationHighlightDuration(reducedMotion)) return stop(true);
    highlight.setOpacity(citationHighlightOpacity(elapsed, reducedMotion));
    frame = requestAnimationFrame(tick);
  };
  const repair = () => {
    if (!highlight) return;
    if (current.range && target.isLive(current.range)) return;
    const body = target.find();
    const resolved = body ? target.resolve(body) : null;
    if (resolved?.status !== "found") {
      // The source row is gone (or reused for another message): paint nothing until it is back.
      if (current.range) highlight.hide();
      current.range = null;
      return;
    }
    current.range = resolved.range;
    highlight.update(resolved.range);
  };
  tick();
  observer = new MutationObserver(repair);
  observer.observe(root, {
    subtree: true,
    childList: true,
    characterData: true,
    attributes: true,
    attributeFilter: ["data-assistant-citation-source"],
  });
  return stop;
}

/**
 * Reveals a cited source (see the module doc). Escape ends the highlight. Returns a dispose
 * function; disposing pauses nothing: the clock keeps running and a new reveal of the same
 * activation resumes what is left, while an expired or dismissed highlight never comes back.
 */
export function revealCitationSource(options: RevealCitationSourceOptions): () => void {
  const { citation, clock, timeline, reducedMotion, onSettled } = options;
  const target = jumpTarget(citation, options.chipMessageId);
  let settled = false;
  const settle = (warning: string | null) => {
    if (settled) return;
    settled = true;
    onSettled(warning);
  };
  const current: { range: Range | null } = { range: null };
  let stopPulse: ((finished: boolean) => void) | null = null;
  let cancelChecks: (() => void) | null = null;

  const reveal = (body: Element) => {
    const resolved = target.resolve(body);
    if (resolved.status !== "found") {
      // The words cannot be shown, but the message can: into view (its first line at the top
      // when it is taller than the view) and focused; the thread view marks its row.
      const whole = document.createRange();
      whole.selectNodeContents(body);
      timeline.revealRange(whole, { instant: true, unlessFullyInView: true });
      target.focus(whole);
      return settle(
        resolved.status === "missing" ? NAVIGATION_WARNINGS.changed : NAVIGATION_WARNINGS.ambiguous,
      );
    }
    current.range = resolved.range;
    // At once, and only when some of it is hidden: words already in view stay where they are.
    timeline.revealRange(resolved.range, { instant: true, unlessFullyInView: true });
    cancelChecks = keepRevealedInView(current, target.isLive, (range, request) =>
      timeline.revealRange(range, request),
    );
    target.focus(resolved.range);
    settle(null);
    if (clock.finished) return;
    const root = timeline.getScrollElement() ?? document.body;
    stopPulse = startPulse(target, resolved.range, clock, reducedMotion, root, current);
  };
  const cancelWait = waitForTarget(target, reveal, () => settle(NAVIGATION_WARNINGS.notShown));

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === "Escape" && stopPulse) {
      stopPulse(true);
      stopPulse = null;
    }
  };
  document.addEventListener("keydown", onKeyDown);
  return () => {
    cancelWait();
    cancelChecks?.();
    document.removeEventListener("keydown", onKeyDown);
    stopPulse?.(false);
  };
}
