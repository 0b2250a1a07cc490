import type { AssistantCitation } from "@app/citations";
import { useEffect, useRef, useState } from "react";
import { isLiveSourceRange } from "../ui/liveSourceRange.ts";
import { citationHighlightClock } from "./assistantCitationNavigation.ts";
import { resolveAssistantCitationRange } from "./assistantTextSelection.ts";
import { citationHighlightDuration, citationHighlightOpacity } from "./citationHighlightTiming.ts";
import { createSourceHighlight, type SourceHighlight } from "./citationSourceHighlight.ts";
import { chipRange, findCitingChip, isLiveChipRange, messageRow } from "./citingChipTarget.ts";
import { NAVIGATION_WARNINGS } from "./navigationMachine.ts";

/**
 * How long to wait for the source row to mount. The message is loaded by then, so running out
 * means it could not be shown (never that it is gone: only the server says that).
 */
const MOUNT_TIMEOUT_MS = 3000;

/** Props of {@link AssistantCitationSource}. */
export type AssistantCitationSourceProps = {
  citation: AssistantCitation;
  activationId: string;
  /** The timeline's scrolling element (where the source row lives). */
  getScrollElement(): HTMLElement | null;
  /** Called once the text is revealed (or cannot be), so positioning can end. */
  onSettled(warning: string | null): void;
  /** Scroll to the text at once (a deep jump: the timeline was just placed there). */
  instant?: boolean;
  /**
   * A backlink's jump: reveal the chip of `citation` in this citing message (and give it focus)
   * instead of the cited text.
   */
  chipMessageId?: string;
};

type Resolved = { status: "found"; range: Range } | { status: "missing" } | { status: "ambiguous" };

/** Where a jump lands: the cited text in its answer, or a chip in its citing message. */
function jumpTarget(citation: AssistantCitation, chipMessageId: string | undefined) {
  if (chipMessageId === undefined) {
    return {
      find: () => sourceBody(citation.messageId),
      resolve: (body: Element): Resolved => resolveAssistantCitationRange(body, citation),
      isLive: (range: Range) => isLiveSourceRange(range, citation.messageId),
    };
  }
  return {
    find: () => messageRow(chipMessageId),
    resolve: (row: Element): Resolved => {
      const chip = findCitingChip(row, citation);
      return chip ? { status: "found", range: chipRange(chip) } : { status: "missing" };
    },
    isLive: (range: Range) => isLiveChipRange(range, chipMessageId),
  };
}

function prefersReducedMotion(): boolean {
  return typeof matchMedia === "function" && matchMedia("(prefers-reduced-motion: reduce)").matches;
}

function sourceBody(messageId: string): Element | null {
  return document.querySelector(`[data-assistant-citation-source="${CSS.escape(messageId)}"]`);
}

/** Scrolls `scroller` so the range sits about a third down its viewport. */
function scrollRangeIntoView(scroller: HTMLElement | null, range: Range, instant: boolean): void {
  // Without range geometry (old engines, jsdom) or a scroller, scroll the text's element.
  if (!scroller || typeof range.getBoundingClientRect !== "function") {
    range.startContainer.parentElement?.scrollIntoView?.({
      block: "center",
      behavior: instant ? "instant" : "smooth",
    });
    return;
  }
  if (typeof scroller.scrollTo !== "function") return;
  const rect = range.getBoundingClientRect();
  const box = scroller.getBoundingClientRect();
  const offset = rect.top - box.top - Math.max(0, (box.height - rect.height) / 3);
  scroller.scrollTo({
    top: Math.max(0, scroller.scrollTop + offset),
    behavior: instant ? "instant" : "smooth",
  });
}

/**
 * Moves keyboard focus to the source message (articles are `tabindex=-1`), without scrolling:
 * the text was just placed where it should be.
 */
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

/** When the revealed text is checked again (ms after the first scroll). */
const FOLLOW_UP_DELAYS_MS = [700, 1300, 2000];

/** True when no part of the range is inside the scroller's visible box. */
function isOutOfView(range: Range, scroller: HTMLElement): boolean {
  if (typeof range.getBoundingClientRect !== "function") return false;
  const rect = range.getBoundingClientRect();
  const box = scroller.getBoundingClientRect();
  return rect.bottom <= box.top || rect.top >= box.bottom;
}

/**
 * Reveals a cited source once its row is mounted: resolves the DOM range of the quote, scrolls
 * it into view (smoothly, or instantly under reduced motion) and pulses only that text through
 * the `assistant-citation` highlight. The activation's clock (owned by navigation) decides
 * timing: range repairs keep it, remounting resumes the remaining time, and an expired or
 * dismissed highlight never comes back. Escape dismisses it. Renders nothing.
 */
export function AssistantCitationSource({
  citation,
  activationId,
  getScrollElement,
  onSettled,
  instant = false,
  chipMessageId,
}: AssistantCitationSourceProps) {
  const latest = useRef({ getScrollElement, onSettled });
  latest.current = { getScrollElement, onSettled };

  useEffect(() => {
    const clock = citationHighlightClock(activationId);
    const target = jumpTarget(citation, chipMessageId);
    const reduced = prefersReducedMotion();
    const scrollInstantly = reduced || instant;
    let disposed = false;
    let highlight: SourceHighlight | null = null;
    let frame = 0;
    let observer: MutationObserver | null = null;
    let settled = false;
    const settle = (warning: string | null) => {
      if (settled) return;
      settled = true;
      latest.current.onSettled(warning);
    };

    const stopHighlight = (finished: boolean) => {
      if (finished) clock.finished = true;
      cancelAnimationFrame(frame);
      observer?.disconnect();
      observer = null;
      highlight?.dispose();
      highlight = null;
    };

    const tick = () => {
      if (disposed || !highlight || clock.startedAt === null) return;
      const elapsed = performance.now() - clock.startedAt;
      if (elapsed >= citationHighlightDuration(reduced)) {
        stopHighlight(true);
        return;
      }
      highlight.setOpacity(citationHighlightOpacity(elapsed, reduced));
      frame = requestAnimationFrame(tick);
    };

    const repair = () => {
      if (!highlight) return;
      const current = currentRange;
      if (current && target.isLive(current)) return;
      const body = target.find();
      const resolved = body ? target.resolve(body) : null;
      if (resolved?.status !== "found") {
        // The source row is gone (or reused for another message): paint nothing until it is back.
        if (current) highlight.hide();
        currentRange = null;
        return;
      }
      currentRange = resolved.range;
      highlight.update(resolved.range);
    };

    // Rows around the source may still be measured after the first scroll (their estimated
    // heights become real ones) and push the text out of view: look again a few times and
    // bring it back, unless the reader has started to scroll or type meanwhile.
    const followUps: ReturnType<typeof setTimeout>[] = [];
    let readerMoved = false;
    const onReaderMove = () => {
      readerMoved = true;
    };
    const followUp = () => {
      for (const delay of FOLLOW_UP_DELAYS_MS) {
        followUps.push(
          setTimeout(() => {
            const scroller = latest.current.getScrollElement();
            if (
              disposed ||
              readerMoved ||
              !scroller ||
              !currentRange ||
              !target.isLive(currentRange)
            ) {
              return;
            }
            if (isOutOfView(currentRange, scroller)) {
              scrollRangeIntoView(scroller, currentRange, true);
            }
          }, delay),
        );
      }
    };
    window.addEventListener("wheel", onReaderMove, { passive: true });
    window.addEventListener("touchmove", onReaderMove, { passive: true });
    window.addEventListener("keydown", onReaderMove);

    let currentRange: Range | null = null;
    const reveal = (body: Element) => {
      const resolved = target.resolve(body);
      if (resolved.status === "missing") return settle(NAVIGATION_WARNINGS.changed);
      if (resolved.status === "ambiguous") return settle(NAVIGATION_WARNINGS.ambiguous);
      currentRange = resolved.range;
      scrollRangeIntoView(latest.current.getScrollElement(), resolved.range, scrollInstantly);
      followUp();
      if (chipMessageId === undefined) focusSourceRow(resolved.range);
      else focusChip(resolved.range);
      settle(null);
      if (clock.finished) return;
      if (clock.startedAt === null) clock.startedAt = performance.now();
      highlight = createSourceHighlight(resolved.range);
      tick();
      // The row may re-render (streaming, remount): follow the text with the original clock.
      const root = latest.current.getScrollElement() ?? document.body;
      observer = new MutationObserver(repair);
      observer.observe(root, {
        subtree: true,
        childList: true,
        characterData: true,
        attributes: true,
        attributeFilter: ["data-assistant-citation-source"],
      });
    };

    // Wait for the row to mount (the timeline was asked to render it).
    const startedWaiting = performance.now();
    const waitForBody = () => {
      if (disposed) return;
      const body = target.find();
      if (body) return reveal(body);
      if (performance.now() - startedWaiting > MOUNT_TIMEOUT_MS) {
        return settle(NAVIGATION_WARNINGS.notShown);
      }
      frame = requestAnimationFrame(waitForBody);
    };
    waitForBody();

    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === "Escape" && highlight) stopHighlight(true);
    };
    document.addEventListener("keydown", onKeyDown);
    return () => {
      disposed = true;
      for (const timer of followUps) clearTimeout(timer);
      window.removeEventListener("wheel", onReaderMove);
      window.removeEventListener("touchmove", onReaderMove);
      window.removeEventListener("keydown", onReaderMove);
      document.removeEventListener("keydown", onKeyDown);
      // Unmounting pauses nothing: the clock keeps running, a remount resumes what is left.
      stopHighlight(false);
    };
  }, [citation, activationId, instant, chipMessageId]);

  return null;
}

/**
 * The warning line of citation navigation (`role="status"`), with a way to dismiss it and, when
 * the history could not be loaded, to try again.
 */
export function AssistantCitationWarning({
  message,
  onDismiss,
  onRetry,
}: {
  message: string;
  onDismiss(): void;
  onRetry?: () => void;
}) {
  const [visible, setVisible] = useState(true);
  if (!visible) return null;
  return (
    <div className="notice notice--warning thread-view__notice" role="status">
      {message}{" "}
      {onRetry ? (
        <button type="button" className="link-button" onClick={onRetry}>
          Retry
        </button>
      ) : null}{" "}
      <button
        type="button"
        className="link-button"
        onClick={() => {
          setVisible(false);
          onDismiss();
        }}
      >
        Dismiss
      </button>
    </div>
  );
}
