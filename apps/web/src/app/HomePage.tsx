import type { Thread } from "@app/protocol";
import { useNavigate } from "@tanstack/react-router";
import { Suspense, useCallback, useEffect, useRef } from "react";
import { createThread, sendTurn } from "../api/client.ts";
import { registerActiveComposer } from "../composer/activeComposer.ts";
import type { ComposerHandle } from "../composer/Composer.tsx";
import { requestComposerFocus } from "../thread/composerFocusRequest.ts";
// The same lazily loaded composer as a thread's (ThreadComposer.tsx says why it is one).
import { ComposerPlaceholder, StableComposer } from "../thread/ThreadComposer.tsx";
import {
  leaveComposer,
  onNewThreadRequest,
  takeNewThreadRequest,
} from "../threads/newThreadRequest.ts";
import { refreshThreadList } from "../threads/threadList.ts";
import { shownComposer } from "./skipToComposer.ts";

/**
 * The home composer's draft key (`composer:draft:v1:home`): not a thread id, so a draft started
 * here survives a reload and never mixes with a thread's draft.
 */
export const HOME_COMPOSER_ID = "home";

const noQuestion = null;
const noAnswer = async () => {};

/**
 * `/`: on wide screens the sidebar lists threads; the main pane welcomes the user and offers a
 * composer. Sending from it creates a thread with that first prompt and opens it.
 */
export function HomePage() {
  const navigate = useNavigate();
  // A thread created by a send that then failed is reused by the next attempt, so retrying
  // never leaves empty threads behind.
  const created = useRef<Thread | null>(null);
  const composerRef = useRef<ComposerHandle | null>(null);
  const pageRef = useRef<HTMLDivElement>(null);
  // "New thread" lands here with the composer focused, whether the chunk loads before or after.
  // The composer is shown only after the request's render (narrow screens), so focus waits a frame.
  const focusIfRequested = useCallback(() => {
    if (!composerRef.current || !takeNewThreadRequest()) return;
    const handle = composerRef.current;
    requestAnimationFrame(() => handle.focus());
  }, []);
  // The page opens with its composer focused when it is shown (wide screens: beside the list).
  const setComposer = useCallback((handle: ComposerHandle | null) => {
    composerRef.current = handle;
    if (handle === null) return;
    if (takeNewThreadRequest() || shownComposer(pageRef.current ?? undefined) !== null) {
      handle.focus();
    }
  }, []);
  useEffect(() => onNewThreadRequest(focusIfRequested), [focusIfRequested]);
  useEffect(() => registerActiveComposer(() => composerRef.current), []);
  // Leaving home ends the narrow screen's composing: coming back shows the list.
  useEffect(() => leaveComposer, []);

  const onSend = useCallback(
    async (prompt: string) => {
      const thread = created.current ?? (await createThread());
      created.current = thread;
      await sendTurn(thread.id, prompt);
      created.current = null;
      // Listed only now, from the server: it lists a thread from its first message, already
      // titled from it (the same transaction).
      void refreshThreadList();
      // The home composer goes away with this page: the thread's composer takes focus.
      requestComposerFocus(thread.id);
      void navigate({
        to: "/$environmentId/$threadId",
        params: { environmentId: thread.environmentId, threadId: thread.id },
      });
    },
    [navigate],
  );

  return (
    <div className="home" ref={pageRef}>
      <button type="button" className="button home__back" onClick={leaveComposer}>
        ← Threads
      </button>
      <div className="home__card">
        <h1>Chat with the assistant</h1>
        <p>
          Ask anything below to start a new thread, or pick one from the list. Select text in any
          reply to quote it in your next message.
        </p>
      </div>
      <div className="home__composer">
        <Suspense fallback={<ComposerPlaceholder />}>
          <StableComposer
            threadId={HOME_COMPOSER_ID}
            pendingUserInput={noQuestion}
            onSend={onSend}
            onAnswer={noAnswer}
            ref={setComposer}
          />
        </Suspense>
      </div>
    </div>
  );
}
