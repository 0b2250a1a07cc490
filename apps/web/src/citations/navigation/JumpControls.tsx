/**
 * The way back and forward after a jump, as Slack and Discord offer it: **Back to where you
 * were** (after a chip click; it is the browser's Back, so both return to the clicked chip) and
 * **Jump to latest** (while a detached window of older history is shown, or the reader is away
 * from the end; one step back to the newest messages). A strip between the timeline and the
 * composer, shown only while they apply (so it never covers message text), of compact one-line
 * pills; it resizes the timeline, so the away-from-end it follows holds still while a pointer is
 * pressed in the timeline (useFollowPolicy.ts).
 */
import { memo } from "react";

/** Props of {@link JumpControls}. */
export type JumpControlsProps = {
  /** Show "Back to where you were". */
  canGoBack: boolean;
  /** Show "Jump to latest". */
  showJumpToLatest: boolean;
  onBack(): void;
  onJumpToLatest(): void;
};

/** The floating jump buttons; renders nothing when neither applies. */
export const JumpControls = memo(function JumpControls({
  canGoBack,
  showJumpToLatest,
  onBack,
  onJumpToLatest,
}: JumpControlsProps) {
  if (!canGoBack && !showJumpToLatest) return null;
  return (
    <div className="jump-controls">
      {canGoBack ? (
        <button type="button" className="jump-controls__button" onClick={onBack}>
          <span aria-hidden="true">↩ </span>Back to where you were
        </button>
      ) : null}
      {showJumpToLatest ? (
        <button
          type="button"
          className="jump-controls__button jump-controls__button--latest"
          onClick={onJumpToLatest}
          aria-label="Jump to latest"
          title="Jump to latest"
        >
          <span aria-hidden="true">↓</span>
        </button>
      ) : null}
    </div>
  );
});
