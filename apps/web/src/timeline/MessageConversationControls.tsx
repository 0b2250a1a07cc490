/**
 * A message's conversation controls (issue 30, DESIGN.md section 8): **Edit message** on a sent
 * prompt, **Regenerate** on an answer, **Previous version** / **Next version** with an "N / M"
 * label on a message with several versions, and **Branch in new thread** on any message.
 */
import type { Message } from "@app/protocol";
import { useContext } from "react";
import { ConversationActionsContext } from "./conversationActions.ts";
import "./conversationControls.css";

export function MessageVersionNav({ message }: { message: Message }) {
  const actions = useContext(ConversationActionsContext);
  const { version, versions } = message;
  if (!actions || version === undefined || versions === undefined) return null;
  return (
    <span className="message-versions">
      <button
        type="button"
        className="message-action"
        aria-label="Previous version"
        title="Previous version"
        disabled={version <= 1}
        onClick={() => actions.selectVersion(message.id, version - 1)}
      >
        ‹
      </button>
      <span className="message-versions__label">
        {version} / {versions}
      </span>
      <button
        type="button"
        className="message-action"
        aria-label="Next version"
        title="Next version"
        disabled={version >= versions}
        onClick={() => actions.selectVersion(message.id, version + 1)}
      >
        ›
      </button>
    </span>
  );
}

export function MessageConversationControls({ message }: { message: Message }) {
  const actions = useContext(ConversationActionsContext);
  if (!actions) return null;
  const streaming = message.status === "streaming";
  return (
    <>
      <MessageVersionNav message={message} />
      {message.role === "user" ? (
        <button
          type="button"
          className="message-action"
          onClick={() => actions.setEditing(message.id)}
        >
          Edit message
        </button>
      ) : message.kind !== "progress" ? (
        <button
          type="button"
          className="message-action"
          disabled={streaming}
          onClick={() => actions.regenerate(message.id)}
        >
          Regenerate
        </button>
      ) : null}
      <button
        type="button"
        className="message-action"
        disabled={streaming}
        onClick={() => actions.branch(message.id)}
      >
        Branch in new thread
      </button>
    </>
  );
}
