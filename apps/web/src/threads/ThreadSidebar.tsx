import { Link, useNavigate } from "@tanstack/react-router";
import { useEffect } from "react";
import { requestNewThread } from "./newThreadRequest.ts";
import { refreshThreadList, useThreadList } from "./threadList.ts";

const relativeTime = new Intl.RelativeTimeFormat(undefined, { numeric: "auto" });

/** "5 minutes ago"-style label for a thread's last update. */
export function formatUpdatedAt(iso: string, now = Date.now()): string {
  const then = Date.parse(iso);
  if (Number.isNaN(then)) return "";
  const seconds = Math.round((then - now) / 1000);
  const steps: [Intl.RelativeTimeFormatUnit, number][] = [
    ["second", 60],
    ["minute", 60],
    ["hour", 24],
    ["day", 7],
    ["week", 4.35],
    ["month", 12],
  ];
  let value = seconds;
  for (const [unit, size] of steps) {
    if (Math.abs(value) < size) return relativeTime.format(Math.round(value), unit);
    value /= size;
  }
  return relativeTime.format(Math.round(value), "year");
}

/** The thread list with the "New thread" button. */
export function ThreadSidebar() {
  const list = useThreadList();
  const navigate = useNavigate();

  useEffect(() => {
    void refreshThreadList();
  }, []);

  // A draft, not a thread: the home composer creates the thread on its first send.
  const onNewThread = () => {
    requestNewThread();
    void navigate({ to: "/" });
  };

  return (
    <aside className="sidebar">
      <div className="sidebar__top">
        <Link to="/" className="brand">
          <span className="brand__mark" aria-hidden="true">
            ◆
          </span>
          Chat
        </Link>
        <button type="button" className="button button--primary" onClick={onNewThread}>
          New thread
        </button>
      </div>
      <nav className="thread-list" aria-label="Threads">
        {list.status === "error" && list.error ? (
          <div className="notice notice--error" role="alert">
            Could not load threads: {list.error.message}
            <button type="button" className="link-button" onClick={() => void refreshThreadList()}>
              Retry
            </button>
          </div>
        ) : null}
        {list.status === "loading" && list.threads.length === 0 ? (
          <p className="thread-list__hint" aria-live="polite">
            Loading threads…
          </p>
        ) : null}
        {list.status === "ready" && list.threads.length === 0 ? (
          <p className="thread-list__hint">No threads yet.</p>
        ) : null}
        <ul>
          {list.threads.map((thread) => (
            <li key={thread.id}>
              <Link
                to="/$environmentId/$threadId"
                params={{ environmentId: thread.environmentId, threadId: thread.id }}
                className="thread-list__item"
                activeProps={{ className: "thread-list__item is-active", "aria-current": "page" }}
                data-thread-id={thread.id}
              >
                <span className="thread-list__title">{thread.title}</span>
                <span className="thread-list__meta">
                  {formatUpdatedAt(thread.updatedAt)}
                  {thread.messageCount > 0
                    ? ` · ${thread.messageCount} ${thread.messageCount === 1 ? "message" : "messages"}`
                    : ""}
                </span>
              </Link>
            </li>
          ))}
        </ul>
      </nav>
    </aside>
  );
}
