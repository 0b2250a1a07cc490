/**
 * The React face of every composer chip. Memoized: Lexical re-decorates only chips that are
 * created or changed, and an unchanged label never re-renders.
 */
import { memo } from "react";

/** Props of {@link ComposerChip}. */
export type ComposerChipProps = {
  kind: "mention" | "skill" | "citation";
  label: string;
  /** Full text for the tooltip (the path, skill name or quote). */
  title: string;
  /**
   * A visibly separate, secondary part after the label (a citation's quote preview beside its
   * comment). Not part of the accessible name: the description carries the full quote.
   */
  secondary?: string | null;
  /** The chip's accessible description (a citation's full quote and comment). */
  description?: string;
  /**
   * Makes the chip a focusable, button-like control that opens a dialog (the citation comment
   * editor). Its accessible name stays the visible label. Clicks and keys are handled by the
   * editor plugin that owns the dialog, not here, so the face stays a plain memoized span.
   */
  actionable?: boolean;
};

/** A non-editable inline pill; the data attribute lives on the Lexical host span. */
export const ComposerChip = memo(function ComposerChip({
  kind,
  label,
  title,
  secondary = null,
  description,
  actionable = false,
}: ComposerChipProps) {
  return (
    <span
      className={`composer-chip composer-chip--${kind}`}
      title={title}
      role={actionable ? "button" : undefined}
      tabIndex={actionable ? 0 : undefined}
      aria-haspopup={actionable ? "dialog" : undefined}
      // aria-description: no hidden text in the page for the quote (text searches, copy).
      aria-description={description}
    >
      <span className="composer-chip__label">{label}</span>
      {secondary !== null ? (
        <span className="composer-chip__quote" aria-hidden="true">
          {secondary}
        </span>
      ) : null}
    </span>
  );
});
