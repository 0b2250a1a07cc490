/**
 * Editing a sent prompt in place (issue 30, DESIGN.md section 8): a Lexical editor whose
 * textbox is named **Edit message**, holding the prompt string with its chips and comments
 * rebuilt by the composer's own tokenizer and nodes. Enter sends (a new version of the turn),
 * Shift+Enter is a new line, Escape cancels. A failed send keeps the text and shows the error.
 */
import { LexicalComposer } from "@lexical/react/LexicalComposer";
import { useLexicalComposerContext } from "@lexical/react/LexicalComposerContext";
import { ContentEditable } from "@lexical/react/LexicalContentEditable";
import { LexicalErrorBoundary } from "@lexical/react/LexicalErrorBoundary";
import { HistoryPlugin } from "@lexical/react/LexicalHistoryPlugin";
import { PlainTextPlugin } from "@lexical/react/LexicalPlainTextPlugin";
import { COMMAND_PRIORITY_HIGH, KEY_ESCAPE_COMMAND, type LexicalEditor } from "lexical";
import { type JSX, useCallback, useEffect, useRef, useState } from "react";
import { ComposerCitationNode } from "./nodes/ComposerCitationNode.tsx";
import { MentionNode } from "./nodes/MentionNode.tsx";
import { SkillNode } from "./nodes/SkillNode.tsx";
import {
  type CitationCommentController,
  CitationCommentPlugin,
} from "./plugins/CitationCommentPlugin.tsx";
import { PromptTokensPlugin } from "./plugins/PromptTokensPlugin.tsx";
import { SubmitOnEnterPlugin } from "./plugins/SubmitOnEnterPlugin.tsx";
import { $getPromptText, $setPromptText } from "./promptEditorState.ts";
import "./composer.css";

/** Props of {@link MessageEditEditor}. */
export type MessageEditEditorProps = {
  /** The sent prompt, exactly as stored (links intact). */
  text: string;
  /** Sends the edited prompt; a rejection keeps the editor open with its message. */
  onSend(text: string): Promise<void>;
  onCancel(): void;
};

/** Hands the editor over once, with the prompt set (chips rebuilt) and focus in it. */
function EditorHandlePlugin({ onEditor }: { onEditor(editor: LexicalEditor): void }): null {
  const [editor] = useLexicalComposerContext();
  const ref = useRef(onEditor);
  ref.current = onEditor;
  useEffect(() => ref.current(editor), [editor]);
  return null;
}

/** Escape cancels (the comment editor, when open, handles its own Escape first). */
function EscapePlugin({ onEscape }: { onEscape(): void }): null {
  const [editor] = useLexicalComposerContext();
  const ref = useRef(onEscape);
  ref.current = onEscape;
  useEffect(
    () =>
      editor.registerCommand(
        KEY_ESCAPE_COMMAND,
        (event) => {
          event?.preventDefault();
          ref.current();
          return true;
        },
        COMMAND_PRIORITY_HIGH,
      ),
    [editor],
  );
  return null;
}

export function MessageEditEditor({ text, onSend, onCancel }: MessageEditEditorProps): JSX.Element {
  const editorRef = useRef<LexicalEditor | null>(null);
  const commentRef = useRef<CitationCommentController | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const initialConfig = useRef({
    namespace: "message-edit",
    nodes: [MentionNode, SkillNode, ComposerCitationNode],
    onError(e: Error) {
      console.error(e);
    },
    theme: { paragraph: "composer-paragraph" },
    // The prompt from the first paint (chips rebuilt by the composer's own tokenizer).
    editorState: () => $setPromptText(text),
  }).current;

  const submit = useCallback(() => {
    const editor = editorRef.current;
    if (!editor || sending) return;
    commentRef.current?.commit();
    const prompt = editor.getEditorState().read($getPromptText);
    if (prompt.trim() === "") {
      setError("The message is empty. Type something to send.");
      return;
    }
    setSending(true);
    setError(null);
    onSend(prompt).then(
      () => setSending(false),
      (e: unknown) => {
        setSending(false);
        setError(e instanceof Error ? e.message : String(e));
      },
    );
  }, [onSend, sending]);

  const onEditor = useCallback((editor: LexicalEditor) => {
    editorRef.current = editor;
    editor.focus();
  }, []);

  return (
    <div className="message-edit composer" data-message-edit="">
      <LexicalComposer initialConfig={initialConfig}>
        <PlainTextPlugin
          contentEditable={
            <ContentEditable className="composer__input" ariaLabel="Edit message" ariaMultiline />
          }
          ErrorBoundary={LexicalErrorBoundary}
        />
        <HistoryPlugin />
        <PromptTokensPlugin />
        <CitationCommentPlugin controllerRef={commentRef} />
        <SubmitOnEnterPlugin onSubmit={submit} />
        <EscapePlugin onEscape={onCancel} />
        <EditorHandlePlugin onEditor={onEditor} />
      </LexicalComposer>
      <div className="message-edit__actions">
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
        <button type="button" onClick={submit} disabled={sending}>
          Send
        </button>
      </div>
      {error ? (
        <p role="alert" className="message-edit__error">
          {error}
        </p>
      ) : null}
    </div>
  );
}
