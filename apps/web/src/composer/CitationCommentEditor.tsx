/**
 * The citation comment editor: a small fixed popover with one textarea named "Comment on quote"
 * (Enter saves, Shift+Enter adds a line, Escape cancels). It sits beside the cited source text
 * while the transient source range is live, painting the "editing" highlight on it, and beside
 * the chip otherwise. It owns no citation state: `CitationCommentPlugin` decides what saving
 * means. Mount one per editing session (keyed), portalled out of the Lexical root.
 */
import { ASSISTANT_CITATION_MAX_COMMENT_LENGTH } from "@app/citations";
import { computePosition, flip, offset, type Rect, shift } from "@floating-ui/dom";
import { type JSX, useEffect, useId, useLayoutEffect, useRef, useState } from "react";
import { areaAbove, FLOATING_MARGIN } from "../ui/floatingPlacement.ts";
import { isLiveSourceRange, sourceMessageOf } from "../ui/liveSourceRange.ts";
import { measureSourceRange, paintCitationEditingHighlight } from "./citationEditingHighlight.ts";

/** The accessible name of the comment textbox (DESIGN.md section 6). */
export const COMMENT_ON_QUOTE_LABEL = "Comment on quote";

/** The cited text in the response: a live DOM range, and optionally a way to find it again. */
export type CitationSourceLink = {
  range: Range;
  /**
   * Called when the range went stale (its row re-rendered): returns a fresh range for the same
   * text, or null. Errors count as null.
   */
  repair?(): Range | null;
};

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

/** An anchor rectangle in viewport coordinates. */
type AnchorRect = { left: number; top: number; right: number; bottom: number };

/** Space between the anchor and the popover, in CSS pixels. */
const COMMENT_EDITOR_GAP = 6;

/** The composer's box: the editor stays above it. */
const COMPOSER_SELECTOR = ".composer";

/** With nothing to anchor on: a point centred near the bottom of the area. */
function fallbackRect(area: Rect | null): DOMRect {
  const width = area?.width ?? window.innerWidth;
  const bottom = area !== null ? area.y + area.height : window.innerHeight;
  return DOMRect.fromRect({ x: width / 2, y: bottom - FLOATING_MARGIN, width: 0, height: 0 });
}

/** Where the popover is, what it is beside, and the live source range to highlight (if any). */
type Layout = { x: number; y: number; anchor: "source" | "chip" | "none"; range: Range | null };

function sameLayout(a: Layout | null, b: Layout): boolean {
  return a !== null && a.x === b.x && a.y === b.y && a.anchor === b.anchor && a.range === b.range;
}

/** A fresh live range from `repair`, or null (a throwing repair counts as none). */
function repaired(source: CitationSourceLink | null, messageId: string | null): Range | null {
  try {
    const range = source?.repair?.() ?? null;
    return range !== null && isLiveSourceRange(range, messageId) ? range.cloneRange() : null;
  } catch {
    return null;
  }
}

/** Where to anchor: the live source text when it can be measured, else the chip. */
function anchorFor(
  sourceRange: Range | null,
  messageId: string | null,
  chip: HTMLElement | null,
): { rect: AnchorRect | null; anchor: Layout["anchor"]; sourceLive: boolean } {
  const sourceLive = sourceRange !== null && isLiveSourceRange(sourceRange, messageId);
  const sourceRect = sourceLive ? measureSourceRange(sourceRange) : null;
  if (sourceRect !== null) return { rect: sourceRect, anchor: "source", sourceLive };
  if (chip?.isConnected) return { rect: chip.getBoundingClientRect(), anchor: "chip", sourceLive };
  return { rect: null, anchor: "none", sourceLive };
}

/** The popover; see the module doc. */
export function CitationCommentEditor(props: CitationCommentEditorProps): JSX.Element {
  const { quote, value, error, source, onChange, onSave, onCancel } = props;
  const latest = useRef(props);
  latest.current = props;
  const rootRef = useRef<HTMLDivElement | null>(null);
  // The current source range: the request's, or a repaired one once that went stale.
  const rangeRef = useRef<Range | null>(source?.range ?? null);
  // Whose text the range covers, so a row reused for another message does not count as live.
  const sourceIdRef = useRef<string | null>(source?.range ? sourceMessageOf(source.range) : null);
  const textareaRef = useRef<HTMLTextAreaElement | null>(null);
  const [layout, setLayout] = useState<Layout | null>(null);
  const hintId = useId();
  const errorId = useId();

  // Position before paint, and again when anything scrolls, the window resizes or the page
  // changes while there is source text (its row may scroll away or re-render: the range is
  // repaired if possible, else the editor moves beside the chip). Floating UI places it below
  // its anchor, flips it above when there is no room, and shifts it to stay inside the viewport
  // and above the composer, which it must never cover.
  useLayoutEffect(() => {
    let frame = 0;
    let disposed = false;
    const place = () => {
      frame = 0;
      const element = rootRef.current;
      if (element === null) return;
      let range = rangeRef.current;
      if (range !== null && !isLiveSourceRange(range, sourceIdRef.current)) {
        range = repaired(latest.current.source, sourceIdRef.current) ?? range;
        rangeRef.current = range;
      }
      const chip = latest.current.getChipElement();
      const { rect, anchor, sourceLive } = anchorFor(range, sourceIdRef.current, chip);
      const area = areaAbove(
        chip?.closest(COMPOSER_SELECTOR) ?? document.querySelector(COMPOSER_SELECTOR),
      );
      const reference = {
        getBoundingClientRect: () =>
          rect === null
            ? fallbackRect(area)
            : DOMRect.fromRect({
                x: rect.left,
                y: rect.top,
                width: rect.right - rect.left,
                height: rect.bottom - rect.top,
              }),
      };
      // A first guess right away (below the anchor), so the editor is shown and focusable in
      // this same update; Floating UI's exact placement follows before the next paint.
      const guess = reference.getBoundingClientRect();
      const first: Layout = {
        x: Math.round(guess.left),
        y: Math.round(guess.bottom + COMMENT_EDITOR_GAP),
        anchor,
        range: sourceLive ? range : null,
      };
      setLayout((current) => (current === null ? first : current));
      void computePosition(reference, element, {
        strategy: "fixed",
        placement: anchor === "chip" ? "top-start" : "bottom-start",
        middleware: [
          offset(COMMENT_EDITOR_GAP),
          flip({ boundary: area ?? "clippingAncestors", padding: FLOATING_MARGIN }),
          shift({
            boundary: area ?? "clippingAncestors",
            padding: FLOATING_MARGIN,
            crossAxis: true,
          }),
        ],
      }).then(({ x, y }) => {
        if (disposed) return;
        const next: Layout = {
          x: Math.round(x),
          y: Math.round(y),
          anchor,
          range: sourceLive ? range : null,
        };
        setLayout((current) => (sameLayout(current, next) ? current : next));
      });
    };
    const schedule = () => {
      if (frame === 0) frame = requestAnimationFrame(place);
    };
    place();
    window.addEventListener("resize", schedule);
    window.addEventListener("scroll", schedule, { capture: true, passive: true });
    // Only while there is source text to follow; at most one re-placement per frame.
    const observer = rangeRef.current !== null ? new MutationObserver(schedule) : null;
    observer?.observe(document.body, { childList: true, subtree: true, characterData: true });
    return () => {
      disposed = true;
      observer?.disconnect();
      if (frame !== 0) cancelAnimationFrame(frame);
      window.removeEventListener("resize", schedule);
      window.removeEventListener("scroll", schedule, { capture: true });
    };
  }, []);

  // The editing highlight lives exactly as long as the editor is open on live source text. A
  // layout effect: it changes in the same commit as the placement, so no frame shows the editor
  // beside the chip with a stale highlight still painted (a passive effect ran a tick later).
  const highlighted = layout?.range ?? null;
  useLayoutEffect(() => {
    if (highlighted === null) return;
    return paintCitationEditingHighlight(highlighted);
  }, [highlighted]);

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
        if (event.key !== "Tab") return;
        const focusables = [
          ...event.currentTarget.querySelectorAll<HTMLElement>("textarea, button:not([disabled])"),
        ];
        const first = focusables[0];
        const last = focusables.at(-1);
        if (first === undefined || last === undefined) return;
        if (event.shiftKey && document.activeElement === first) {
          event.preventDefault();
          last.focus();
        } else if (!event.shiftKey && document.activeElement === last) {
          event.preventDefault();
          first.focus();
        }
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
