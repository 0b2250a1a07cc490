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
};

/** A non-editable inline pill; the data attribute lives on the Lexical host span. */
export const ComposerChip = memo(function ComposerChip({ kind, label, title }: ComposerChipProps) {
  return (
    <span className={`composer-chip composer-chip--${kind}`} title={title}>
      {label}
    </span>
  );
});
