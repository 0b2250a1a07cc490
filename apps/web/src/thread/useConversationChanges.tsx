/**
 * The thread's conversation actions (issue 30): edit and resend in place, regenerate, version
 * switches and branches, for the message rows (`timeline/conversationActions.ts`). Each change
 * of the path shown reads the history again (`reloadPath`); other tabs follow through the
 * `thread.path` event. A branch is listed in the sidebar at once and opened.
 */
import type { Message } from "@app/protocol";
import { useNavigate } from "@tanstack/react-router";
import { lazy, Suspense, useCallback, useMemo, useRef, useState } from "react";
import {
  branchThread,
  editMessage,
  regenerateMessage,
  selectMessageVersion,
} from "../api/conversationClient.ts";
import { activeComposer } from "../composer/activeComposer.ts";
import { upsertThreadInList } from "../threads/threadList.ts";
import type { ConversationActions } from "../timeline/conversationActions.ts";
import { requestComposerFocus } from "./composerFocusRequest.ts";
import {
  focusEditedMessage,
  focusRegeneratedAnswer,
  focusSwitchedVersion,
} from "./focusEditedMessage.ts";

// Lexical loads as its own chunk: only once a prompt is edited.
const MessageEditEditor = lazy(() =>
  import("../composer/MessageEditEditor.tsx").then((module) => ({
    default: module.MessageEditEditor,
  })),
);

/** What the thread view shows besides the rows: a short notice of the last change. */
export type ConversationChanges = {
  actions: ConversationActions;
  notice: string | null;
  dismissNotice(): void;
};

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export function useConversationChanges(options: {
  environmentId: string;
  threadId: string;
  reloadPath(messageId: string): Promise<void>;
  /** After an edit or a regeneration: show the newest messages. */
  onResent(): void;
}): ConversationChanges {
  const { environmentId, threadId, reloadPath } = options;
  const navigate = useNavigate();
  const [editingId, setEditing] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const onResentRef = useRef(options.onResent);
  onResentRef.current = options.onResent;

  const sendEdit = useCallback(
    async (message: Message, text: string) => {
      const response = await editMessage(threadId, message.id, text);
      setEditing(null);
      setNotice(
        response.stoppedTurnId === null
          ? null
          : "The reply that was still running was stopped before sending the edited message.",
      );
      await reloadPath(response.message.id);
      onResentRef.current();
      // The editor went away with focus in it: the new version's Edit message button takes it
      // (the composer, should the timeline not show that version).
      focusEditedMessage(response.message.id, () => activeComposer()?.focus());
    },
    [threadId, reloadPath],
  );

  const renderEditor = useCallback(
    (message: Message) => (
      <Suspense fallback={null}>
        <MessageEditEditor
          text={message.text}
          onSend={(text) => sendEdit(message, text)}
          onCancel={() => {
            setEditing(null);
            // The editor (or its Cancel button) had focus: back to the message's Edit message.
            focusEditedMessage(message.id);
          }}
        />
      </Suspense>
    ),
    [sendEdit],
  );

  const regenerate = useCallback(
    (messageId: string) => {
      // The pressed Regenerate button (keyboard or click): its row goes away with the new version.
      const pressed = document.activeElement;
      regenerateMessage(threadId, messageId).then(
        (response) => {
          setNotice(
            response.stoppedTurnId === null
              ? null
              : "The reply that was still running was stopped before regenerating.",
          );
          onResentRef.current();
          // Focus follows to the new version's answer (the composer, should it not be shown).
          focusRegeneratedAnswer(response.turn.id, pressed, () => activeComposer()?.focus());
        },
        (error: unknown) => setNotice(`Could not regenerate: ${errorText(error)}`),
      );
    },
    [threadId],
  );

  const selectVersion = useCallback(
    (messageId: string, version: number) => {
      // The pressed arrow: its row shows the other version's message, and it may be disabled there.
      const pressed = document.activeElement;
      const step =
        pressed?.getAttribute("aria-label") === "Next version"
          ? "Next version"
          : "Previous version";
      selectMessageVersion(threadId, messageId, version).then(
        async (shown) => {
          await reloadPath(shown.messageId);
          focusSwitchedVersion(shown.messageId, step, pressed);
        },
        (error: unknown) => setNotice(`Could not switch versions: ${errorText(error)}`),
      );
    },
    [threadId, reloadPath],
  );

  const branch = useCallback(
    (messageId: string) => {
      branchThread(threadId, messageId).then(
        ({ thread }) => {
          upsertThreadInList(thread);
          // The button goes away with this thread's view: the branch's composer takes focus.
          requestComposerFocus(thread.id);
          void navigate({
            to: "/$environmentId/$threadId",
            params: { environmentId, threadId: thread.id },
          });
        },
        (error: unknown) => setNotice(`Could not branch: ${errorText(error)}`),
      );
    },
    [threadId, environmentId, navigate],
  );

  const actions = useMemo<ConversationActions>(
    () => ({ editingId, setEditing, renderEditor, regenerate, selectVersion, branch }),
    [editingId, renderEditor, regenerate, selectVersion, branch],
  );
  const dismissNotice = useCallback(() => setNotice(null), []);
  return { actions, notice, dismissNotice };
}
