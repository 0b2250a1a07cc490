/**
 * The `@` file typeahead. While the caret sits right after `@partial`, it asks `searchFiles`
 * (debounced; only the latest request's answer is shown) and lists the files in a listbox.
 * ArrowUp/ArrowDown move, Enter or Tab pick (the `@partial` word becomes a mention chip followed
 * by a space), Escape closes the list until the caret leaves that `@` word.
 */

import { findMentionQuery, tokenizePrompt } from "@app/markdown";
import { useLexicalComposerContext } from "@lexical/react/LexicalComposerContext";
import {
  $createTextNode,
  $getNodeByKey,
  $getSelection,
  $isLineBreakNode,
  $isRangeSelection,
  $isTextNode,
  COMMAND_PRIORITY_CRITICAL,
  KEY_ARROW_DOWN_COMMAND,
  KEY_ARROW_UP_COMMAND,
  KEY_ENTER_COMMAND,
  KEY_ESCAPE_COMMAND,
  KEY_TAB_COMMAND,
  mergeRegister,
} from "lexical";
import { type JSX, useCallback, useEffect, useId, useRef, useState } from "react";
import { $createMentionNode } from "../nodes/MentionNode.tsx";
import { PROMPT_REBUILD_TAG } from "../promptEditorState.ts";

/** How long typing must pause before the file list is requested. */
export const MENTION_SEARCH_DEBOUNCE_MS = 120;
/** How many files the list shows at most. */
export const MENTION_SEARCH_LIMIT = 20;

/** The `@word` under the caret. */
type MentionMatch = { nodeKey: string; start: number; query: string };

/** What the composer needs to wire ARIA on the editor. */
export type MentionTypeaheadState = {
  listboxId: string;
  activeOptionId: string | null;
  open: boolean;
};

/** Props of {@link MentionTypeaheadPlugin}. */
export type MentionTypeaheadPluginProps = {
  searchFiles(query: string, signal: AbortSignal): Promise<string[]>;
  onStateChange?(state: MentionTypeaheadState): void;
};

/** Reads the `@word` before a collapsed caret, if any. */
function $readMatch(): MentionMatch | null {
  const selection = $getSelection();
  if (
    !$isRangeSelection(selection) ||
    !selection.isCollapsed() ||
    selection.anchor.type !== "text"
  ) {
    return null;
  }
  const node = selection.anchor.getNode();
  if (!$isTextNode(node)) return null;
  const prev = node.getPreviousSibling();
  const prevText = prev === null || $isLineBreakNode(prev) ? "" : prev.getTextContent();
  const found = findMentionQuery(
    node.getTextContent(),
    selection.anchor.offset,
    prevText.slice(-1),
  );
  return found === null ? null : { nodeKey: node.getKey(), start: found.start, query: found.query };
}

function sameMatch(a: MentionMatch | null, b: MentionMatch | null): boolean {
  return (
    a === b ||
    (a !== null &&
      b !== null &&
      a.nodeKey === b.nodeKey &&
      a.start === b.start &&
      a.query === b.query)
  );
}

/** Mount inside the LexicalComposer; renders the listbox when there are matches. */
export function MentionTypeaheadPlugin({
  searchFiles,
  onStateChange,
}: MentionTypeaheadPluginProps): JSX.Element | null {
  const [editor] = useLexicalComposerContext();
  const listboxId = useId();
  const [match, setMatch] = useState<MentionMatch | null>(null);
  const [options, setOptions] = useState<string[]>([]);
  const [active, setActive] = useState(0);
  const [dismissed, setDismissed] = useState<string | null>(null);
  const searchRef = useRef(searchFiles);
  searchRef.current = searchFiles;

  // Track the `@word` under the caret; cheap (one text node), and state changes only when the
  // match itself changes.
  useEffect(
    () =>
      editor.registerUpdateListener(({ editorState }) => {
        const next = editorState.read($readMatch);
        setMatch((current) => (sameMatch(current, next) ? current : next));
      }),
    [editor],
  );

  const matchId = match === null ? null : `${match.nodeKey}:${match.start}`;
  useEffect(() => {
    if (dismissed !== null && dismissed !== matchId) setDismissed(null);
  }, [dismissed, matchId]);

  // Debounced search; aborting the previous request makes the latest one win.
  const query = match?.query ?? null;
  useEffect(() => {
    if (query === null) {
      setOptions([]);
      return;
    }
    const controller = new AbortController();
    const timer = setTimeout(() => {
      searchRef.current(query, controller.signal).then(
        (files) => {
          if (controller.signal.aborted) return;
          setOptions(files.slice(0, MENTION_SEARCH_LIMIT));
          setActive(0);
        },
        () => {
          if (!controller.signal.aborted) setOptions([]);
        },
      );
    }, MENTION_SEARCH_DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [query]);

  const open = match !== null && dismissed !== matchId && options.length > 0;
  const activeIndex = Math.min(active, Math.max(options.length - 1, 0));
  const activeOptionId = open ? `${listboxId}-option-${activeIndex}` : null;

  useEffect(() => {
    onStateChange?.({ listboxId, activeOptionId, open });
  }, [onStateChange, listboxId, activeOptionId, open]);

  const pick = useCallback(
    (path: string) => {
      if (match === null) return;
      editor.update(
        () => {
          const node = $getNodeByKey(match.nodeKey);
          if (!$isTextNode(node)) return;
          const text = node.getTextContent();
          // Replace `@partial` up to the caret; text after the caret is kept (after a space).
          const wordEnd = match.start + 1 + match.query.length;
          const before = text.slice(0, match.start);
          const after = text.slice(wordEnd);
          const tail = $createTextNode(/^\s/.test(after) ? after : ` ${after}`);
          // A path the tokenizer would read differently (e.g. with spaces) stays plain text, so
          // the chip always matches what the prompt string re-tokenizes to.
          const [token, ...rest] = tokenizePrompt(`@${path}`);
          const chippable = token?.kind === "mention" && token.path === path && rest.length === 0;
          const mention = chippable ? $createMentionNode(path) : $createTextNode(`@${path}`);
          node.insertAfter(mention);
          mention.insertAfter(tail);
          if (before === "") node.remove();
          else node.setTextContent(before);
          tail.select(1, 1);
        },
        { tag: PROMPT_REBUILD_TAG },
      );
      setOptions([]);
    },
    [editor, match],
  );

  // Keyboard handling while open; CRITICAL so it runs before Enter-to-send.
  const stateRef = useRef({ open, options, activeIndex, pick, matchId });
  stateRef.current = { open, options, activeIndex, pick, matchId };
  useEffect(() => {
    const move = (delta: number) => (event: KeyboardEvent | null) => {
      const state = stateRef.current;
      if (!state.open) return false;
      event?.preventDefault();
      setActive((state.activeIndex + delta + state.options.length) % state.options.length);
      return true;
    };
    const choose = (event: KeyboardEvent | null) => {
      const state = stateRef.current;
      const path = state.options[state.activeIndex];
      if (!state.open || path === undefined) return false;
      // Shift+Enter keeps its meaning (a new line); the list closes as the caret leaves `@partial`.
      if (event?.key === "Enter" && event.shiftKey) return false;
      event?.preventDefault();
      state.pick(path);
      return true;
    };
    return mergeRegister(
      editor.registerCommand(KEY_ARROW_DOWN_COMMAND, move(1), COMMAND_PRIORITY_CRITICAL),
      editor.registerCommand(KEY_ARROW_UP_COMMAND, move(-1), COMMAND_PRIORITY_CRITICAL),
      editor.registerCommand(KEY_ENTER_COMMAND, choose, COMMAND_PRIORITY_CRITICAL),
      editor.registerCommand(KEY_TAB_COMMAND, choose, COMMAND_PRIORITY_CRITICAL),
      editor.registerCommand(
        KEY_ESCAPE_COMMAND,
        (event) => {
          const state = stateRef.current;
          if (!state.open) return false;
          event?.preventDefault();
          setDismissed(state.matchId);
          return true;
        },
        COMMAND_PRIORITY_CRITICAL,
      ),
    );
  }, [editor]);

  if (!open) return null;
  return (
    <div className="composer-typeahead">
      <div id={listboxId} role="listbox" aria-label="Files" className="composer-typeahead__list">
        {options.map((path, index) => (
          // biome-ignore lint/a11y/useKeyWithClickEvents: the keyboard drives the list from the editor (aria-activedescendant)
          <div
            key={path}
            id={`${listboxId}-option-${index}`}
            role="option"
            tabIndex={-1}
            aria-selected={index === activeIndex}
            className={
              index === activeIndex
                ? "composer-typeahead__option is-active"
                : "composer-typeahead__option"
            }
            // Keep focus (and the caret) in the editor while clicking.
            onMouseDown={(event) => event.preventDefault()}
            onClick={() => pick(path)}
          >
            {path}
          </div>
        ))}
      </div>
    </div>
  );
}
