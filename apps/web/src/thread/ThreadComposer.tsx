/**
 * The thread's composer slot: a placeholder of the same size until the composer's chunk (Lexical)
 * is wanted, then the memoized composer. It waits for the timeline's first rows and an idle
 * browser, so opening a long thread shows messages first.
 */
import { lazy, memo, type Ref, Suspense, useCallback, useEffect, useState } from "react";
import type { ComposerHandle, ComposerProps } from "../composer/Composer.tsx";
import { useIdleOnce } from "./useIdleOnce.ts";

// The composer (Lexical) loads as its own chunk so the timeline is not waiting on its code, and
// never re-renders for timeline updates: its props are stable callbacks and ids. The home page
// renders this same lazy component: once loaded there, a thread opened by the first send (or a
// branch) mounts its composer in the same commit, with no fallback shown, so it can take focus
// before a key is lost (React holds back a Suspense reveal by up to 300 ms).
export const StableComposer = memo(
  lazy(() => import("../composer/Composer.tsx").then((module) => ({ default: module.Composer }))),
);

/**
 * Holds the composer's place until it mounts, with the same box sizes (an empty input and a row
 * with one button), so the timeline above does not change height when the composer arrives.
 */
export function ComposerPlaceholder() {
  return (
    <div className="composer-placeholder-box" aria-hidden="true">
      <div className="composer-placeholder-box__input" />
      <div className="composer-placeholder-box__actions">
        <span className="composer-placeholder-box__button">Send</span>
      </div>
    </div>
  );
}

/**
 * The composer's place on a thread that does not exist: a disabled **Message** textbox that says
 * why, and no Send (nothing can be sent there).
 */
export function DisabledComposer({ reason }: { reason: string }) {
  return (
    <div className="composer-placeholder-box">
      <textarea
        className="composer-placeholder-box__input composer-placeholder-box__input--disabled"
        aria-label="Message"
        disabled
        rows={1}
        value={reason}
        readOnly
      />
    </div>
  );
}

/**
 * Whether the composer may mount, and the timeline's `onLoad` that lets it. A thread with no
 * messages, or one that failed to load, gets it at once; a safety timer covers a list that never
 * reports its layout.
 */
export function useComposerReady(
  loadStatus: "loading" | "ready" | "error",
  messageCount: number,
): { composerReady: boolean; onTimelineLoad: () => void } {
  const [timelineLaidOut, setTimelineLaidOut] = useState(false);
  const onTimelineLoad = useCallback(() => setTimelineLaidOut(true), []);
  const loaded = loadStatus !== "loading";
  useEffect(() => {
    if (!loaded) return;
    const timer = setTimeout(onTimelineLoad, 1500);
    return () => clearTimeout(timer);
  }, [loaded, onTimelineLoad]);
  const composerReady = useIdleOnce(
    loaded && (timelineLaidOut || loadStatus === "error" || messageCount === 0),
  );
  return { composerReady, onTimelineLoad };
}

/** Props of {@link ThreadComposer}. */
export type ThreadComposerProps = Pick<
  ComposerProps,
  "threadId" | "pendingUserInput" | "onSend" | "onAnswer"
> & { ready: boolean; composerRef: Ref<ComposerHandle> };

/** The placeholder, then (once `ready`) the lazily loaded composer. */
export function ThreadComposer({ ready, composerRef, ...props }: ThreadComposerProps) {
  // Mounted after the first messages (see useComposerReady), so it never delays them.
  if (!ready) return <ComposerPlaceholder />;
  return (
    <Suspense fallback={<ComposerPlaceholder />}>
      <StableComposer ref={composerRef} {...props} />
    </Suspense>
  );
}
