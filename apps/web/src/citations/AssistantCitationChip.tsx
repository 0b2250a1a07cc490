import type { AssistantCitation } from "@app/citations";
import { type MouseEvent, useContext, useId, useState } from "react";
import { chipComment, citationChipText } from "./citationChipText.ts";
import { useCitationHoverMark } from "./citationHoverMark.ts";
import {
  AssistantCitationNavigationContext,
  assistantCitationUrl,
} from "./navigation/assistantCitationNavigation.ts";
import {
  CitationHereContext,
  citationScope,
  citationScopeLabel,
} from "./navigation/citationScope.ts";

/** Props of {@link AssistantCitationChip}. */
export type AssistantCitationChipProps = {
  citation: AssistantCitation;
  /** The exact Markdown source of the citation link, for copy. */
  source: string;
  /** Source offsets of the link in the message text (Markdown copy treats the chip as one piece). */
  sourceStart?: number | undefined;
  sourceEnd?: number | undefined;
};

/**
 * A sent citation in a user message: a read-only chip linking to the cited source text
 * (`/<environmentId>/<threadId>#assistant-citation=<base64url>`). Its label is the comment when
 * present, else a quote preview; with a comment a short quote preview follows as a separate
 * part, the accessible description holds the full quote and comment, and a small disclosure
 * button beside the chip shows both in full (no hover needed). A plain click navigates client-side with a fresh activation id;
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
  const { label, quotePreview, description, title } = citationChipText(citation);
  const detailsId = useId();
  // The full quote and comment, readable without hovering (touch, keyboard): a disclosure.
  const [expanded, setExpanded] = useState(false);
  const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
    if (!navigate || event.defaultPrevented || event.button !== 0) return;
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    navigate(citation, event.currentTarget);
  };
  return (
    <span className="citation-chip-group">
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
        title={title}
        aria-label={`${citationScopeLabel(scope)}: ${label}`}
        aria-description={description}
        onClick={onClick}
      >
        <span className="citation-chip__kind" aria-hidden="true">
          ❝
        </span>
        <span className="citation-chip__label">{label}</span>
        {quotePreview !== null ? (
          <span className="citation-chip__quote" aria-hidden="true">
            {quotePreview}
          </span>
        ) : null}
        {scope === "local" ? null : (
          <span className="citation-chip__elsewhere" aria-hidden="true">
            {scope === "other-thread" ? "↗" : "⊘"}
          </span>
        )}
      </a>
      <button
        type="button"
        className="citation-chip__more"
        aria-expanded={expanded}
        aria-controls={detailsId}
        aria-label={expanded ? "Hide full quote" : "Show full quote"}
        title={expanded ? "Hide full quote" : "Show full quote"}
        onClick={() => setExpanded((open) => !open)}
      >
        <span aria-hidden="true">{expanded ? "▴" : "▾"}</span>
      </button>
      {expanded ? (
        <span id={detailsId} className="citation-chip__details" data-text-stream="skip">
          <span className="citation-chip__details-quote">{citation.text}</span>
          {chipComment(citation) !== null ? (
            <span className="citation-chip__details-comment">Comment: {chipComment(citation)}</span>
          ) : null}
        </span>
      ) : null}
    </span>
  );
}
