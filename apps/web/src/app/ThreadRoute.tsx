import { getRouteApi } from "@tanstack/react-router";
import { ThreadView } from "../thread/ThreadView.tsx";

const route = getRouteApi("/$environmentId/$threadId");

/** Route component: a fresh ThreadView per thread id, so state never leaks between threads. */
export function ThreadRoute() {
  const { environmentId, threadId } = route.useParams();
  return <ThreadView key={threadId} environmentId={environmentId} threadId={threadId} />;
}
