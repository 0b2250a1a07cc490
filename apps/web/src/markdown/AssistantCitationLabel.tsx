import {
  ASSISTANT_CITATION_LABEL,
  type AssistantCitation,
  getAssistantCitationChipLabel,
} from "@app/citations";

/** Props for {@link AssistantCitationLabel}. */
export type AssistantCitationLabelProps = { citation: AssistantCitation; href: string };

/**
 * Read-only, non-interactive rendering of a sent citation: the label plus a short preview of
 * the quote (or its comment). Pure text, never a link. A later issue replaces this with the
 * navigable AssistantCitationChip at the same extension point (MarkdownLink).
 */
export function AssistantCitationLabel({ citation, href }: AssistantCitationLabelProps) {
  const preview = getAssistantCitationChipLabel(citation);
  return (
    <span className="citation-label" data-assistant-citation-href={href} title={citation.text}>
      <span className="citation-label__kind">{ASSISTANT_CITATION_LABEL}</span>
      <span className="citation-label__quote">{preview}</span>
    </span>
  );
}
