/** The timeline's edges: the older-history header and the newer-history footer, with Retry. */
import type { ApiError } from "../api/client.ts";

/** A history page that failed to load, at either edge, with Retry. */
function EdgeError({
  what,
  error,
  onRetry,
}: {
  what: "earlier" | "newer";
  error: ApiError;
  onRetry(): void;
}) {
  return (
    <div className="timeline-edge" role="alert">
      Could not load {what} messages: {error.message}{" "}
      <button type="button" className="link-button" onClick={onRetry}>
        Retry
      </button>
    </div>
  );
}

/** The top edge: loading, an error, or "Beginning of thread". */
export function OlderHeader({
  reachedStart,
  loading,
  error,
  onRetry,
  empty,
}: {
  reachedStart: boolean;
  loading: boolean;
  error: ApiError | null;
  onRetry(): void;
  empty: boolean;
}) {
  if (error) return <EdgeError what="earlier" error={error} onRetry={onRetry} />;
  if (loading) {
    return (
      <div className="timeline-edge" aria-live="polite">
        Loading earlier messages…
      </div>
    );
  }
  if (reachedStart && !empty) {
    return (
      <div className="timeline-edge timeline-edge--start" data-timeline-start>
        Beginning of thread
      </div>
    );
  }
  return <div className="timeline-edge" />;
}

/** The bottom edge of a detached window: loading newer messages, or an error. */
export function NewerFooter({
  reachedEnd,
  loading,
  error,
  onRetry,
}: {
  reachedEnd: boolean;
  loading: boolean;
  error: ApiError | null;
  onRetry(): void;
}) {
  if (reachedEnd) return null;
  if (error) return <EdgeError what="newer" error={error} onRetry={onRetry} />;
  // Always the same height, loading or not, so rows above do not move when it changes.
  return (
    <div className="timeline-edge" aria-live="polite">
      {loading ? "Loading newer messages…" : ""}
    </div>
  );
}
