import type { AssistantCitation } from "@app/citations";
import { useEffect, useRef, useState } from "react";
import type { CitationHighlightClock } from "./citationHighlightClocks.ts";
import type { RevealRangeRequest } from "./keepRevealedInView.ts";
import { revealCitationSource } from "./revealCitationSource.ts";

/** Props of {@link AssistantCitationSource}. */
export type AssistantCitationSourceProps = {
  citation: AssistantCitation;
  /** The activation's highlight clock (useCitationActivation owns it). */
  clock: CitationHighlightClock;
  /** The timeline's scrolling element (where the source row lives). */
  getScrollElement(): HTMLElement | null;
  /** Asks the timeline to bring the range into view (TimelineHandle.revealRange). */
  revealRange(range: Range, options: RevealRangeRequest): void;
  /** Called once the text is revealed (or cannot be), so positioning can end. */
  onSettled(warning: string | null): void;
  /**
   * A backlink's jump: reveal the chip of `citation` in this citing message (and give it focus)
   * instead of the cited text.
   */
  chipMessageId?: string;
};

function prefersReducedMotion(): boolean {
  return typeof matchMedia === "function" && matchMedia("(prefers-reduced-motion: reduce)").matches;
}

/**
 * Runs {@link revealCitationSource} for one activation while mounted (key it by the activation
 * id). Renders nothing.
 */
export function AssistantCitationSource({
  citation,
  clock,
  getScrollElement,
  revealRange,
  onSettled,
  chipMessageId,
}: AssistantCitationSourceProps) {
  const latest = useRef({ getScrollElement, revealRange, onSettled });
  latest.current = { getScrollElement, revealRange, onSettled };

  useEffect(
    () =>
      revealCitationSource({
        citation,
        clock,
        reducedMotion: prefersReducedMotion(),
        timeline: {
          getScrollElement: () => latest.current.getScrollElement(),
          revealRange: (range, options) => latest.current.revealRange(range, options),
        },
        onSettled: (warning) => latest.current.onSettled(warning),
        chipMessageId,
      }),
    [citation, clock, chipMessageId],
  );

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
  sourceFocused = false,
}: {
  message: string;
  onDismiss(): void;
  onRetry?: () => void;
  /** The jump focused the source message (shown despite the warning): focus stays there. */
  sourceFocused?: boolean;
}) {
  const [visible, setVisible] = useState(true);
  // The reader's focus was on what started the jump (a chip, often re-rendered away): it moves
  // to the warning, whose Dismiss button is next, unless they are typing somewhere.
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const active = document.activeElement;
    const typing =
      active instanceof HTMLElement &&
      (active.isContentEditable || active.tagName === "INPUT" || active.tagName === "TEXTAREA");
    if (!typing && !sourceFocused) ref.current?.focus({ preventScroll: true });
  }, [sourceFocused]);
  if (!visible) return null;
  return (
    <div
      ref={ref}
      className="notice notice--warning thread-view__notice"
      role="status"
      tabIndex={-1}
      data-citation-warning
    >
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
