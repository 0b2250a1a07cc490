/**
 * Routing to a citation's source (spec "Source navigation"): the thread path plus
 * `#assistant-citation=<base64url of the citation URI>` (the encoding keeps the router's hash
 * normalization from decoding quote whitespace or source ids), and a fresh activation id in the
 * navigation state on every click so the same link can reveal its source again after dismissal.
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

/**
 * One request to reveal a citation's source; with `chipMessageId`, the chip of that citation in
 * the citing message instead (a backlink's jump, issue 24).
 */
export type AssistantCitationActivation = {
  citation: AssistantCitation;
  activationId: string;
  chipMessageId?: string;
};

/** Navigation state key carrying the citing message of a backlink's jump (its chip is the target). */
export const CITATION_CHIP_STATE_KEY = "citationChip";

/**
 * The activation id a history entry's state carries: the chip click's, or (a direct page load
 * has none) the entry key standing in, so a reload reveals the source once more.
 */
export function citationActivationIdOf(entryState: unknown): string {
  const state = (entryState ?? {}) as Record<string, unknown>;
  const fromState = state[CITATION_ACTIVATION_STATE_KEY];
  const key = state.__TSR_key ?? state.key;
  return typeof fromState === "string"
    ? fromState
    : typeof key === "string"
      ? `entry-${key}`
      : "initial";
}

/**
 * The activation a location asks for: the citation in its hash, and the activation id of its
 * history entry ({@link citationActivationIdOf}).
 */
export function readAssistantCitationActivation(location: {
  hash: string;
  state?: unknown;
}): AssistantCitationActivation | null {
  const citation = parseAssistantCitationHash(location.hash);
  if (citation === null) return null;
  const activationId = citationActivationIdOf(location.state);
  const chip = ((location.state ?? {}) as Record<string, unknown>)[CITATION_CHIP_STATE_KEY];
  return typeof chip === "string" && chip !== ""
    ? { citation, activationId, chipMessageId: chip }
    : { citation, activationId };
}

/** A backlink's target: the citing message (in this environment) whose chip to show. */
export type CitingChipTarget = { threadId: string; messageId: string };

/**
 * How a chip asks the app to navigate (provided by the thread view; absent in bare renders).
 * `origin` is the clicked chip: its place is recorded so Back returns to it. With `chip`, the
 * jump goes to the chip of `citation` in that citing message instead of the cited text.
 */
export type AssistantCitationNavigator = (
  citation: AssistantCitation,
  origin?: Element,
  chip?: CitingChipTarget,
) => void;

/** History state key (on the entry a chip was clicked from) holding its {@link CitationReturnPoint}. */
export const CITATION_RETURN_STATE_KEY = "citationReturn";
/** History state key (on the entry a chip click pushed) marking that Back returns to a chip. */
export const CITATION_FROM_STATE_KEY = "citationFrom";

/**
 * Where a chip was when it was clicked: Back (or "Back to where you were") returns there. A
 * control that is not a link (the "Cited N×" button) names itself with `data-citation-return`.
 */
export type CitationReturnPoint = {
  threadId: string;
  /** The message holding the chip. */
  messageId: string;
  /** Where the message's top sat in the view: 0 top, 1 bottom (a list `viewPosition`). */
  viewPosition: number;
  /** The chip's href (or the control's `data-citation-return`), to give it focus again. */
  href: string;
};

/** The return point a history entry's state holds, or null. */
export function readCitationReturnPoint(state: unknown): CitationReturnPoint | null {
  const value = ((state ?? {}) as Record<string, unknown>)[CITATION_RETURN_STATE_KEY];
  if (typeof value !== "object" || value === null) return null;
  const point = value as Partial<CitationReturnPoint>;
  if (
    typeof point.threadId !== "string" ||
    typeof point.messageId !== "string" ||
    typeof point.viewPosition !== "number" ||
    typeof point.href !== "string"
  ) {
    return null;
  }
  return point as CitationReturnPoint;
}

/** True when the history entry was pushed by a chip click (Back returns to the chip). */
export function cameFromCitationChip(state: unknown): boolean {
  return ((state ?? {}) as Record<string, unknown>)[CITATION_FROM_STATE_KEY] === true;
}

/** Names a control that is not a link as a return point's focus target. */
export const CITATION_RETURN_ATTRIBUTE = "data-citation-return";

/**
 * The return point of a clicked chip: its message and where that message sits in the timeline's
 * view, or null when the chip is not inside a timeline row. Needs a live DOM.
 */
export function captureCitationReturnPoint(
  origin: Element,
  threadId: string,
): CitationReturnPoint | null {
  const row = origin.closest("[data-message-id]");
  const scroller = origin.closest(".timeline__scroller");
  const messageId = row?.getAttribute("data-message-id");
  if (!row || !messageId) return null;
  let viewPosition = 0.5;
  if (scroller && typeof row.getBoundingClientRect === "function") {
    const rect = row.getBoundingClientRect();
    const box = scroller.getBoundingClientRect();
    const room = box.height - rect.height;
    viewPosition = room > 0 ? Math.min(1, Math.max(0, (rect.top - box.top) / room)) : 0;
  }
  const href = origin.getAttribute("href") ?? origin.getAttribute(CITATION_RETURN_ATTRIBUTE) ?? "";
  return { threadId, messageId, viewPosition, href };
}

/** Context through which sent chips navigate client-side. Null: the chip's plain href is used. */
export const AssistantCitationNavigationContext = createContext<AssistantCitationNavigator | null>(
  null,
);

/**
 * A navigator that routes client-side (TanStack Router) with a fresh activation id. The entry
 * the chip was clicked on first records where the chip was ({@link CitationReturnPoint}), so the
 * browser's Back returns there. `here` is the thread the chips are shown in.
 */
export function useAssistantCitationNavigator(here: {
  threadId: string;
}): AssistantCitationNavigator {
  const navigate = useNavigate();
  const { threadId } = here;
  return useCallback(
    (citation: AssistantCitation, origin?: Element, chip?: CitingChipTarget) => {
      const hash = formatAssistantCitationHash(formatAssistantCitationHref(citation)).slice(1);
      const activationId = newCitationActivationId();
      const returnPoint = origin ? captureCitationReturnPoint(origin, threadId) : null;
      if (returnPoint !== null) {
        // The current entry is where Back lands: it keeps the router's own keys.
        window.history.replaceState(
          { ...(window.history.state ?? {}), [CITATION_RETURN_STATE_KEY]: returnPoint },
          "",
        );
      }
      void navigate({
        to: "/$environmentId/$threadId",
        params: {
          environmentId: citation.environmentId,
          threadId: chip?.threadId ?? citation.threadId,
        },
        hash,
        state: (previous) => {
          // The new entry is not a return point itself (it is the jump).
          const next: Record<string, unknown> = { ...previous };
          delete next[CITATION_RETURN_STATE_KEY];
          next[CITATION_ACTIVATION_STATE_KEY] = activationId;
          next[CITATION_FROM_STATE_KEY] = returnPoint !== null;
          if (chip) next[CITATION_CHIP_STATE_KEY] = chip.messageId;
          else delete next[CITATION_CHIP_STATE_KEY];
          return next as unknown as typeof previous;
        },
        resetScroll: false,
      });
    },
    [navigate, threadId],
  );
}
