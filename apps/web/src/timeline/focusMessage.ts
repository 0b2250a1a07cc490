/**
 * Focus for a message row (articles are `tabindex=-1`) or one of its controls, once the timeline
 * shows it, after the control that had focus went away: Jump to latest (its button disappears),
 * closing the in-place editor, a regeneration (the answer's row is replaced by the new
 * version's), a version switch (the row shows another message, and an arrow at the end of the
 * versions is disabled). Chromium leaves focus on `<body>` in each. Focus moves only while it is
 * lost or still on the pressed control, never from where the reader has put it since. Never
 * scrolls: the timeline alone decides where the view is.
 */

export type MessageFocusTarget = {
  /** The row to focus in, once shown (null: not yet). */
  row(): HTMLElement | null;
  /** Whether the row may take focus yet (e.g. it still shows the editor). */
  ready?(row: HTMLElement): boolean;
  /** The enabled control of the row to focus; null: the row itself. */
  pick(row: HTMLElement): HTMLElement | null;
  /**
   * Whether `pick` has its final answer: until then focus is watched, moved from the row to the
   * control once it is enabled (the Regenerate button of a streaming answer), and put back
   * should a re-render drop it. Default: at once.
   */
  settled?(row: HTMLElement): boolean;
  /** The control that was pressed: focus still on it is ours to move too. */
  origin?: Element | null;
  /** How many frames to wait for the row and for `settled` (default 120). */
  frames?: number;
  /** Runs instead when the row is not shown in time and focus is lost. */
  fallback?(): void;
};

/** Nothing has focus: the element that had it went away (or the reader has not moved it since). */
function focusIsLost(): boolean {
  const active = document.activeElement;
  return active === null || active === document.body;
}

/** The shown row of `messageId`, if the timeline has mounted it. */
export function messageRow(messageId: string): HTMLElement | null {
  return document.querySelector<HTMLElement>(
    `[data-timeline] [data-message-id="${CSS.escape(messageId)}"]`,
  );
}

/** An enabled button of `row` named `name` (its text, else its `aria-label`). */
export function enabledButton(row: HTMLElement, name: string): HTMLButtonElement | null {
  for (const button of row.querySelectorAll<HTMLButtonElement>("button")) {
    const named = button.getAttribute("aria-label") ?? button.textContent;
    if (named === name && !button.disabled) return button;
  }
  return null;
}

/** Watches frames until the target's control (or row) has focus; see {@link MessageFocusTarget}. */
export function focusMessageControl(target: MessageFocusTarget): void {
  const maxFrames = target.frames ?? 120;
  let frames = 0;
  // Where this put focus: the reader has not moved it while it is still there.
  let placed: Element | null = null;
  const ours = () => {
    const active = document.activeElement;
    return (
      focusIsLost() ||
      active === placed ||
      (target.origin != null && active === target.origin && target.origin.isConnected)
    );
  };
  const attempt = () => {
    const row = target.row();
    if (row === null || !(target.ready?.(row) ?? true)) {
      if (frames++ < maxFrames) requestAnimationFrame(attempt);
      else if (placed === null && focusIsLost()) target.fallback?.();
      return;
    }
    // The reader put focus somewhere meanwhile: leave it there.
    if (!ours()) return;
    const control = target.pick(row) ?? row;
    if (document.activeElement !== control) control.focus({ preventScroll: true });
    placed = control;
    if (!(target.settled?.(row) ?? true) && frames++ < maxFrames) requestAnimationFrame(attempt);
  };
  requestAnimationFrame(attempt);
}

/**
 * Focuses the row of `messageId` once it is mounted (a new session mounts within a few frames),
 * unless the reader has moved focus from where it was at the call.
 */
export function focusMessageWhenMounted(messageId: string): void {
  focusMessageControl({
    row: () => messageRow(messageId),
    pick: () => null,
    origin: document.activeElement,
  });
}
