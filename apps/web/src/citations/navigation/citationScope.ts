/**
 * Where a sent chip's source lives relative to the thread it is shown in: this thread, another
 * thread of this environment (the chip routes there), or another environment (it cannot be
 * opened here). Chips tell these apart visually and in their accessible name.
 */
import { ASSISTANT_CITATION_LABEL, type AssistantCitation } from "@app/citations";
import { createContext } from "react";

/** The thread a chip is shown in. */
export type CitationHere = { environmentId: string; threadId: string };

/** Provided by the thread view; null in bare renders (every chip then counts as local). */
export const CitationHereContext = createContext<CitationHere | null>(null);

/** Where a citation's source is, seen from `here`. */
export type CitationScope = "local" | "other-thread" | "other-environment";

/** The scope of `citation` seen from `here`. */
export function citationScope(
  citation: Pick<AssistantCitation, "environmentId" | "threadId">,
  here: CitationHere | null,
): CitationScope {
  if (here === null) return "local";
  if (citation.environmentId !== here.environmentId) return "other-environment";
  if (citation.threadId !== here.threadId) return "other-thread";
  return "local";
}

/** The start of a chip's accessible name: "Assistant quote" plus where it comes from. */
export function citationScopeLabel(scope: CitationScope): string {
  switch (scope) {
    case "local":
      return ASSISTANT_CITATION_LABEL;
    case "other-thread":
      return `${ASSISTANT_CITATION_LABEL} from another thread`;
    case "other-environment":
      return `${ASSISTANT_CITATION_LABEL} from another environment`;
  }
}

/** The status line shown when a chip citing another environment is followed. */
export const OTHER_ENVIRONMENT_NOTICE =
  "This quote comes from another environment, so it cannot be opened here.";
