/**
 * The message composer: a Lexical plain-text editor whose content is one prompt string, with
 * mention/skill/citation chips derived from that string, per-thread drafts, a stash, the `@`
 * file typeahead, client-side limit checks, and answering pending user-input questions.
 * See README.md beside this file for the DOM contract.
 */
import {
  type AssistantCitation,
  serializeAssistantCitation,
  validateProviderInput,
} from "@app/citations";
import type { UserInputRequest } from "@app/protocol";
import { LexicalComposer } from "@lexical/react/LexicalComposer";
import { useLexicalComposerContext } from "@lexical/react/LexicalComposerContext";
import { ContentEditable } from "@lexical/react/LexicalContentEditable";
import { LexicalErrorBoundary } from "@lexical/react/LexicalErrorBoundary";
import { HistoryPlugin } from "@lexical/react/LexicalHistoryPlugin";
import { PlainTextPlugin } from "@lexical/react/LexicalPlainTextPlugin";
import {
  $createPoint,
  $getNodeByKey,
  $getSelection,
  $isRangeSelection,
  HISTORY_MERGE_TAG,
  type LexicalEditor,
  type NodeKey,
  type PointType,
} from "lexical";
import {
  type JSX,
  type Ref,
  useCallback,
  useEffect,
  useImperativeHandle,
  useMemo,
  useRef,
  useState,
} from "react";
import { listFiles } from "../api/client.ts";
import {
  isStashStorageKey,
  loadDraft,
  loadStashes,
  newStashId,
  type StashedDraft,
  saveDraft,
  saveStashes,
  stashPreview,
} from "./composerStorage.ts";
import { $isComposerCitationNode, ComposerCitationNode } from "./nodes/ComposerCitationNode.tsx";
import { MentionNode } from "./nodes/MentionNode.tsx";
import { SkillNode } from "./nodes/SkillNode.tsx";
import {
  type CitationCommentController,
  CitationCommentPlugin,
} from "./plugins/CitationCommentPlugin.tsx";
import { ClipboardPlugin } from "./plugins/ClipboardPlugin.tsx";
import {
  MentionTypeaheadPlugin,
  type MentionTypeaheadState,
} from "./plugins/MentionTypeaheadPlugin.tsx";
import { PromptTokensPlugin } from "./plugins/PromptTokensPlugin.tsx";
import { SubmitOnEnterPlugin } from "./plugins/SubmitOnEnterPlugin.tsx";
import {
  $getChipAtPromptOffset,
  $getPromptOffsetsForPoints,
  $getPromptText,
  $getSelectionPromptOffsets,
  $isPromptEmpty,
  $replacePromptRange,
  $setPromptText,
  PROMPT_REBUILD_TAG,
  type PromptSelectionOffsets,
} from "./promptEditorState.ts";
import "./composer.css";

/** Props of {@link Composer}. */
export type ComposerProps = {
  threadId: string;
  /** The provider's open question, answered from the composer while non-null. */
  pendingUserInput: UserInputRequest | null;
  /** Sends a prompt; a rejection (ApiError) keeps the draft and shows the error. */
  onSend(prompt: string): Promise<void>;
  /** Answers `pendingUserInput`; a rejection keeps the draft and shows the error. */
  onAnswer(requestId: string, answers: Record<string, string>): Promise<void>;
  /** File search for the `@` typeahead (defaults to `GET /api/files`). */
  searchFiles?(query: string, signal: AbortSignal): Promise<string[]>;
  ref?: Ref<ComposerHandle>;
};

/** Options of {@link ComposerHandle.insertCitation}. */
export type InsertCitationOptions = {
  /**
   * Live DOM range of the cited text in the assistant response. Transient: it only positions
   * the comment editor beside the source text and carries its "editing" highlight while the
   * editor is open; it never becomes part of the citation. A range whose nodes have since been
   * detached (the row re-rendered) falls back to positioning beside the chip.
   */
  sourceRange?: Range;
  /**
   * Finds the cited text again when `sourceRange` went stale while the editor is open (e.g.
   * `resolveAssistantCitationRange` on the re-rendered message body); null when it cannot.
   * Without it, a stale range falls back to the chip.
   */
  repairSourceRange?(): Range | null;
  /**
   * False to skip the one-shot comment editor and leave focus in the composer right after the
   * new chip (citing from the keyboard). Default true.
   */
  openCommentEditor?: boolean;
};

/** Imperative handle of the composer. */
export type ComposerHandle = {
  /** Focuses the editor. */
  focus(): void;
  /**
   * Inserts prompt text (e.g. a serialized citation link) at the last composer cursor, even
   * after the editor lost focus; chips are rebuilt from the resulting prompt string.
   */
  insertPromptText(text: string): void;
  /**
   * Inserts `citation` as a chip (its serialized link) at the last composer cursor, with a
   * space before and after where needed so it stays a separate token, then opens the comment
   * editor for that chip once. Nothing else (restore, paste, drafts, undo/redo) opens it.
   *
   * @throws Error (with the editor unchanged) when `citation` is not a valid citation.
   */
  insertCitation(citation: AssistantCitation, opts?: InsertCitationOptions): void;
};

/** Delay between the last edit and saving the draft. */
export const DRAFT_SAVE_DEBOUNCE_MS = 250;

const defaultSearchFiles = (query: string, signal: AbortSignal): Promise<string[]> =>
  listFiles(query, 20, signal);

/** A readable message for a failed send or answer. */
function errorMessage(error: unknown): string {
  if (error instanceof Error && error.message) return error.message;
  if (typeof error === "object" && error !== null && "message" in error) {
    const message = (error as { message: unknown }).message;
    if (typeof message === "string" && message) return message;
  }
  return "Something went wrong. Your message is still in the composer.";
}

type SavedPoint = { key: string; offset: number; type: "text" | "element" };

/**
 * Hands the editor to the composer and reports edits. The last range selection is kept as
 * points (O(1) per update) and mapped to prompt offsets only when text is inserted.
 */
function EditorBridgePlugin({
  editorRef,
  lastSelectionRef,
  onEdit,
  onEmptyChange,
}: {
  editorRef: { current: LexicalEditor | null };
  lastSelectionRef: { current: { anchor: SavedPoint; focus: SavedPoint } | null };
  /** `userEdit` is false for merged bookkeeping updates (draft restore, chipping on caret exit). */
  onEdit(userEdit: boolean): void;
  onEmptyChange(empty: boolean): void;
}): null {
  const [editor] = useLexicalComposerContext();
  editorRef.current = editor;
  const onEditRef = useRef(onEdit);
  onEditRef.current = onEdit;
  const onEmptyRef = useRef(onEmptyChange);
  onEmptyRef.current = onEmptyChange;
  useEffect(() => {
    onEmptyRef.current(editor.getEditorState().read($isPromptEmpty));
    return editor.registerUpdateListener(({ editorState, dirtyElements, dirtyLeaves, tags }) => {
      editorState.read(() => {
        const selection = $getSelection();
        if ($isRangeSelection(selection)) {
          const { anchor, focus } = selection;
          lastSelectionRef.current = {
            anchor: { key: anchor.key, offset: anchor.offset, type: anchor.type },
            focus: { key: focus.key, offset: focus.offset, type: focus.type },
          };
        }
        if (dirtyElements.size > 0 || dirtyLeaves.size > 0) {
          onEmptyRef.current($isPromptEmpty());
          onEditRef.current(!tags.has(HISTORY_MERGE_TAG));
        }
      });
    });
  }, [editor, lastSelectionRef]);
  return null;
}

/**
 * Where programmatic insertions go: the live selection when the editor has focus, else the last
 * selection it had (if its nodes still exist), else the end of the prompt.
 */
function $insertionOffsets(
  editor: LexicalEditor,
  saved: { anchor: SavedPoint; focus: SavedPoint } | null,
): PromptSelectionOffsets {
  const rootElement = editor.getRootElement();
  const focused = rootElement?.contains(rootElement.ownerDocument.activeElement) === true;
  const end = $getPromptText().length;
  return (
    (focused ? $getSelectionPromptOffsets() : null) ??
    $offsetsForSaved(saved) ?? { anchor: end, focus: end }
  );
}

const WHITESPACE = /\s/;

/** Resolves saved points to prompt offsets if their nodes still exist. */
function $offsetsForSaved(saved: { anchor: SavedPoint; focus: SavedPoint } | null) {
  if (saved === null) return null;
  const live = (point: SavedPoint): PointType | null =>
    $getNodeByKey(point.key)?.isAttached()
      ? $createPoint(point.key, point.offset, point.type)
      : null;
  const anchor = live(saved.anchor);
  const focus = live(saved.focus);
  return anchor !== null && focus !== null ? $getPromptOffsetsForPoints(anchor, focus) : null;
}

type Notice = { kind: "limit" | "error"; message: string };

/** The message composer (see module doc). */
export function Composer(props: ComposerProps): JSX.Element {
  // A new thread gets a fresh editor, history and draft.
  return <ThreadComposer key={props.threadId} {...props} />;
}

function ThreadComposer({
  threadId,
  pendingUserInput,
  onSend,
  onAnswer,
  searchFiles = defaultSearchFiles,
  ref,
}: ComposerProps): JSX.Element {
  const editorRef = useRef<LexicalEditor | null>(null);
  const commentEditorRef = useRef<CitationCommentController | null>(null);
  const lastSelectionRef = useRef<{ anchor: SavedPoint; focus: SavedPoint } | null>(null);
  const [isEmpty, setIsEmpty] = useState(true);
  const [inFlight, setInFlight] = useState(false);
  const inFlightRef = useRef(false);
  const [notice, setNotice] = useState<Notice | null>(null);
  const [storageWarning, setStorageWarning] = useState<string | null>(null);
  const [stashes, setStashes] = useState<StashedDraft[]>(() => loadStashes());
  const [typeahead, setTypeahead] = useState<MentionTypeaheadState | null>(null);
  // Options picked for a multi-question request, remembered per request id.
  const [picked, setPicked] = useState<{
    requestId: string | null;
    answers: Record<string, string>;
  }>({
    requestId: null,
    answers: {},
  });
  const saveTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const noticeRef = useRef<Notice | null>(null);
  noticeRef.current = notice;

  const initialConfig = useMemo(
    () => ({
      namespace: "composer",
      nodes: [MentionNode, SkillNode, ComposerCitationNode],
      onError(error: Error) {
        // Surface editor bugs in the console without taking the page down.
        console.error(error);
      },
      theme: { paragraph: "composer-paragraph" },
    }),
    [],
  );

  const readPrompt = useCallback(
    (): string => editorRef.current?.getEditorState().read($getPromptText) ?? "",
    [],
  );

  const flushDraft = useCallback(() => {
    if (saveTimer.current !== null) {
      clearTimeout(saveTimer.current);
      saveTimer.current = null;
    }
    if (editorRef.current === null) return;
    const result = saveDraft(threadId, readPrompt());
    setStorageWarning(
      result.ok
        ? null
        : `${result.error}: your draft is not saved in this browser, but it stays in the composer.`,
    );
  }, [threadId, readPrompt]);

  const onEdit = useCallback(
    (userEdit: boolean) => {
      // A shown error or limit message goes away once the user changes the draft.
      if (userEdit && noticeRef.current !== null) setNotice(null);
      if (saveTimer.current !== null) clearTimeout(saveTimer.current);
      saveTimer.current = setTimeout(flushDraft, DRAFT_SAVE_DEBOUNCE_MS);
    },
    [flushDraft],
  );

  // Restore the saved draft once, rebuilding chips from the prompt string.
  useEffect(() => {
    const editor = editorRef.current;
    if (editor === null) return;
    const draft = loadDraft(threadId);
    if (draft !== "") {
      editor.update(() => $setPromptText(draft), {
        tag: [PROMPT_REBUILD_TAG, HISTORY_MERGE_TAG],
        discrete: true,
      });
    }
  }, [threadId]);

  // Save on pagehide and on unmount, so a reload or thread switch never drops the last edits.
  useEffect(() => {
    window.addEventListener("pagehide", flushDraft);
    return () => {
      window.removeEventListener("pagehide", flushDraft);
      if (saveTimer.current !== null) flushDraft();
    };
  }, [flushDraft]);

  // Keep the stash list in step with other tabs.
  useEffect(() => {
    const onStorage = (event: StorageEvent) => {
      if (isStashStorageKey(event.key)) setStashes(loadStashes());
    };
    window.addEventListener("storage", onStorage);
    return () => window.removeEventListener("storage", onStorage);
  }, []);

  const requestId = pendingUserInput?.id ?? null;
  // A new question starts with no option chosen.
  const choices = useMemo(
    () => (picked.requestId === requestId ? picked.answers : {}),
    [picked, requestId],
  );

  /** Replaces the editor content (programmatic: chips rebuilt at once, caret at the end). */
  const setPrompt = useCallback((prompt: string) => {
    editorRef.current?.update(() => $setPromptText(prompt), {
      tag: PROMPT_REBUILD_TAG,
      discrete: true,
    });
  }, []);

  /** After a successful send/answer: drop what was sent, keep anything typed meanwhile. */
  const clearSent = useCallback(
    (sent: string) => {
      const current = readPrompt();
      const remainder =
        current === sent
          ? ""
          : current.startsWith(sent)
            ? current.slice(sent.length).trimStart()
            : current;
      setPrompt(remainder);
      const result = saveDraft(threadId, remainder);
      if (result.ok) setStorageWarning(null);
    },
    [readPrompt, setPrompt, threadId],
  );

  /** Runs a send/answer; on success clears `sent` from the editor (null: leave the editor). */
  const run = useCallback(
    async (task: () => Promise<void>, sent: string | null) => {
      inFlightRef.current = true;
      setInFlight(true);
      setNotice(null);
      try {
        await task();
        if (sent !== null) clearSent(sent);
      } catch (error) {
        setNotice({ kind: "error", message: errorMessage(error) });
      } finally {
        inFlightRef.current = false;
        setInFlight(false);
      }
    },
    [clearSent],
  );

  const answer = useCallback(
    (request: UserInputRequest, text: string, chosen: Record<string, string>) => {
      const answers: Record<string, string> = { ...chosen };
      let usedText = false;
      for (const question of request.questions) {
        if (answers[question.id] === undefined && !usedText && text.trim() !== "") {
          // Answers are raw: no trimming, no citation expansion, no limit.
          answers[question.id] = text;
          usedText = true;
        }
      }
      const missing = request.questions.filter((question) => answers[question.id] === undefined);
      if (missing.length > 0) {
        if (usedText || Object.keys(chosen).length > 0) {
          setNotice({ kind: "error", message: `Please also answer: ${missing[0]!.prompt}` });
        }
        return;
      }
      void run(() => onAnswer(request.id, answers), usedText ? text : null);
    },
    [onAnswer, run],
  );

  const submit = useCallback(() => {
    if (inFlightRef.current) return;
    const prompt = readPrompt();
    if (pendingUserInput !== null) {
      answer(pendingUserInput, prompt, choices);
      return;
    }
    const trimmed = prompt.trim();
    if (trimmed === "") return;
    const check = validateProviderInput(trimmed);
    if (!check.ok) {
      setNotice({ kind: "limit", message: check.message });
      return;
    }
    void run(() => onSend(trimmed), prompt);
  }, [answer, choices, onSend, pendingUserInput, readPrompt, run]);

  const chooseOption = useCallback(
    (questionId: string, option: string) => {
      if (pendingUserInput === null || inFlightRef.current) return;
      const answers = { ...choices, [questionId]: option };
      if (pendingUserInput.questions.length === 1) {
        answer(pendingUserInput, "", answers);
      } else {
        setPicked({ requestId: pendingUserInput.id, answers });
      }
    },
    [answer, choices, pendingUserInput],
  );

  const stashDraft = useCallback(() => {
    const prompt = readPrompt();
    if (prompt.trim() === "") return;
    const next = [
      { id: newStashId(), threadId, text: prompt, createdAt: new Date().toISOString() },
      ...loadStashes(),
    ];
    const result = saveStashes(next);
    if (!result.ok) {
      // Nothing is cleared when the stash could not be written.
      setStorageWarning(
        `${result.error}: the draft could not be stashed, so it stays in the composer.`,
      );
      return;
    }
    setStashes(next);
    setPrompt("");
    flushDraft();
  }, [flushDraft, readPrompt, setPrompt, threadId]);

  const restoreStash = useCallback(
    (id: string) => {
      const all = loadStashes();
      const entry = all.find((stash) => stash.id === id);
      if (entry === undefined) {
        setStashes(all);
        return;
      }
      const current = readPrompt();
      let next = all.filter((stash) => stash.id !== id);
      if (current.trim() !== "") {
        // Nothing is lost: the current draft goes to the stash first.
        next = [
          { id: newStashId(), threadId, text: current, createdAt: new Date().toISOString() },
          ...next,
        ];
      }
      const result = saveStashes(next);
      if (!result.ok) {
        setStorageWarning(
          `${result.error}: the stash could not be updated, so nothing was restored.`,
        );
        return;
      }
      setStashes(next);
      setPrompt(entry.text);
      flushDraft();
      editorRef.current?.focus();
    },
    [flushDraft, readPrompt, setPrompt, threadId],
  );

  const deleteStash = useCallback((id: string) => {
    const next = loadStashes().filter((stash) => stash.id !== id);
    const result = saveStashes(next);
    if (!result.ok) {
      setStorageWarning(`${result.error}: the stash could not be updated.`);
      return;
    }
    setStashes(next);
  }, []);

  useImperativeHandle(
    ref,
    () => ({
      focus() {
        editorRef.current?.focus();
      },
      insertPromptText(text: string) {
        const editor = editorRef.current;
        if (editor === null || text === "") return;
        // The rebuild replaces every chip, so an open comment editor is saved first.
        commentEditorRef.current?.commit();
        editor.update(
          () => {
            const offsets = $insertionOffsets(editor, lastSelectionRef.current);
            $replacePromptRange(text, offsets.anchor, offsets.focus);
          },
          { tag: PROMPT_REBUILD_TAG, discrete: true },
        );
        editor.focus();
      },
      insertCitation(citation: AssistantCitation, opts?: InsertCitationOptions) {
        const editor = editorRef.current;
        if (editor === null) return;
        // Serializing first validates the citation before anything changes.
        const link = serializeAssistantCitation(citation);
        commentEditorRef.current?.commit();
        const inserted: { key: NodeKey | null } = { key: null };
        editor.update(
          () => {
            const offsets = $insertionOffsets(editor, lastSelectionRef.current);
            const prompt = $getPromptText();
            const from = Math.min(offsets.anchor, offsets.focus);
            const to = Math.max(offsets.anchor, offsets.focus);
            const before = prompt[from - 1];
            const after = prompt[to];
            const lead = before !== undefined && !WHITESPACE.test(before) ? " " : "";
            const trail = after !== undefined && WHITESPACE.test(after) ? "" : " ";
            $replacePromptRange(lead + link + trail, from, to);
            const chip = $getChipAtPromptOffset(from + lead.length);
            inserted.key = $isComposerCitationNode(chip) ? chip.getKey() : null;
          },
          { tag: PROMPT_REBUILD_TAG, discrete: true },
        );
        // The one-shot request: only this insertion opens the comment editor.
        const opened =
          opts?.openCommentEditor !== false &&
          inserted.key !== null &&
          commentEditorRef.current?.open(
            inserted.key,
            opts?.sourceRange !== undefined
              ? { range: opts.sourceRange, repair: opts.repairSourceRange }
              : null,
          ) === true;
        if (!opened) editor.focus();
      },
    }),
    [],
  );

  // The question the editor text will answer: the first one without a picked option.
  const firstQuestion =
    pendingUserInput?.questions.find((question) => choices[question.id] === undefined) ??
    pendingUserInput?.questions[0] ??
    null;
  const placeholder = pendingUserInput !== null ? "Type your answer…" : "Message…";

  return (
    <div className="composer" data-composer-mode={pendingUserInput !== null ? "answer" : "message"}>
      {pendingUserInput !== null && (
        <section className="composer-questions" aria-label="Question from the assistant">
          {pendingUserInput.questions.map((question) => (
            <fieldset key={question.id} className="composer-question">
              <legend className="composer-question__prompt">{question.prompt}</legend>
              {question.options !== undefined && question.options.length > 0 && (
                <div className="composer-question__options">
                  {question.options.map((option) => (
                    <button
                      key={option}
                      type="button"
                      aria-pressed={
                        pendingUserInput.questions.length > 1
                          ? choices[question.id] === option
                          : undefined
                      }
                      disabled={inFlight}
                      onClick={() => chooseOption(question.id, option)}
                    >
                      {option}
                    </button>
                  ))}
                </div>
              )}
            </fieldset>
          ))}
        </section>
      )}
      {firstQuestion !== null && (
        <p className="composer-mode" data-composer-answering="">
          Answering: {firstQuestion.prompt}
        </p>
      )}
      <LexicalComposer initialConfig={initialConfig}>
        <div className="composer-editor">
          <PlainTextPlugin
            contentEditable={
              <ContentEditable
                className="composer-input"
                ariaLabel="Message"
                ariaMultiline
                ariaAutoComplete="list"
                ariaControls={typeahead?.open ? typeahead.listboxId : undefined}
                ariaActiveDescendant={typeahead?.activeOptionId ?? undefined}
                aria-placeholder={placeholder}
                placeholder={<div className="composer-placeholder">{placeholder}</div>}
              />
            }
            ErrorBoundary={LexicalErrorBoundary}
          />
          <HistoryPlugin />
          <PromptTokensPlugin />
          <ClipboardPlugin />
          <CitationCommentPlugin controllerRef={commentEditorRef} />
          <SubmitOnEnterPlugin onSubmit={submit} />
          <MentionTypeaheadPlugin searchFiles={searchFiles} onStateChange={setTypeahead} />
          <EditorBridgePlugin
            editorRef={editorRef}
            lastSelectionRef={lastSelectionRef}
            onEdit={onEdit}
            onEmptyChange={setIsEmpty}
          />
        </div>
      </LexicalComposer>
      {notice !== null && (
        <div role="alert" className={`composer-notice composer-notice--${notice.kind}`}>
          {notice.message}
        </div>
      )}
      {storageWarning !== null && (
        <p className="composer-storage-warning" aria-live="polite" data-composer-storage-warning="">
          {storageWarning}
        </p>
      )}
      <div className="composer-actions">
        <button type="button" onClick={stashDraft} disabled={isEmpty}>
          Stash draft
        </button>
        <button
          type="button"
          className="composer-send"
          onClick={submit}
          // Nothing to send until there is text or a chip (an answer may use picked options only).
          disabled={inFlight || (isEmpty && pendingUserInput === null)}
          aria-busy={inFlight}
        >
          Send
        </button>
      </div>
      {stashes.length > 0 && (
        <details className="composer-stash">
          <summary>Stashed drafts ({stashes.length})</summary>
          <ul aria-label="Stashed drafts">
            {stashes.map((stash) => (
              <li key={stash.id} className="composer-stash__item">
                <span className="composer-stash__preview" title={stashPreview(stash.text)}>
                  {stashPreview(stash.text) || "(blank)"}
                </span>
                {stash.threadId !== threadId && (
                  <span className="composer-stash__origin"> (other thread)</span>
                )}
                <button type="button" onClick={() => restoreStash(stash.id)}>
                  Restore
                </button>
                <button type="button" onClick={() => deleteStash(stash.id)}>
                  Delete
                </button>
              </li>
            ))}
          </ul>
        </details>
      )}
    </div>
  );
}
