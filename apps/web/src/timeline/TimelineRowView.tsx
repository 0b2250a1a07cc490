import type { Message } from "@app/protocol";
import { createContext, memo, useContext, useMemo, useRef } from "react";
import { CitedByControl, citedByDescriptionId } from "../citations/backlinks/CitedByControl.tsx";
import { useCitedMarks } from "../citations/backlinks/citedMarks.ts";
import { citationCopyHtml } from "../copy/citationCopyHtml.ts";
import { ChatMarkdown } from "../markdown/ChatMarkdown.tsx";
import { CopyButton } from "../ui/CopyButton.tsx";
import { ConversationActionsContext } from "./conversationActions.ts";
import { MessageConversationControls } from "./MessageConversationControls.tsx";
import { MessageFoldToggle, useMessageUnfolded } from "./MessageFoldToggle.tsx";
import { isLongMessage, keepStreamedMessageUnfolded } from "./messageFold.ts";
import { foldLabel, type TimelineRow, type TurnOutcome } from "./timelineRows.ts";
import "./turnOutcome.css";

/** Row-level actions, provided once by the Timeline so rows need no callback props. */
export type TimelineActions = {
  toggleTurn(turnId: string): void;
};

/** Context carrying {@link TimelineActions}. */
export const TimelineActionsContext = createContext<TimelineActions>({ toggleTurn: () => {} });

/** The accessible name of a message article: who speaks, first ("Assistant…" / "You…"). */
export function speakerLabel(message: Pick<Message, "role" | "kind">): string {
  if (message.role === "user") return "You";
  if (message.kind === "progress") return "Assistant, progress update";
  if (message.kind === "error") return "Assistant, error";
  return "Assistant";
}

const OUTCOME_LABELS: Record<TurnOutcome["status"], string> = {
  cancelled: "Stopped",
  failed: "Failed",
  interrupted: "Interrupted",
};

/** The quiet marker under a reply that did not complete: "Stopped", or "Failed: <reason>". */
function TurnOutcomeMarker({ outcome }: { outcome: TurnOutcome }) {
  return (
    <p className={`turn-outcome turn-outcome--${outcome.status}`} data-text-stream="skip">
      <span className="turn-outcome__label">{OUTCOME_LABELS[outcome.status]}</span>
      {outcome.reason ? <span className="turn-outcome__reason">: {outcome.reason}</span> : null}
    </p>
  );
}

const MessageView = memo(function MessageView({
  message,
  folded,
  outcome,
}: {
  message: Message;
  folded: boolean;
  outcome: TurnOutcome | undefined;
}) {
  const isAssistant = message.role === "assistant";
  const streaming = message.status === "streaming";
  // Long messages fold (messageFold.ts); one the reader watched stream in stays open.
  if (streaming) keepStreamedMessageUnfolded(message.id);
  const long = useMemo(
    () => !streaming && isLongMessage(message.role, message.text),
    [streaming, message.role, message.text],
  );
  const unfolded = useMessageUnfolded(message.id);
  const clipped = long && !unfolded;
  const bodyId = `message-body-${message.id}`;
  const bodyRef = useRef<HTMLDivElement>(null);
  const hasBacklinks = isAssistant && message.text !== "" && (message.citedBy?.count ?? 0) > 0;
  const conversation = useContext(ConversationActionsContext);
  const editing = conversation !== null && conversation.editingId === message.id;
  // Backlink marks on the cited words (issue 24), once the text has stopped streaming.
  useCitedMarks(
    message.id,
    isAssistant && !streaming ? message.citedBy : undefined,
    bodyRef,
    `${message.text.length}:${clipped}`,
  );
  return (
    <article
      className={`message message--${message.role} message--${message.kind}${folded ? " message--folded" : ""}`}
      data-message-id={message.id}
      data-role={message.role}
      data-kind={message.kind}
      data-turn-id={message.turnId}
      data-status={message.status}
      data-long-message={long ? (clipped ? "folded" : "unfolded") : undefined}
      data-turn-outcome={outcome?.status}
      data-version={message.version}
      data-versions={message.versions}
      aria-label={speakerLabel(message)}
      // Backlinks: "cited in N messages" (the hidden text beside the "Cited N×" control).
      aria-describedby={hasBacklinks ? citedByDescriptionId(message.id) : undefined}
      // Focusable by script only: a jump moves focus to the source message.
      tabIndex={-1}
      aria-busy={streaming || undefined}
    >
      {message.kind === "error" ? (
        <div className="message__error-title" data-text-stream="skip">
          The assistant hit an error
        </div>
      ) : null}
      <div
        ref={bodyRef}
        className="message__body"
        id={bodyId}
        {...(isAssistant ? { "data-assistant-citation-source": message.id } : {})}
      >
        {editing ? (
          conversation.renderEditor(message)
        ) : message.text === "" && streaming ? (
          <span className="typing" role="img" aria-label="Assistant is typing">
            <span />
            <span />
            <span />
          </span>
        ) : (
          <ChatMarkdown
            text={message.text}
            streaming={streaming}
            flavor={message.role}
            {...(clipped ? { className: "chat-markdown--folded" } : {})}
          />
        )}
      </div>
      {long ? (
        // Keyed: the list reuses rows for other messages; the button's focus belongs to this one.
        <MessageFoldToggle
          key={message.id}
          messageId={message.id}
          folded={clipped}
          bodyId={bodyId}
        />
      ) : null}
      {outcome ? <TurnOutcomeMarker outcome={outcome} /> : null}
      {message.text !== "" && !editing ? (
        <div className="message__actions" data-text-stream="skip">
          {/* Keyed: the list reuses rows for other messages, and "Copied" belongs to this one. */}
          <CopyButton
            key={message.id}
            label="Copy message"
            getText={() => message.text}
            // Chips (user messages only) also go out as readable blockquotes for documents.
            getHtml={() => (message.role === "user" ? citationCopyHtml(message.text) : null)}
          />
          {hasBacklinks && message.citedBy !== undefined ? (
            <CitedByControl
              key={`cited-${message.id}`}
              threadId={message.threadId}
              messageId={message.id}
              citedBy={message.citedBy}
            />
          ) : null}
          <MessageConversationControls message={message} />
        </div>
      ) : null}
    </article>
  );
});

function FoldToggle({
  turnId,
  count,
  expanded,
}: {
  turnId: string;
  count: number;
  expanded: boolean;
}) {
  const { toggleTurn } = useContext(TimelineActionsContext);
  return (
    <div className="fold-row" data-row-kind="fold" data-turn-id={turnId}>
      <button
        type="button"
        className="fold-row__button"
        aria-expanded={expanded}
        onClick={() => toggleTurn(turnId)}
      >
        <span className="fold-row__chevron" aria-hidden="true">
          {expanded ? "▾" : "▸"}
        </span>
        {foldLabel(count, expanded)}
      </button>
    </div>
  );
}

/** Renders one timeline row; memoized on the row object, which buildTimelineRows keeps stable. */
export const TimelineRowView = memo(function TimelineRowView({ row }: { row: TimelineRow }) {
  switch (row.kind) {
    case "message":
      return <MessageView message={row.message} folded={row.folded} outcome={row.outcome} />;
    case "fold":
      return <FoldToggle turnId={row.turnId} count={row.count} expanded={row.expanded} />;
    case "turn-error":
      return (
        <div
          className="turn-error"
          data-row-kind="turn-error"
          data-turn-id={row.turnId}
          data-turn-outcome={row.outcome?.status}
        >
          <strong>The assistant could not answer.</strong> {row.error.message}
        </div>
      );
    case "turn-outcome":
      return (
        <div
          className="turn-outcome-row"
          data-row-kind="turn-outcome"
          data-turn-id={row.turnId}
          data-turn-outcome={row.outcome.status}
        >
          <TurnOutcomeMarker outcome={row.outcome} />
        </div>
      );
    case "working":
      return (
        <div className="working" data-row-kind="working" data-turn-id={row.turnId}>
          {row.waitingForInput ? (
            "The assistant is waiting for your answer below."
          ) : (
            <>
              <span className="typing" aria-hidden="true">
                <span />
                <span />
                <span />
              </span>
              Working…
            </>
          )}
        </div>
      );
  }
});
