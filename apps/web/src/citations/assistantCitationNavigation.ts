/**
 * Routing to a citation's source (spec "Source navigation"): the thread path plus
 * `#assistant-citation=<base64url of the citation URI>` (the encoding keeps the router's hash
 * normalization from decoding quote whitespace or source ids), and a fresh activation id in the
 * navigation state on every click so the same link can reveal its source again after dismissal.
 * Also keeps each activation's highlight clock, so the highlight's start time and completion
 * belong to the navigation, not to whichever component happens to be mounted.
 */
import {
  type AssistantCitation,
  formatAssistantCitationHash,
  formatAssistantCitationHref,
  parseAssistantCitationHash,
} from "@app/citations";
import { useNavigate } from "@tanstack/react-router";
import { createContext, useCallback } from "react";

/** Path of a citation's source thread: `/<environmentId>/<threadId>`. */
export function assistantCitationThreadPath(
  citation: Pick<AssistantCitation, "environmentId" | "threadId">,
): string {
  return `/${encodeURIComponent(citation.environmentId)}/${encodeURIComponent(citation.threadId)}`;
}

/** The URL a sent chip links to: the source thread path plus the citation hash. */
export function assistantCitationUrl(citation: AssistantCitation): string {
  return `${assistantCitationThreadPath(citation)}${formatAssistantCitationHash(formatAssistantCitationHref(citation))}`;
}

/** Navigation state key carrying the activation id. */
export const CITATION_ACTIVATION_STATE_KEY = "citationActivation";

let activationCounter = 0;

/** A fresh, unique activation id. */
export function newCitationActivationId(): string {
  activationCounter += 1;
  const random =
    typeof crypto !== "undefined" && typeof crypto.randomUUID === "function"
      ? crypto.randomUUID()
      : Math.random().toString(36).slice(2);
  return `${activationCounter}-${random}`;
}

/** One request to reveal a citation's source. */
export type AssistantCitationActivation = { citation: AssistantCitation; activationId: string };

/**
 * The activation a location asks for: the citation in its hash, and the activation id from its
 * navigation state (a direct page load has none: the history entry key stands in, so a reload
 * reveals the source once more).
 */
export function readAssistantCitationActivation(location: {
  hash: string;
  state?: unknown;
}): AssistantCitationActivation | null {
  const citation = parseAssistantCitationHash(location.hash);
  if (citation === null) return null;
  const state = (location.state ?? {}) as Record<string, unknown>;
  const fromState = state[CITATION_ACTIVATION_STATE_KEY];
  const key = state.__TSR_key ?? state.key;
  const activationId =
    typeof fromState === "string"
      ? fromState
      : typeof key === "string"
        ? `entry-${key}`
        : "initial";
  return { citation, activationId };
}

/** How a chip asks the app to navigate (provided by the thread view; absent in bare renders). */
export type AssistantCitationNavigator = (citation: AssistantCitation) => void;

/** Context through which sent chips navigate client-side. Null: the chip's plain href is used. */
export const AssistantCitationNavigationContext = createContext<AssistantCitationNavigator | null>(
  null,
);

/** A navigator that routes client-side (TanStack Router) with a fresh activation id. */
export function useAssistantCitationNavigator(): AssistantCitationNavigator {
  const navigate = useNavigate();
  return useCallback(
    (citation: AssistantCitation) => {
      const hash = formatAssistantCitationHash(formatAssistantCitationHref(citation)).slice(1);
      const activationId = newCitationActivationId();
      void navigate({
        to: "/$environmentId/$threadId",
        params: { environmentId: citation.environmentId, threadId: citation.threadId },
        hash,
        state: (previous) =>
          ({ ...previous, [CITATION_ACTIVATION_STATE_KEY]: activationId }) as typeof previous,
        resetScroll: false,
      });
    },
    [navigate],
  );
}

/** Highlight lifetime of one activation, owned by navigation. */
export type CitationHighlightClock = {
  /** `performance.now()` when the highlight first started; null until the text was found. */
  startedAt: number | null;
  /** True once it ran out or was dismissed: it never revives. */
  finished: boolean;
};

const clocks = new Map<string, CitationHighlightClock>();
const MAX_CLOCKS = 50;

/** The clock of an activation (created on first use; old ones are forgotten FIFO). */
export function citationHighlightClock(activationId: string): CitationHighlightClock {
  let clock = clocks.get(activationId);
  if (!clock) {
    clock = { startedAt: null, finished: false };
    clocks.set(activationId, clock);
    if (clocks.size > MAX_CLOCKS) {
      const oldest = clocks.keys().next().value;
      if (oldest !== undefined) clocks.delete(oldest);
    }
  }
  return clock;
}
