import { Outlet, useMatchRoute } from "@tanstack/react-router";
import { type MouseEvent, useCallback, useSyncExternalStore } from "react";
import { isComposing, onComposingChange } from "../threads/newThreadRequest.ts";
import { ThreadSidebar } from "../threads/ThreadSidebar.tsx";
import { skipToComposer } from "./skipToComposer.ts";

/**
 * Root layout: the **Skip to composer** link (first Tab stop), the thread sidebar beside the
 * routed main pane (one `main` landmark on every screen). Narrow screens show one pane at a
 * time (`data-view`): the list at home, the composer once **New thread** asks for it, a thread.
 */
export function AppShell() {
  const matchRoute = useMatchRoute();
  const inThread = Boolean(matchRoute({ to: "/$environmentId/$threadId" }));
  const composing = useSyncExternalStore(onComposingChange, isComposing);
  // The URL hash belongs to citation navigation: the link focuses instead of navigating.
  const onSkip = useCallback(
    (event: MouseEvent<HTMLAnchorElement>) => {
      event.preventDefault();
      skipToComposer(!inThread);
    },
    [inThread],
  );
  return (
    <div className="app" data-view={inThread ? "thread" : composing ? "compose" : "home"}>
      {/* biome-ignore lint/a11y/useValidAnchor: a skip link is a link; the hash is citation navigation's, so it focuses instead. */}
      <a className="skip-link" href="#composer" onClick={onSkip}>
        Skip to composer
      </a>
      <ThreadSidebar />
      <main className="app__main">
        <Outlet />
      </main>
    </div>
  );
}
