import {
  type AssistantCitation,
  getAssistantCitationChipLabel,
  hasNonWhitespace,
} from "@app/citations";
import { type MouseEvent, useContext } from "react";
import {
  AssistantCitationNavigationContext,
  assistantCitationUrl,
} from "./assistantCitationNavigation.ts";
import { useCitationHoverMark } from "./citationHoverMark.ts";
import { CitationHereContext, citationScope, citationScopeLabel } from "./citationScope.ts";

/** Props of {@link AssistantCitationChip}. */
export type AssistantCitationChipProps = {
  citation: AssistantCitation;
  /** The exact Markdown source of the citation link, for copy. */
  source: string;
  /** Source offsets of the link in the message text (Markdown copy treats the chip as one piece). */
  sourceStart?: number | undefined;
  sourceEnd?: number | undefined;
};

/** The tooltip: the quote, and the user's comment below it when there is one. */
export function assistantCitationChipTitle(citation: AssistantCitation): string {
  const comment =
    citation.comment !== undefined && hasNonWhitespace(citation.comment)
      ? `\n\nComment: ${citation.comment.trim()}`
      : "";
  return `“${citation.text}”${comment}`;
}

/**
 * A sent citation in a user message: a read-only chip linking to the cited source text
 * (`/<environmentId>/<threadId>#assistant-citation=<base64url>`). Its label is the comment when
 * present, else a quote preview. A plain click navigates client-side with a fresh activation id;
 * modified clicks keep the browser's behaviour (new tab, ...). The chip is atomic for Markdown
 * copy: it stands for its exact link source, not its label.
 */
export function AssistantCitationChip({
  citation,
  source,
  sourceStart,
  sourceEnd,
}: AssistantCitationChipProps) {
  const navigate = useContext(AssistantCitationNavigationContext);
  // A chip citing another thread or environment says so (class, marker, accessible name).
  const scope = citationScope(citation, useContext(CitationHereContext));
  const hover = useCitationHoverMark(citation, scope === "local");
  const label = getAssistantCitationChipLabel(citation);
  const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
    if (!navigate || event.defaultPrevented || event.button !== 0) return;
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    navigate(citation, event.currentTarget);
  };
  return (
    <a
      className={scope === "local" ? "citation-chip" : "citation-chip citation-chip--elsewhere"}
      data-citation-scope={scope}
      {...hover}
      href={assistantCitationUrl(citation)}
      data-assistant-citation-chip=""
      data-copy-source={source}
      {...(sourceStart !== undefined && sourceEnd !== undefined
        ? { "data-md-start": sourceStart, "data-md-end": sourceEnd }
        : {})}
      title={assistantCitationChipTitle(citation)}
      aria-label={`${citationScopeLabel(scope)}: ${label}`}
      onClick={onClick}
    >
      <span className="citation-chip__kind" aria-hidden="true">
        ❝
      </span>
      <span className="citation-chip__label">{label}</span>
      {scope === "local" ? null : (
        <span className="citation-chip__elsewhere" aria-hidden="true">
          {scope === "other-thread" ? "↗" : "⊘"}
        </span>
      )}
    </a>
  );
}
