/**
 * Code-based, typed routes: `/` (thread list) and `/$environmentId/$threadId` (a thread). The
 * URL hash is reserved for citation navigation (`#assistant-citation=...`); nothing else uses it.
 */
import { createRootRoute, createRoute, createRouter } from "@tanstack/react-router";
import { AppShell } from "./AppShell.tsx";
import { HomePage } from "./HomePage.tsx";
import { NotFound } from "./NotFound.tsx";
import { ThreadRoute } from "./ThreadRoute.tsx";

const rootRoute = createRootRoute({ component: AppShell, notFoundComponent: NotFound });

/** `/`: the thread list and "New thread". */
export const indexRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/",
  component: HomePage,
});

/** `/$environmentId/$threadId`: one thread. */
export const threadRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/$environmentId/$threadId",
  component: ThreadRoute,
});

const routeTree = rootRoute.addChildren([indexRoute, threadRoute]);

/** Creates the app router (a function so tests can make a fresh one with memory history). */
export function createAppRouter(
  options: { history?: Parameters<typeof createRouter>[0]["history"] } = {},
) {
  return createRouter({
    routeTree,
    // The hash belongs to citation navigation; never let the router scroll to it by element id.
    scrollRestoration: false,
    defaultHashScrollIntoView: false,
    ...(options.history ? { history: options.history } : {}),
  });
}

/** The app's router instance type. */
export type AppRouter = ReturnType<typeof createAppRouter>;

declare module "@tanstack/react-router" {
  interface Register {
    router: AppRouter;
  }
}
