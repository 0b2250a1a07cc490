import { Outlet, useMatchRoute } from "@tanstack/react-router";
import { ThreadSidebar } from "../threads/ThreadSidebar.tsx";

/** Root layout: thread sidebar beside the routed main pane (stacked on narrow screens). */
export function AppShell() {
  const matchRoute = useMatchRoute();
  const inThread = Boolean(matchRoute({ to: "/$environmentId/$threadId" }));
  return (
    <div className="app" data-view={inThread ? "thread" : "home"}>
      <ThreadSidebar />
      <main className="app__main">
        <Outlet />
      </main>
    </div>
  );
}
