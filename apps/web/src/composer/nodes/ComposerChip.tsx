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
  actionable = false,
}: ComposerChipProps) {
  return (
    <span
      className={`composer-chip composer-chip--${kind}`}
      title={title}
      role={actionable ? "button" : undefined}
      tabIndex={actionable ? 0 : undefined}
      aria-haspopup={actionable ? "dialog" : undefined}
    >
      {label}
    </span>
  );
});
