/**
 * Turns the ordered messages of a thread into timeline rows, grouped by turn. Within a turn,
 * every assistant message except the last one is a "progress" update folded behind one toggle
 * row; errors (error messages, or a failed turn without one) are always shown. Row keys are
 * message ids (or `fold:`/`turn-error:`/`turn-outcome:`/`working:` + turn id), so a row keeps its measured size
 * and identity across updates, and a caller can find the row of any message by its id.
 */
import type { Message, Turn } from "@app/protocol";
import { isLongMessage } from "./messageFold.ts";
import { countWrappedLines, isPlainParagraph, type PromptMetrics } from "./plainTextLines.ts";

/**
 * How a turn that did not complete ended, shown on its reply (DESIGN.md section 6,
 * `data-turn-outcome`): `cancelled` (Stop), `interrupted` (a server stopped mid-turn) or `failed`.
 * `reason` is the turn's error message when no error notice row already says it.
 */
export type TurnOutcome = {
  status: "cancelled" | "failed" | "interrupted";
  reason: string | null;
};

/** One row of the virtual list. */
export type TimelineRow =
  | {
      kind: "message";
      key: string;
      message: Message;
      folded: boolean;
      /** Set on the reply of a turn that ended without completing. */
      outcome?: TurnOutcome;
    }
  | { kind: "fold"; key: string; turnId: string; count: number; expanded: boolean }
  | {
      kind: "turn-error";
      key: string;
      turnId: string;
      error: { code: string; message: string };
      /** Set when the turn has no reply to carry its outcome. */
      outcome?: TurnOutcome;
    }
  | { kind: "turn-outcome"; key: string; turnId: string; outcome: TurnOutcome }
  | { kind: "working"; key: string; turnId: string; waitingForInput: boolean };

/** Inputs of {@link buildTimelineRows}. */
export type TimelineRowsInput = {
  order: readonly string[];
  messagesById: ReadonlyMap<string, Message>;
  turnsById: ReadonlyMap<string, Turn>;
  expandedTurns: ReadonlySet<string>;
  activeTurnId: string | null;
};

/** Key of the fold toggle row of a turn. */
export const foldRowKey = (turnId: string) => `fold:${turnId}`;

function sameRow(a: TimelineRow, b: TimelineRow): boolean {
  switch (a.kind) {
    case "message":
      return (
        b.kind === "message" &&
        a.message === b.message &&
        a.folded === b.folded &&
        sameOutcome(a.outcome, b.outcome)
      );
    case "fold":
      return b.kind === "fold" && a.count === b.count && a.expanded === b.expanded;
    case "turn-error":
      return (
        b.kind === "turn-error" &&
        a.error.message === b.error.message &&
        a.error.code === b.error.code &&
        sameOutcome(a.outcome, b.outcome)
      );
    case "turn-outcome":
      return b.kind === "turn-outcome" && sameOutcome(a.outcome, b.outcome);
    case "working":
      return b.kind === "working" && a.waitingForInput === b.waitingForInput;
  }
}

function sameOutcome(a: TurnOutcome | undefined, b: TurnOutcome | undefined): boolean {
  return a?.status === b?.status && a?.reason === b?.reason;
}

/**
 * The outcome a turn shows, or undefined while it runs or once it completed. `hasNotice`: an
 * error message row already tells the reason, so the marker does not repeat it.
 */
export function turnOutcome(turn: Turn | undefined, hasNotice: boolean): TurnOutcome | undefined {
  if (turn === undefined) return undefined;
  if (turn.status === "cancelled") return { status: "cancelled", reason: null };
  if (turn.status !== "failed") return undefined;
  return {
    status: turn.error?.code === "interrupted" ? "interrupted" : "failed",
    reason: hasNotice ? null : (turn.error?.message ?? null),
  };
}

/**
 * Builds the rows. Pass the previous result as `previous` to reuse unchanged row objects, so
 * memoized row components skip rendering when only one message changed.
 */
export function buildTimelineRows(
  input: TimelineRowsInput,
  previous?: readonly TimelineRow[],
): TimelineRow[] {
  const { order, messagesById, turnsById, expandedTurns, activeTurnId } = input;
  const reuse = new Map<string, TimelineRow>();
  if (previous) for (const row of previous) reuse.set(row.key, row);
  const rows: TimelineRow[] = [];
  const push = (row: TimelineRow) => {
    const old = reuse.get(row.key);
    rows.push(old !== undefined && sameRow(old, row) ? old : row);
  };

  let index = 0;
  while (index < order.length) {
    const first = messagesById.get(order[index]!);
    if (!first) {
      index++;
      continue;
    }
    // Collect this turn's contiguous messages.
    const turnId = first.turnId;
    const group: Message[] = [];
    while (index < order.length) {
      const message = messagesById.get(order[index]!);
      if (!message || message.turnId !== turnId) break;
      group.push(message);
      index++;
    }
    emitTurn(
      turnId,
      group,
      turnsById.get(turnId),
      expandedTurns.has(turnId),
      turnId === activeTurnId,
      push,
    );
  }
  return rows;
}

function emitTurn(
  turnId: string,
  group: readonly Message[],
  turn: Turn | undefined,
  expanded: boolean,
  active: boolean,
  push: (row: TimelineRow) => void,
): void {
  let lastUpdate = -1;
  let foldCount = 0;
  let hasAssistant = false;
  let hasErrorMessage = false;
  group.forEach((message, i) => {
    if (message.kind === "error") hasErrorMessage = true;
    else if (message.role === "assistant") {
      hasAssistant = true;
      lastUpdate = i;
    }
  });
  group.forEach((message, i) => {
    if (message.role === "assistant" && message.kind !== "error" && i !== lastUpdate) foldCount++;
  });

  // The reply (the turn's last answer, else its error notice) carries the outcome marker.
  const outcome = turnOutcome(turn, hasErrorMessage);
  let replyIndex = lastUpdate;
  if (replyIndex === -1) replyIndex = group.findLastIndex((message) => message.kind === "error");

  let foldEmitted = false;
  group.forEach((message, i) => {
    const foldable = message.role === "assistant" && message.kind !== "error" && i !== lastUpdate;
    if (!foldable) {
      push({
        kind: "message",
        key: message.id,
        message,
        folded: false,
        ...(i === replyIndex && outcome ? { outcome } : {}),
      });
      return;
    }
    if (!foldEmitted) {
      foldEmitted = true;
      push({ kind: "fold", key: foldRowKey(turnId), turnId, count: foldCount, expanded });
    }
    if (expanded) push({ kind: "message", key: message.id, message, folded: true });
  });

  // A failed turn's reason shows once: in its error notice, in the reply's marker, or (no
  // reply at all) in a turn-error row that also carries the outcome.
  if (turn?.error && !hasErrorMessage && (replyIndex === -1 || outcome === undefined)) {
    push({
      kind: "turn-error",
      key: `turn-error:${turnId}`,
      turnId,
      error: turn.error,
      ...(outcome ? { outcome } : {}),
    });
  } else if (replyIndex === -1 && outcome) {
    // Stopped before any reply: the marker stands alone.
    push({ kind: "turn-outcome", key: `turn-outcome:${turnId}`, turnId, outcome });
  }
  if (active && turn?.status === "waiting_for_input") {
    push({ kind: "working", key: `working:${turnId}`, turnId, waitingForInput: true });
  } else if (active && !hasAssistant && turn?.status === "running") {
    push({ kind: "working", key: `working:${turnId}`, turnId, waitingForInput: false });
  }
}

/** The turn whose fold hides `messageId`, or null when the message is not folded away. */
export function foldedTurnOf(
  messageId: string,
  rows: readonly TimelineRow[],
  messagesById: ReadonlyMap<string, Message>,
): string | null {
  if (rows.some((row) => row.key === messageId)) return null;
  const message = messagesById.get(messageId);
  if (!message) return null;
  return rows.some((row) => row.kind === "fold" && row.turnId === message.turnId)
    ? message.turnId
    : null;
}

/** "Show 1 update" / "Show N updates" / "Hide updates". */
export function foldLabel(count: number, expanded: boolean): string {
  if (expanded) return "Hide updates";
  return `Show ${count} ${count === 1 ? "update" : "updates"}`;
}

/** Characters per rendered line assumed by {@link rowSizeClass} (the content column fits ~90). */
const CHARS_PER_LINE = 90;
const sizeClasses = new WeakMap<Message, { metricsKey: string; sizeClass: string }>();

/**
 * The row's item type for the virtual list, which keeps one running average of measured height
 * per type and uses it as the estimate for rows not yet measured. Messages are classed by role,
 * kind and a rough line count in half-octave steps, so a short prompt is not estimated at an
 * answer's height: a close estimate means rows that scroll in and get measured barely move the
 * rows already on screen (each such move repaints the whole viewport).
 *
 * With `promptMetrics` (the bubble's font and width, read off a mounted prompt), a plain prompt
 * is classed by its exact wrapped line count: most prompts are one or two lines, and which one
 * does not follow their length closely enough for the rough count.
 */
export function rowSizeClass(row: TimelineRow, promptMetrics: PromptMetrics | null = null): string {
  if (row.kind !== "message") return row.kind;
  const { message } = row;
  // Streaming text grows: class it by its final shape later, not by every chunk.
  if (message.status === "streaming") return `${message.role}:${message.kind}:streaming`;
  const metricsKey = message.role === "user" ? (promptMetrics?.key ?? "") : "";
  const cached = sizeClasses.get(message);
  if (cached !== undefined && cached.metricsKey === metricsKey) return cached.sizeClass;
  const { text } = message;
  let sizeClass: string;
  if (isLongMessage(message.role, text)) {
    // Folded to a fixed number of lines (messageFold.ts), whatever its length.
    sizeClass = `${message.role}:${message.kind}:long`;
  } else if (promptMetrics !== null && message.role === "user" && isPlainParagraph(text)) {
    const lines = countWrappedLines(text, promptMetrics.maxWidth, promptMetrics.widthOf);
    sizeClass = `${message.role}:${message.kind}:lines${lines}`;
  } else {
    let lines = 0;
    let start = 0;
    while (start <= text.length) {
      let end = text.indexOf("\n", start);
      if (end === -1) end = text.length;
      lines += Math.max(1, Math.ceil((end - start) / CHARS_PER_LINE));
      start = end + 1;
    }
    sizeClass = `${message.role}:${message.kind}:${Math.round(2 * Math.log2(lines))}`;
  }
  sizeClasses.set(message, { metricsKey, sizeClass });
  return sizeClass;
}
