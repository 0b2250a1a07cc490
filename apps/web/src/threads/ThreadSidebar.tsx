/**
 * The sidebar: **Search all threads** (a textbox that opens the search dialog, as Ctrl/Cmd+K
 * does anywhere), **New thread**, and the thread list: a windowed Legend List that loads the
 * next page as it nears the end, so its first paint does not grow with the number of threads.
 * Each row has its menu (rename, delete); a delete shows a status with **Undo**.
 */
import type { Thread } from "@app/protocol";
import { LegendList, type LegendListRenderItemProps } from "@legendapp/list/react";
import { Link, useMatchRoute, useNavigate } from "@tanstack/react-router";
import { useCallback, useEffect, useState } from "react";
import { renameThread } from "../api/client.ts";
import { subscribeThreadListEvents } from "../api/threadListEvents.ts";
import { requestNewThread } from "./newThreadRequest.ts";
import "./threads.css";
import { SearchAllDialog } from "./SearchAllDialog.tsx";
import { ThreadRow } from "./ThreadRow.tsx";
import {
  applyStreamedThreadListChanges,
  loadMoreThreads,
  refreshThreadList,
  upsertThreadInList,
  useThreadList,
} from "./threadList.ts";
import { useThreadDeletion } from "./useThreadDeletion.ts";

export { formatUpdatedAt } from "./formatUpdatedAt.ts";

/** Ctrl/Cmd+K (without other modifiers). */
function isSearchAllShortcut(event: KeyboardEvent): boolean {
  return (
    (event.ctrlKey || event.metaKey) &&
    !event.altKey &&
    !event.shiftKey &&
    event.key.toLowerCase() === "k"
  );
}

const keyExtractor = (thread: Thread) => thread.id;

/** The thread list with search and "New thread". */
export function ThreadSidebar() {
  const list = useThreadList();
  const navigate = useNavigate();
  const matchRoute = useMatchRoute();
  const [search, setSearch] = useState<{ query: string; returnFocus: Element | null } | null>(null);

  useEffect(() => {
    void refreshThreadList();
    // Changes made elsewhere arrive live; a reconnect or the tab coming back reads the first
    // page again, in case the stream missed some.
    const closeStream = subscribeThreadListEvents({
      onChanges: applyStreamedThreadListChanges,
      onReconnected: () => void refreshThreadList(),
    });
    const onFocus = () => void refreshThreadList();
    window.addEventListener("focus", onFocus);
    return () => {
      closeStream();
      window.removeEventListener("focus", onFocus);
    };
  }, []);

  const openSearch = useCallback((query: string) => {
    setSearch((open) => open ?? { query, returnFocus: document.activeElement });
  }, []);
  const closeSearch = useCallback((options?: { restoreFocus: boolean }) => {
    setSearch((open) => {
      const back = open?.returnFocus;
      // Not after Cite: it focuses the composer itself, and this later frame would take focus
      // back to the opener (the sidebar's search box).
      if (options?.restoreFocus !== false) {
        requestAnimationFrame(() => {
          if (back instanceof HTMLElement && back.isConnected && back !== document.body) {
            back.focus();
          }
        });
      }
      return null;
    });
  }, []);

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.isComposing || !isSearchAllShortcut(event)) return;
      event.preventDefault();
      openSearch("");
    };
    document.addEventListener("keydown", onKeyDown);
    return () => document.removeEventListener("keydown", onKeyDown);
  }, [openSearch]);

  const onDeletedOpenThread = useCallback(
    (thread: Thread) => {
      const open = matchRoute({
        to: "/$environmentId/$threadId",
        params: { environmentId: thread.environmentId, threadId: thread.id },
      });
      if (open) void navigate({ to: "/" });
    },
    [matchRoute, navigate],
  );
  const deletion = useThreadDeletion(onDeletedOpenThread);

  const onRename = useCallback(async (thread: Thread, title: string) => {
    upsertThreadInList(await renameThread(thread.id, title));
  }, []);

  const renderItem = useCallback(
    ({ item }: LegendListRenderItemProps<Thread>) => (
      <ThreadRow thread={item} onRename={onRename} onDelete={deletion.remove} />
    ),
    [onRename, deletion.remove],
  );

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
      <div className="sidebar__search">
        <input
          type="text"
          className="sidebar__search-input"
          aria-label="Search all threads"
          placeholder="Search all threads"
          aria-keyshortcuts="Control+K Meta+K"
          aria-haspopup="dialog"
          value=""
          onChange={(event) => openSearch(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === "Enter" || event.key === "ArrowDown") {
              event.preventDefault();
              openSearch("");
            }
          }}
          onClick={() => openSearch("")}
        />
      </div>
      {deletion.pending !== null ? (
        <div className="notice thread-list__deleted" role="status">
          {deletion.pending.error !== null
            ? `Could not delete or restore “${deletion.pending.thread.title}”: ${deletion.pending.error}`
            : `Deleted “${deletion.pending.thread.title}”.`}{" "}
          {deletion.pending.error === null ? (
            <button type="button" className="button" onClick={deletion.undo}>
              Undo
            </button>
          ) : (
            <button type="button" className="link-button" onClick={deletion.dismiss}>
              Dismiss
            </button>
          )}
        </div>
      ) : null}
      <nav className="thread-list" aria-label="Threads" data-thread-list>
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
        {list.threads.length > 0 ? (
          <LegendList<Thread>
            className="thread-list__scroller"
            style={{ height: "100%" }}
            data={list.threads as Thread[]}
            keyExtractor={keyExtractor}
            renderItem={renderItem}
            estimatedItemSize={56}
            drawDistance={400}
            onEndReached={() => void loadMoreThreads()}
            onEndReachedThreshold={1}
          />
        ) : null}
        {list.loadingMore ? (
          <p className="thread-list__hint" aria-live="polite">
            Loading more threads…
          </p>
        ) : null}
      </nav>
      {search !== null ? (
        <SearchAllDialog initialQuery={search.query} onClose={closeSearch} />
      ) : null}
    </aside>
  );
}
