/**
 * Comment editing for citation chips. The editor opens only on request: once for a citation
 * the composer handle just inserted (`insertCitation`), or when the user clicks a chip or
 * presses Enter/Space on it. Restores, pastes, draft loads and undo/redo never make a request,
 * so they never open it.
 *
 * Saving applies `withAssistantCitationComment` and updates the node's citation and serialized
 * source in one discrete update tagged as its own history entry, so one undo restores the
 * previous comment. Saving an unchanged text changes nothing (the link keeps its bytes).
 *
 * Clicks and keys on a focused chip (open, remove, step over) are `citationChipKeys.ts`.
 */
import {
  type AssistantCitation,
  serializeAssistantCitation,
  withAssistantCitationComment,
} from "@app/citations";
import { useLexicalComposerContext } from "@lexical/react/LexicalComposerContext";
import {
  $addUpdateTag,
  $getNodeByKey,
  HISTORY_PUSH_TAG,
  mergeRegister,
  type NodeKey,
} from "lexical";
import { type JSX, useCallback, useEffect, useRef, useState } from "react";
import { createPortal } from "react-dom";
import { CitationCommentEditor } from "../CitationCommentEditor.tsx";
import { $isComposerCitationNode, ComposerCitationNode } from "../nodes/ComposerCitationNode.tsx";
import type { CitationSourceLink } from "../useCitationCommentPlacement.ts";
import { $selectAfterChip, registerCitationChipKeys } from "./citationChipKeys.ts";

/** Imperative side of the plugin, used by the composer handle. */
export type CitationCommentController = {
  /**
   * Opens the comment editor for the citation chip `nodeKey` (a one-shot request: nothing is
   * remembered afterwards). `source` carries the live DOM range of the cited text, used only to
   * position the editor and paint the editing highlight. Returns false when there is no such chip.
   */
  open(nodeKey: NodeKey, source?: CitationSourceLink | null): boolean;
  /** Saves and closes an open editor without moving focus (call before rebuilding the prompt). */
  commit(): void;
};

/** Props of {@link CitationCommentPlugin}. */
export type CitationCommentPluginProps = {
  controllerRef: { current: CitationCommentController | null };
  /** Where the editor is portalled; defaults to `document.body`. */
  container?: Element;
};

type Session = {
  id: number;
  nodeKey: NodeKey;
  quote: string;
  /** The textarea's starting text; saving it unchanged is a no-op. */
  initial: string;
  source: CitationSourceLink | null;
};

function errorText(error: unknown): string {
  const detail = error instanceof Error ? error.message : String(error);
  return `This comment cannot be saved: ${detail}`;
}

/** Mount inside the LexicalComposer; renders the comment editor while one is open. */
export function CitationCommentPlugin({
  controllerRef,
  container,
}: CitationCommentPluginProps): JSX.Element | null {
  const [editor] = useLexicalComposerContext();
  const [session, setSession] = useState<Session | null>(null);
  const [value, setValue] = useState("");
  const [error, setError] = useState<string | null>(null);
  // Mirrors of the state for synchronous use from DOM listeners and the composer handle.
  const sessionRef = useRef<Session | null>(null);
  const valueRef = useRef("");
  const nextId = useRef(1);

  const close = useCallback(() => {
    sessionRef.current = null;
    setSession(null);
    setError(null);
  }, []);

  /**
   * Moves focus back into the composer and runs `$update` (which places the caret) in one
   * discrete update. The root is focused first, so the caret set by the update is the one that
   * stays (focusing an editing host afterwards may move the DOM selection to its start).
   */
  const focusComposer = useCallback(
    (nodeKey: NodeKey, $update: (node: ComposerCitationNode) => void) => {
      const node = editor.getEditorState().read(() => $getNodeByKey(nodeKey), { editor });
      if (!$isComposerCitationNode(node)) return;
      editor.getRootElement()?.focus({ preventScroll: true });
      editor.update(
        () => {
          const latest = $getNodeByKey(nodeKey);
          if ($isComposerCitationNode(latest) && latest.isAttached()) $update(latest);
        },
        { discrete: true },
      );
    },
    [editor],
  );

  /** Applies the typed comment and closes; false (editor stays open) when it cannot be saved. */
  const save = useCallback(
    (returnFocus: boolean): boolean => {
      const current = sessionRef.current;
      if (current === null) return true;
      const text = valueRef.current;
      let next: AssistantCitation | null = null;
      if (text !== current.initial) {
        const citation = editor.getEditorState().read(() => {
          const node = $getNodeByKey(current.nodeKey);
          return $isComposerCitationNode(node) ? node.getCitation() : null;
        });
        if (citation !== null) {
          next = withAssistantCitationComment(citation, text);
          try {
            // Validate before touching the editor: a comment over the limit stays editable.
            serializeAssistantCitation(next);
          } catch (failure) {
            setError(errorText(failure));
            return false;
          }
        }
      }
      close();
      const $apply = (node: ComposerCitationNode) => {
        if (next !== null) {
          // Citation and serialized source change together, as their own undo step.
          node.setCitation(next);
          $addUpdateTag(HISTORY_PUSH_TAG);
        }
        if (returnFocus) $selectAfterChip(node);
      };
      if (returnFocus) {
        focusComposer(current.nodeKey, $apply);
      } else if (next !== null) {
        editor.update(
          () => {
            const node = $getNodeByKey(current.nodeKey);
            if ($isComposerCitationNode(node) && node.isAttached()) $apply(node);
          },
          { discrete: true },
        );
      }
      return true;
    },
    [close, editor, focusComposer],
  );

  const cancel = useCallback(() => {
    const current = sessionRef.current;
    if (current === null) return;
    close();
    focusComposer(current.nodeKey, $selectAfterChip);
  }, [close, focusComposer]);

  const open = useCallback(
    (nodeKey: NodeKey, source: CitationSourceLink | null = null): boolean => {
      if (sessionRef.current !== null) save(false);
      const chip = editor.getEditorState().read(() => {
        const node = $getNodeByKey(nodeKey);
        return $isComposerCitationNode(node) && node.isAttached() ? node.getCitation() : null;
      });
      if (chip === null) return false;
      const initial = chip.comment ?? "";
      const next: Session = {
        id: nextId.current++,
        nodeKey,
        quote: chip.text,
        initial,
        // A private copy: the caller's range (often the selection's own) may change later.
        source: source === null ? null : { ...source, range: source.range.cloneRange() },
      };
      sessionRef.current = next;
      valueRef.current = initial;
      setSession(next);
      setValue(initial);
      setError(null);
      return true;
    },
    [editor, save],
  );

  useEffect(() => {
    controllerRef.current = { open, commit: () => void save(false) };
    return () => {
      controllerRef.current = null;
    };
  }, [controllerRef, open, save]);

  useEffect(() => {
    return mergeRegister(
      registerCitationChipKeys(editor, { open: (key) => void open(key), focusComposer }),
      // A chip removed while its editor is open (undo, send, rebuild) closes the editor.
      editor.registerMutationListener(
        ComposerCitationNode,
        (mutations) => {
          const current = sessionRef.current;
          if (current !== null && mutations.get(current.nodeKey) === "destroyed") close();
        },
        { skipInitialization: true },
      ),
    );
  }, [close, editor, focusComposer, open]);

  if (session === null) return null;
  return createPortal(
    <CitationCommentEditor
      key={session.id}
      quote={session.quote}
      value={value}
      error={error}
      source={session.source}
      getChipElement={() => editor.getElementByKey(session.nodeKey)}
      onChange={(next) => {
        valueRef.current = next;
        setValue(next);
        setError(null);
      }}
      onSave={() => save(true)}
      onCancel={cancel}
      onDismiss={() => save(false)}
    />,
    container ?? document.body,
  );
}
