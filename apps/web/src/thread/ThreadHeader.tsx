/**
 * The thread's header (back link, title, branch) and the notices under it (reconnecting, a link
 * naming another environment). The document title follows the thread's title.
 */
import type { Thread } from "@app/protocol";
import { Link } from "@tanstack/react-router";
import { useEffect } from "react";
import { threadExportUrl } from "../api/client.ts";

/** Props of {@link ThreadHeader}. */
export type ThreadHeaderProps = {
  title: string;
  thread: Thread | null;
  /** The environment named in the URL. */
  environmentId: string;
  reconnecting: boolean;
};

/** Header and connection/environment notices of one thread. */
export function ThreadHeader({ title, thread, environmentId, reconnecting }: ThreadHeaderProps) {
  useEffect(() => {
    document.title = `${title} · Chat`;
    return () => {
      document.title = "Chat";
    };
  }, [title]);

  const wrongEnvironment = thread !== null && thread.environmentId !== environmentId;
  return (
    <>
      <header className="thread-header">
        <Link to="/" className="thread-header__back">
          <span aria-hidden="true">←</span> Threads
        </Link>
        <h1 className="thread-header__title">{title}</h1>
        {thread?.branchName ? (
          <span className="thread-header__branch" title="Branch name">
            {thread.branchName}
          </span>
        ) : null}
        {thread !== null ? (
          <a
            className="button thread-header__export"
            href={threadExportUrl(thread.id)}
            download="export.md"
          >
            {/* On a phone only "Export" shows, so the title keeps the room; the name stays whole. */}
            Export<span className="thread-header__export-more"> as Markdown</span>
          </a>
        ) : null}
      </header>

      {reconnecting ? (
        <div className="notice notice--warning thread-view__notice" role="status">
          Reconnecting…
        </div>
      ) : null}
      {wrongEnvironment ? (
        <div className="notice notice--warning thread-view__notice" role="status">
          This link names environment {environmentId}, but the thread belongs to{" "}
          {thread?.environmentId}.
        </div>
      ) : null}
    </>
  );
}
