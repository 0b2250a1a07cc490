/**
 * The one owner of a thread view's citation activation: reads the location once (the
 * `#assistant-citation=` hash and the activation id of the history entry), counts visits (each
 * arrival at a citation location is a new activation: Forward after Back reveals again), keeps
 * the highlight clocks, and leaves the citation location (replacing the history entry without
 * the hash) when the reader goes back to the latest messages.
 */
import { parseAssistantCitationHash } from "@app/citations";
import { useLocation, useNavigate } from "@tanstack/react-router";
import { useCallback, useMemo, useRef, useState } from "react";
import {
  type AssistantCitationActivation,
  CITATION_ACTIVATION_STATE_KEY,
  CITATION_CHIP_STATE_KEY,
  citationActivationIdOf,
} from "./assistantCitationNavigation.ts";
import {
  type CitationHighlightClock,
  createCitationHighlightClocks,
} from "./citationHighlightClocks.ts";

/** What {@link useCitationActivation} gives the thread view. */
export type CitationActivation = {
  /** The activation this location asks for in this thread, or null. */
  activation: AssistantCitationActivation | null;
  /** The highlight clock of an activation. */
  clockFor(activationId: string): CitationHighlightClock;
  /**
   * Replaces the current history entry with one without the citation hash (Jump to latest,
   * back at the end, a dismissed warning), so a reload lands at the latest; Back still
   * returns to the chip the jump came from. Does nothing without a citation hash.
   */
  leaveCitation(): void;
};

/** See the module doc. */
export function useCitationActivation(here: {
  environmentId: string;
  threadId: string;
}): CitationActivation {
  const { environmentId, threadId } = here;
  const hash = useLocation({ select: (location) => location.hash });
  const entryId = useLocation({ select: (location) => citationActivationIdOf(location.state) });
  // A backlink's jump names the citing message whose chip is the target (issue 24).
  const chipMessageId = useLocation({ select: (location) => chipTargetOf(location.state) });
  const citation = useMemo(() => parseAssistantCitationHash(hash), [hash]);

  const key = citation === null ? null : `${hash}\u0000${entryId}\u0000${chipMessageId ?? ""}`;
  const visits = useRef({ key: null as string | null, count: 0 });
  if (visits.current.key !== key) visits.current = { key, count: visits.current.count + 1 };
  const visit = visits.current.count;
  const activation = useMemo<AssistantCitationActivation | null>(() => {
    if (citation === null) return null;
    const activationId = `${entryId}#${visit}`;
    // A backlink's jump is always about this route's thread (its citing message is here).
    if (chipMessageId !== null) return { citation, activationId, chipMessageId };
    // A citation of another thread names this route only when opened as a link: not ours.
    return citation.threadId === threadId ? { citation, activationId } : null;
  }, [citation, entryId, visit, threadId, chipMessageId]);

  const [clocks] = useState(createCitationHighlightClocks);

  const navigate = useNavigate();
  const hasCitation = citation !== null;
  const leaveCitation = useCallback(() => {
    if (!hasCitation) return;
    void navigate({
      to: "/$environmentId/$threadId",
      params: { environmentId, threadId },
      hash: "",
      replace: true,
      resetScroll: false,
      state: (previous) => {
        const next: Record<string, unknown> = { ...previous };
        delete next[CITATION_ACTIVATION_STATE_KEY];
        delete next[CITATION_CHIP_STATE_KEY];
        return next as unknown as typeof previous;
      },
    });
  }, [hasCitation, navigate, environmentId, threadId]);

  return { activation, clockFor: clocks.clockFor, leaveCitation };
}

/** The citing message a history entry's state names as a backlink's target, or null. */
function chipTargetOf(entryState: unknown): string | null {
  const chip = ((entryState ?? {}) as Record<string, unknown>)[CITATION_CHIP_STATE_KEY];
  return typeof chip === "string" && chip !== "" ? chip : null;
}
