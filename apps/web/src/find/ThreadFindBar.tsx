/**
 * The find bar (DESIGN.md section 6): a textbox named **Find in thread**, the live polite count
 * ("3 of 17"), **Previous match** / **Next match** (Shift+Enter / Enter), the match case and
 * whole words options, **Cite match** (Alt+Shift+Q) and Close (Escape). Floats at the top right
 * of the thread on wide screens; on a phone it is a one-line sheet right above the composer (and
 * so above the on-screen keyboard). State and behaviour live in `useThreadFind.ts`.
 */
import type { KeyboardEvent } from "react";
import { CITE_SHORTCUT } from "../citations/selection/citeShortcut.ts";
import { ANSWERS_ONLY_HINT } from "../citations/selection/selectionHint.ts";
import type { ThreadFind } from "./useThreadFind.ts";
import "./threadFind.css";
import { FindOptionSwitches } from "./FindOptionSwitches.tsx";

/** Props of {@link ThreadFindBar}. */
export type ThreadFindBarProps = { find: ThreadFind };

/** See the module doc; closed, it is one small button at the header's end (touch screens have no Ctrl+F). */
export function ThreadFindBar({ find }: ThreadFindBarProps) {
  if (!find.open) {
    return (
      <button
        type="button"
        className="thread-find-toggle"
        aria-label="Search this thread"
        aria-keyshortcuts="Control+F Meta+F"
        title="Find in thread (Ctrl+F)"
        onClick={find.show}
      >
        <svg viewBox="0 0 20 20" width="16" height="16" aria-hidden="true">
          <circle cx="8.5" cy="8.5" r="5.5" fill="none" stroke="currentColor" strokeWidth="2" />
          <path d="M12.5 12.5 17 17" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
        </svg>
      </button>
    );
  }
  const { options, current } = find;
  const citable = current !== null && current.role === "assistant";
  const citeNote = current === null ? "No match to cite." : citable ? null : ANSWERS_ONLY_HINT;
  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    if (event.key === "Escape") {
      event.preventDefault();
      event.stopPropagation();
      find.close();
    }
  };
  const onInputKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key !== "Enter" || event.nativeEvent.isComposing) return;
    event.preventDefault();
    find.submit(event.shiftKey);
  };
  const speaker = current?.role === "user" ? "your message" : "an answer";
  return (
    <search ref={find.barRef} className="thread-find" onKeyDown={onKeyDown} data-thread-find>
      <input
        ref={find.inputRef}
        className="thread-find__input"
        type="text"
        aria-label="Find in thread"
        placeholder="Find in thread"
        value={find.input}
        onChange={(event) => find.setInput(event.target.value)}
        onKeyDown={onInputKeyDown}
        aria-describedby={current ? find.descriptionId : undefined}
        aria-keyshortcuts="Control+F Meta+F"
        spellCheck={false}
        autoComplete="off"
        maxLength={200}
      />
      <span className="thread-find__count" aria-live="polite" data-find-count>
        {find.notice ?? find.count}
      </span>
      <FindOptionSwitches options={options} onChange={find.setOptions} block="thread-find" />
      <button
        type="button"
        className="thread-find__step"
        aria-label="Previous match"
        aria-keyshortcuts="Shift+Enter"
        title="Previous match (Shift+Enter)"
        disabled={!find.hasMatches}
        onClick={find.previous}
      >
        <span aria-hidden="true">↑</span>
      </button>
      <button
        type="button"
        className="thread-find__step"
        aria-label="Next match"
        aria-keyshortcuts="Enter"
        title="Next match (Enter)"
        disabled={!find.hasMatches}
        onClick={find.next}
      >
        <span aria-hidden="true">↓</span>
      </button>
      <button
        type="button"
        className="thread-find__cite"
        aria-label="Cite match"
        aria-keyshortcuts={CITE_SHORTCUT}
        aria-disabled={!citable || undefined}
        aria-describedby={citeNote === null ? undefined : `${find.descriptionId}-cite`}
        title={citeNote ?? `Cite match (${CITE_SHORTCUT})`}
        onClick={() => {
          if (citable) find.citeMatch("pointer");
        }}
      >
        {/* On a phone the visible label is "Cite" (the name stays "Cite match"). */}
        Cite<span className="thread-find__cite-rest"> match</span>
      </button>
      <button
        type="button"
        className="thread-find__close"
        aria-label="Close find"
        aria-keyshortcuts="Escape"
        title="Close (Escape)"
        onClick={find.close}
      >
        <span aria-hidden="true">×</span>
      </button>
      <span className="visually-hidden" id={`${find.descriptionId}-cite`}>
        {citeNote}
      </span>
      <span className="visually-hidden" id={find.descriptionId}>
        {current && find.matchedText !== null
          ? `Current match, in ${speaker}: ${find.matchedText}`
          : ""}
      </span>
    </search>
  );
}
