/**
 * The message composer: a Lexical plain-text editor whose content is one prompt string, with
 * mention/skill/citation chips derived from that string, per-thread drafts, a stash, the `@`
 * file typeahead, client-side limit checks, and answering pending user-input questions.
 * This component only composes; each concern lives in its own module (README.md, "Files").
 */
import type { UserInputRequest } from "@app/protocol";
import { LexicalComposer } from "@lexical/react/LexicalComposer";
import { ContentEditable } from "@lexical/react/LexicalContentEditable";
import { LexicalErrorBoundary } from "@lexical/react/LexicalErrorBoundary";
import { HistoryPlugin } from "@lexical/react/LexicalHistoryPlugin";
import { PlainTextPlugin } from "@lexical/react/LexicalPlainTextPlugin";
import type { LexicalEditor } from "lexical";
import { type JSX, type Ref, useCallback, useId, useRef, useState } from "react";
import { listFiles } from "../api/client.ts";
import { promptAfterSend } from "./composerSubmission.ts";
import { DraftLengthCounter } from "./DraftLengthCounter.tsx";
import { ComposerCitationNode } from "./nodes/ComposerCitationNode.tsx";
import { MentionNode } from "./nodes/MentionNode.tsx";
import { SkillNode } from "./nodes/SkillNode.tsx";
import {
  type CitationCommentController,
  CitationCommentPlugin,
} from "./plugins/CitationCommentPlugin.tsx";
import { ClipboardPlugin } from "./plugins/ClipboardPlugin.tsx";
import { EditorBridgePlugin } from "./plugins/EditorBridgePlugin.tsx";
import {
  MentionTypeaheadPlugin,
  type MentionTypeaheadState,
} from "./plugins/MentionTypeaheadPlugin.tsx";
import { PromptTokensPlugin } from "./plugins/PromptTokensPlugin.tsx";
import { SubmitOnEnterPlugin } from "./plugins/SubmitOnEnterPlugin.tsx";
import { $getPromptText, $setPromptText, PROMPT_REBUILD_TAG } from "./promptEditorState.ts";
import type { SavedSelection } from "./promptInsertion.ts";
import { StashList } from "./StashList.tsx";
import { UserInputQuestions } from "./UserInputQuestions.tsx";
import { type ComposerHandle, useComposerHandle } from "./useComposerHandle.ts";
import { useComposerSubmission } from "./useComposerSubmission.ts";
import { useDraftLength } from "./useDraftLength.ts";
import { useDraftPersistence } from "./useDraftPersistence.ts";
import { useStashes } from "./useStashes.ts";
import "./composer.css";

export type { ComposerHandle, InsertCitationOptions } from "./useComposerHandle.ts";
export { DRAFT_SAVE_DEBOUNCE_MS } from "./useDraftPersistence.ts";

/** What "Stash draft" does, as its tooltip and accessible description. */
export const STASH_DRAFT_DESCRIPTION =
  "Set this draft aside and empty the composer; restore it later from the list below it.";

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

const defaultSearchFiles = (query: string, signal: AbortSignal): Promise<string[]> =>
  listFiles(query, 20, signal);

const initialConfig = {
  namespace: "composer",
  nodes: [MentionNode, SkillNode, ComposerCitationNode],
  onError(error: Error) {
    // Surface editor bugs in the console without taking the page down.
    console.error(error);
  },
  theme: { paragraph: "composer-paragraph" },
};

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
  const lastSelectionRef = useRef<SavedSelection | null>(null);
  const [isEmpty, setIsEmpty] = useState(true);
  const [storageWarning, setStorageWarning] = useState<string | null>(null);
  const [typeahead, setTypeahead] = useState<MentionTypeaheadState | null>(null);

  const readPrompt = useCallback(
    (): string => editorRef.current?.getEditorState().read($getPromptText) ?? "",
    [],
  );
  /** Replaces the editor content (programmatic: chips rebuilt at once, caret at the end). */
  const setPrompt = useCallback((prompt: string) => {
    editorRef.current?.update(() => $setPromptText(prompt), {
      tag: PROMPT_REBUILD_TAG,
      discrete: true,
    });
  }, []);
  const focusEditor = useCallback(() => editorRef.current?.focus(), []);
  // The live count near the limit; measured after edits, off the keystroke's path.
  const draftLength = useDraftLength(readPrompt);
  const lengthReasonId = useId();

  const drafts = useDraftPersistence({ threadId, editorRef, readPrompt, setStorageWarning });
  const { saveText } = drafts;
  const stash = useStashes({
    threadId,
    readPrompt,
    setPrompt,
    flushDraft: drafts.flushDraft,
    focusEditor,
    setStorageWarning,
  });

  /** After a successful send/answer: drop what was sent, keep anything typed meanwhile. */
  const clearSent = useCallback(
    (sent: string) => {
      const remainder = promptAfterSend(readPrompt(), sent);
      setPrompt(remainder);
      saveText(remainder);
    },
    [readPrompt, setPrompt, saveText],
  );
  const submission = useComposerSubmission({
    pendingUserInput,
    readPrompt,
    onSent: clearSent,
    onSend,
    onAnswer,
  });
  const { dismissNotice } = submission;
  const { scheduleSave } = drafts;
  const { tracker: lengthTracker } = draftLength;

  const onEdit = useCallback(
    (userEdit: boolean) => {
      // A shown error or limit message goes away once the user changes the draft.
      if (userEdit) dismissNotice();
      scheduleSave();
      lengthTracker.schedule();
    },
    [dismissNotice, scheduleSave, lengthTracker],
  );

  useComposerHandle(ref, { editorRef, commentEditorRef, lastSelectionRef });

  const { inFlight, notice } = submission;
  // Answers to a question have no limit; a message over it cannot be sent (the count says why).
  const blockedByLength = draftLength.overLimit && pendingUserInput === null;
  const placeholder = pendingUserInput !== null ? "Type your answer…" : "Message…";

  return (
    <div className="composer" data-composer-mode={pendingUserInput !== null ? "answer" : "message"}>
      {pendingUserInput !== null && (
        <UserInputQuestions
          request={pendingUserInput}
          choices={submission.choices}
          disabled={inFlight}
          onChoose={submission.chooseOption}
        />
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
          <SubmitOnEnterPlugin onSubmit={submission.submit} />
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
        <button
          type="button"
          onClick={stash.stashDraft}
          disabled={isEmpty}
          // The tooltip, and the button's accessible description: what "stash" does.
          title={STASH_DRAFT_DESCRIPTION}
        >
          Stash draft
        </button>
        <DraftLengthCounter tracker={lengthTracker} reasonId={lengthReasonId} />
        <button
          type="button"
          className="composer-send"
          onClick={submission.submit}
          // Nothing to send until there is text or a chip (an answer may use picked options only).
          disabled={inFlight || (isEmpty && pendingUserInput === null) || blockedByLength}
          aria-describedby={blockedByLength ? lengthReasonId : undefined}
          aria-busy={inFlight}
        >
          Send
        </button>
      </div>
      <StashList
        stashes={stash.stashes}
        threadId={threadId}
        onRestore={stash.restoreStash}
        onDelete={stash.deleteStash}
      />
    </div>
  );
}
