/**
 * Where focus goes after a conversation action (issue 30) took it away from the message's
 * controls (`timeline/focusMessage.ts`): closing the in-place editor (Escape, Cancel, a sent
 * edit), a regeneration, a version switch. Never `<body>`, never a scroll.
 */
import { enabledButton, focusMessageControl, messageRow } from "../timeline/focusMessage.ts";

/**
 * The editor closed: focus goes to the **Edit message** button of `messageId` (so Enter opens
 * the editor again), else its row, once shown and only if removing the editor lost focus;
 * `fallback` runs instead when the row is not shown in time (a sent edit's version comes with
 * the reloaded path).
 */
export function focusEditedMessage(messageId: string, fallback?: () => void): void {
  focusMessageControl({
    row: () => messageRow(messageId),
    // Still showing the editor: the next frame may not.
    ready: (row) => row.querySelector("[data-message-edit]") === null,
    pick: (row) => enabledButton(row, "Edit message"),
    ...(fallback === undefined ? {} : { fallback }),
  });
}

/** How many frames a regenerated answer may stream before its Regenerate button takes focus. */
const STREAM_FRAMES = 60 * 60 * 2;

/**
 * A regeneration replaced the answer's row, pressed `origin` (its Regenerate button) with it:
 * the answer of the new `turnId` takes focus once shown, its row while it streams (Regenerate is
 * disabled), its Regenerate button once it is done (focus still on the row). `fallback` runs
 * when no answer is shown in time and focus was lost.
 */
export function focusRegeneratedAnswer(
  turnId: string,
  origin: Element | null,
  fallback?: () => void,
): void {
  const turn = CSS.escape(turnId);
  focusMessageControl({
    // The answer, else the turn's error notice should it fail.
    row: () =>
      document.querySelector<HTMLElement>(
        `[data-timeline] [data-message-id][data-turn-id="${turn}"][data-kind="answer"]`,
      ) ??
      document.querySelector<HTMLElement>(
        `[data-timeline] [data-message-id][data-turn-id="${turn}"][data-kind="error"]`,
      ),
    pick: (row) => enabledButton(row, "Regenerate"),
    settled: (row) => row.dataset.status !== "streaming",
    origin,
    frames: STREAM_FRAMES,
    ...(fallback === undefined ? {} : { fallback }),
  });
}

/**
 * A version switch shows `messageId` in the row of the pressed arrow (`origin`, `step` of
 * Previous/Next version): focus stays on that arrow, or on the other one when the pressed one
 * is now disabled (the first or last version), else the row.
 */
export function focusSwitchedVersion(
  messageId: string,
  step: "Previous version" | "Next version",
  origin: Element | null,
): void {
  const other = step === "Previous version" ? "Next version" : "Previous version";
  focusMessageControl({
    row: () => messageRow(messageId),
    pick: (row) => enabledButton(row, step) ?? enabledButton(row, other),
    origin,
  });
}
