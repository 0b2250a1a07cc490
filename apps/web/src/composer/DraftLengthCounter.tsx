import { type DraftLengthTracker, useDraftLengthStatus } from "./useDraftLength.ts";

/** Props of {@link DraftLengthCounter}. */
export type DraftLengthCounterProps = {
  tracker: DraftLengthTracker;
  /** Id of the reason line, which the disabled Send button points to (`aria-describedby`). */
  reasonId: string;
};

/**
 * "118,432 / 120,000" from 90% of the limit; "1,234 over" and the reason Send is disabled once
 * over it. Renders nothing for shorter drafts. Re-renders on its own, never the composer.
 */
export function DraftLengthCounter({ tracker, reasonId }: DraftLengthCounterProps) {
  const status = useDraftLengthStatus(tracker);
  if (status.kind === "quiet") return null;
  return (
    <div className="composer-length" data-composer-length={status.kind}>
      <span className="composer-length__count">{status.label}</span>
      {status.kind === "over" ? (
        <span id={reasonId} className="composer-length__reason" aria-live="polite">
          {status.reason}
        </span>
      ) : null}
    </div>
  );
}
