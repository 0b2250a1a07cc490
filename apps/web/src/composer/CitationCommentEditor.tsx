/**
 * The citation comment editor: a small fixed popover with one textarea named "Comment on quote"
 * (Enter saves, Shift+Enter adds a line, Escape cancels). It sits beside the cited source text
 * while the transient source range is live, painting the "editing" highlight on it, and beside
 * the chip otherwise (`useCitationCommentPlacement.ts`). It owns no citation state: `CitationCommentPlugin` decides what saving
 * means. Mount one per editing session (keyed), portalled out of the Lexical root.
 */
import { ASSISTANT_CITATION_MAX_COMMENT_LENGTH } from "@app/citations";
import { type JSX, useEffect, useId, useRef } from "react";
import { wrapTabFocus } from "../ui/wrapTabFocus.ts";
import {
  type CitationSourceLink,
  useCitationCommentPlacement,
} from "./useCitationCommentPlacement.ts";

/** The accessible name of the comment textbox (DESIGN.md section 6). */
export const COMMENT_ON_QUOTE_LABEL = "Comment on quote";

/** Props of {@link CitationCommentEditor}. */
export type CitationCommentEditorProps = {
  /** The full quoted text, shown above the textbox for context. */
  quote: string;
  value: string;
  /** Why the last save failed (shown, and the editor stays open), or null. */
  error: string | null;
  /** The cited text in the response, if the request carried it. */
  source: CitationSourceLink | null;
  /** The chip's element, the fallback anchor. */
  getChipElement(): HTMLElement | null;
  onChange(value: string): void;
  /** Enter or the Save button. */
  onSave(): void;
  /** Escape or the Cancel button. */
  onCancel(): void;
  /** A pointer press outside, or focus moving elsewhere in the page: keep what was typed. */
  onDismiss(): void;
};

/** The popover; see the module doc. */
export function CitationCommentEditor(props: CitationCommentEditorProps): JSX.Element {
  const { quote, value, error, source, onChange, onSave, onCancel } = props;
  const latest = useRef(props);
  latest.current = props;
  const rootRef = useRef<HTMLDivElement | null>(null);
  const textareaRef = useRef<HTMLTextAreaElement | null>(null);
  const layout = useCitationCommentPlacement(rootRef, source, props.getChipElement);
  const hintId = useId();
  const errorId = useId();

  // Focus once placed: a `visibility: hidden` element cannot take focus.
  const placed = layout !== null;
  const focusedOnce = useRef(false);
  useEffect(() => {
    const textarea = textareaRef.current;
    if (!placed || textarea === null || focusedOnce.current) return;
    focusedOnce.current = true;
    textarea.focus({ preventScroll: true });
    textarea.setSelectionRange(textarea.value.length, textarea.value.length);
  }, [placed]);

  // Pressing anywhere else keeps the typed comment and closes the editor.
  useEffect(() => {
    const onPointerDown = (event: PointerEvent) => {
      const target = event.target;
      if (target instanceof Node && rootRef.current?.contains(target)) return;
      latest.current.onDismiss();
    };
    document.addEventListener("pointerdown", onPointerDown, true);
    return () => document.removeEventListener("pointerdown", onPointerDown, true);
  }, []);

  return (
    <div
      ref={rootRef}
      role="dialog"
      aria-label="Edit quote comment"
      className="composer-citation-editor"
      data-composer-citation-editor=""
      data-anchor={layout?.anchor ?? "none"}
      style={{
        left: layout?.x ?? 0,
        top: layout?.y ?? 0,
        visibility: layout === null ? "hidden" : undefined,
      }}
      aria-modal="true"
      onKeyDown={(event) => {
        // Focus stays inside while the editor is open: Tab wraps around its controls, and
        // Escape cancels from any of them (the textarea handles its own keys first).
        if (event.key === "Escape") {
          event.preventDefault();
          event.nativeEvent.stopPropagation();
          onCancel();
          return;
        }
        wrapTabFocus(event, event.currentTarget, "textarea, button:not([disabled])");
      }}
      onBlur={(event) => {
        // Focus moving to another control keeps the comment; a window switch (no related
        // target) leaves the editor open.
        const next = event.relatedTarget;
        if (next instanceof Node && !event.currentTarget.contains(next)) {
          latest.current.onDismiss();
        }
      }}
    >
      <blockquote className="composer-citation-editor__quote" title={quote}>
        {quote}
      </blockquote>
      <textarea
        ref={textareaRef}
        className="composer-citation-editor__input"
        aria-label={COMMENT_ON_QUOTE_LABEL}
        aria-describedby={error !== null ? `${errorId} ${hintId}` : hintId}
        aria-invalid={error !== null ? true : undefined}
        placeholder="Add a comment (optional)"
        rows={3}
        maxLength={ASSISTANT_CITATION_MAX_COMMENT_LENGTH}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === "Enter" && !event.shiftKey) {
            // Enter that confirms an IME composition is not a save.
            if (event.nativeEvent.isComposing || event.keyCode === 229) return;
            event.preventDefault();
            onSave();
          } else if (event.key === "Escape") {
            event.preventDefault();
            // Escape here belongs to the editor, not to page-level handlers behind it.
            event.nativeEvent.stopPropagation();
            event.stopPropagation();
            onCancel();
          }
        }}
      />
      {error !== null && (
        <p id={errorId} className="composer-citation-editor__error" aria-live="assertive">
          {error}
        </p>
      )}
      <div className="composer-citation-editor__footer">
        <p id={hintId} className="composer-citation-editor__hint">
          Enter to save · Shift+Enter for a new line · Esc to cancel
        </p>
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
        <button type="button" className="composer-citation-editor__save" onClick={onSave}>
          Save
        </button>
      </div>
    </div>
  );
}
