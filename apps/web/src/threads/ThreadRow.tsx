/**
 * One thread in the sidebar: its link, and its menu (**Rename thread**, **Delete thread**).
 * F2 on the focused link renames in place: a textbox named **Rename thread**, Enter saves,
 * Escape cancels (focus goes back to the link either way).
 */
import type { Thread } from "@app/protocol";
import { Link } from "@tanstack/react-router";
import { type KeyboardEvent, useEffect, useId, useRef, useState } from "react";
import { createPortal } from "react-dom";
import { focusThreadLinkSoon } from "./focusThreadLink.ts";
import { formatUpdatedAt } from "./formatUpdatedAt.ts";

export type ThreadRowProps = {
  thread: Thread;
  onRename(thread: Thread, title: string): Promise<void>;
  onDelete(thread: Thread): void;
};

export function ThreadRow({ thread, onRename, onDelete }: ThreadRowProps) {
  const [renaming, setRenaming] = useState(false);
  const [menuOpen, setMenuOpen] = useState(false);
  const [menuAt, setMenuAt] = useState<{ top: number; right: number } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const linkRef = useRef<HTMLAnchorElement>(null);
  const menuButtonRef = useRef<HTMLButtonElement>(null);
  const menuRef = useRef<HTMLDivElement>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const menuId = `thread-menu-${useId().replace(/[^a-zA-Z0-9_-]/g, "")}`;

  useEffect(() => {
    if (!renaming) return;
    inputRef.current?.focus();
    inputRef.current?.select();
  }, [renaming]);

  useEffect(() => {
    if (!menuOpen) return;
    menuRef.current?.querySelector<HTMLElement>('[role="menuitem"]')?.focus();
    const onPointer = (event: PointerEvent) => {
      const target = event.target as Node;
      if (!menuRef.current?.contains(target) && !menuButtonRef.current?.contains(target)) {
        setMenuOpen(false);
      }
    };
    document.addEventListener("pointerdown", onPointer);
    return () => document.removeEventListener("pointerdown", onPointer);
  }, [menuOpen]);

  const startRename = () => {
    setMenuOpen(false);
    setError(null);
    setRenaming(true);
  };
  const endRename = () => {
    setRenaming(false);
    // Found again by id: a saved title re-renders the windowed list, which can move this row to
    // another container, leaving `linkRef` on an element that is gone (focus fell to <body>).
    focusThreadLinkSoon(thread.id);
  };
  const save = async (title: string) => {
    if (title.trim() === "" || title.trim() === thread.title) return endRename();
    try {
      await onRename(thread, title);
      endRename();
    } catch (cause) {
      setError(cause instanceof Error ? cause.message : String(cause));
    }
  };

  const onLinkKeyDown = (event: KeyboardEvent) => {
    if (event.key === "F2") {
      event.preventDefault();
      startRename();
    }
  };
  const onInputKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === "Enter") {
      event.preventDefault();
      void save(event.currentTarget.value);
    } else if (event.key === "Escape") {
      event.preventDefault();
      endRename();
    }
  };
  const onMenuKeyDown = (event: KeyboardEvent) => {
    const items = [...(menuRef.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])];
    const index = items.indexOf(document.activeElement as HTMLElement);
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      const step = event.key === "ArrowDown" ? 1 : -1;
      items[(index + step + items.length) % items.length]?.focus();
    } else if (event.key === "Escape" || event.key === "Tab") {
      if (event.key === "Escape") event.preventDefault();
      setMenuOpen(false);
      menuButtonRef.current?.focus();
    }
  };

  return (
    <div className="thread-list__row" data-thread-row={thread.id}>
      {renaming ? (
        <div className="thread-list__rename">
          <input
            ref={inputRef}
            className="thread-list__rename-input"
            aria-label="Rename thread"
            defaultValue={thread.title}
            maxLength={200}
            onKeyDown={onInputKeyDown}
            onBlur={(event) => void save(event.currentTarget.value)}
          />
          {error !== null ? (
            <span className="thread-list__rename-error" role="alert">
              {error}
            </span>
          ) : null}
        </div>
      ) : (
        <Link
          ref={linkRef}
          to="/$environmentId/$threadId"
          params={{ environmentId: thread.environmentId, threadId: thread.id }}
          className="thread-list__item"
          activeProps={{ className: "thread-list__item is-active", "aria-current": "page" }}
          data-thread-id={thread.id}
          aria-keyshortcuts="F2"
          onKeyDown={onLinkKeyDown}
        >
          <span className="thread-list__title">{thread.title}</span>
          <span className="thread-list__meta">
            {formatUpdatedAt(thread.updatedAt)}
            {thread.messageCount > 0
              ? ` · ${thread.messageCount} ${thread.messageCount === 1 ? "message" : "messages"}`
              : ""}
          </span>
        </Link>
      )}
      <button
        ref={menuButtonRef}
        type="button"
        className="thread-list__menu-button"
        aria-label="Thread actions"
        title={`Actions for “${thread.title}”`}
        aria-haspopup="menu"
        aria-expanded={menuOpen}
        aria-controls={menuOpen ? menuId : undefined}
        onClick={(event) => {
          // Fixed beside the button, above every row (the list positions its rows itself).
          const rect = event.currentTarget.getBoundingClientRect();
          setMenuAt({ top: rect.bottom + 2, right: window.innerWidth - rect.right });
          setMenuOpen((open) => !open);
        }}
      >
        <span aria-hidden="true">⋯</span>
      </button>
      {menuOpen && menuAt !== null
        ? createPortal(
            <div
              ref={menuRef}
              id={menuId}
              role="menu"
              aria-label="Thread actions"
              className="thread-list__menu"
              style={{ top: menuAt.top, right: menuAt.right }}
              onKeyDown={onMenuKeyDown}
            >
              <button type="button" role="menuitem" tabIndex={-1} onClick={startRename}>
                Rename thread
              </button>
              <button
                type="button"
                role="menuitem"
                tabIndex={-1}
                onClick={() => {
                  setMenuOpen(false);
                  onDelete(thread);
                }}
              >
                Delete thread
              </button>
            </div>,
            document.body,
          )
        : null}
    </div>
  );
}
